// Links to chosen photos of a job (document 2: GET and POST /v1/jobs/{job_id}/photo-selection-shares,
// POST …/{share_id}/revoke; docs/api-decisions.md, Photo share links). A share keeps the photos it
// was made with as rows, so a photo added to the job later never appears; a photo deleted since
// drops out, and one made internal is not shown while it is internal. Revoking is for good.
import { logJobActivity } from '#crm/index.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { pageOf } from '#platform/pagination.ts';
import { now, zWire } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { daysFromNow, isPast, shareUrl, visibleJob } from '#field/photo-share-links/shared.ts';
import { findJobShare, listJobShares, shownPhotoIds, type PhotoSelectionShare } from './repo.ts';
import type { CreatePhotoSelectionShareInput, PhotoSelectionShareObject } from './schemas.ts';

const DEFAULT_DAYS = 30;

export const selectionShareNotFound = () => notFound('Photo selection share not found');

async function shareObjects(
  ctx: ServiceContext,
  rows: PhotoSelectionShare[],
  origin: string,
): Promise<PhotoSelectionShareObject[]> {
  const shown = await shownPhotoIds(
    ctx.database.db,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (share) => {
      const expired = isPast(share.expires_at);
      const photoIds = shown.get(share.id) ?? [];
      return {
        id: share.id,
        job_id: share.job_id,
        title: share.title,
        photo_ids: photoIds,
        photo_count: photoIds.length,
        share_url:
          share.revoked_at === null && !expired
            ? shareUrl(origin, 'photo-selections', await ctx.deps.links.tokenOf('photo_selection', share.token_salt))
            : null,
        expires_at: zWire(share.expires_at),
        is_expired: expired,
        revoked_at: zWire(share.revoked_at),
        created_at: zWire(share.created_at),
      };
    }),
  );
}

export async function listSelectionShares(
  ctx: ServiceContext,
  jobId: number,
  query: { limit?: number; offset?: number },
  origin: string,
) {
  await visibleJob(ctx, ctx.database.db, jobId);
  const page = pageOf(query);
  const { rows, total } = await listJobShares(ctx.database.db, ctx.auth.firm.id, jobId, page);
  return { data: await shareObjects(ctx, rows, origin), pagination: { total, ...page } };
}

/** The 400 naming the photo ids that cannot go on the link. */
const unusablePhotos = (error: string, ids: number[], message: string) =>
  invalidField('photo_ids', error, { message, photo_ids: ids });

export async function createSelectionShare(
  ctx: ServiceContext,
  jobId: number,
  input: CreatePhotoSelectionShareInput,
  origin: string,
): Promise<PhotoSelectionShareObject> {
  const firmId = ctx.auth.firm.id;
  const photoIds = [...new Set(input.photo_ids)];
  const title = input.title?.trim() || null;
  const token = await ctx.deps.links.issue('photo_selection');
  const id = await inWorkspaceTransaction(ctx, async (trx) => {
    await visibleJob(ctx, trx, jobId);
    const photos = await trx
      .selectFrom('photos')
      .select(['id', 'visibility'])
      .where('firm_id', '=', firmId)
      .where('job_id', '=', jobId)
      .where('id', 'in', photoIds)
      .execute();
    const found = new Map(photos.map((p) => [p.id, p.visibility]));
    // Another job's photo and another workspace's (or none at all) read the same: not on this job.
    const missing = photoIds.filter((p) => !found.has(p));
    if (missing.length > 0)
      throw unusablePhotos(
        'Photo not found on this job',
        missing,
        `Photos ${missing.join(', ')} are not photos of job ${jobId}`,
      );
    const internal = photoIds.filter((p) => found.get(p) === 'internal');
    if (internal.length > 0)
      throw unusablePhotos(
        'Internal photos cannot be shared',
        internal,
        `Photos ${internal.join(', ')} are internal; make them external first (PATCH /v1/photos/{id})`,
      );
    const at = now();
    const share = await trx
      .insertInto('photo_selection_shares')
      .values({
        firm_id: firmId,
        job_id: jobId,
        title,
        token_salt: token.salt,
        token_hash: token.hash,
        expires_at: daysFromNow(input.expires_in_days ?? DEFAULT_DAYS),
        revoked_at: null,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('photo_selection_share_photos')
      .values(photoIds.map((photo_id, i) => ({ share_id: share.id, photo_id, position: i + 1 })))
      .execute();
    await logJobActivity(trx, {
      firmId,
      jobId,
      userId: ctx.auth.user.id,
      kind: 'photo_selection_shared',
      summary: `Link to ${photoIds.length} photo${photoIds.length === 1 ? '' : 's'} made${title ? `: ${title}` : ''}`,
      data: { share_id: share.id, photo_ids: photoIds },
    });
    return share.id;
  });
  const row = (await findJobShare(ctx.database.db, firmId, jobId, id))!;
  return (await shareObjects(ctx, [row], origin))[0]!;
}

/** Turns the link off for good; a second revoke answers the same share, revoked_at unchanged. */
export async function revokeSelectionShare(ctx: ServiceContext, jobId: number, shareId: number, origin: string) {
  const firmId = ctx.auth.firm.id;
  const row = await inWorkspaceTransaction(ctx, async (trx) => {
    await visibleJob(ctx, trx, jobId);
    const share = await findJobShare(trx, firmId, jobId, shareId);
    if (!share) throw selectionShareNotFound();
    if (share.revoked_at !== null) return share;
    const at = now();
    await trx.updateTable('photo_selection_shares').set({ revoked_at: at }).where('id', '=', share.id).execute();
    await retireLink(trx, { firmId, kind: 'photo_selection', tokenHash: share.token_hash, reason: 'revoked' });
    await logJobActivity(trx, {
      firmId,
      jobId,
      userId: ctx.auth.user.id,
      kind: 'photo_selection_revoked',
      summary: `Photo link revoked${share.title ? `: ${share.title}` : ''}`,
      data: { share_id: share.id },
    });
    return { ...share, revoked_at: at };
  });
  return { data: (await shareObjects(ctx, [row], origin))[0]! };
}
