// The photo report link of a job (document 2: GET, POST and PATCH
// /v1/jobs/{job_id}/photo-share-link; docs/api-decisions.md, Photo share links). One link per
// job: made by POST (which answers an existing one as it is), changed by PATCH, turned off and on
// again by PATCH enabled (a new token each time it comes back; the old one's page says it was
// turned off). The access code is hashed before the transaction opens: scrypt is slow on purpose.
import { logJobActivity } from '#crm/index.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { now, zWire } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { hashAccessCode } from './access.ts';
import { findLinkOfJob, type PhotoShareLink } from './repo.ts';
import type { CreatePhotoShareLinkInput, PhotoShareLinkObject, UpdatePhotoShareLinkInput } from './schemas.ts';
import { daysFromNow, isPast, shareUrl, visibleJob } from './shared.ts';

export const photoShareLinkNotFound = () =>
  notFound('Photo share link not found', {
    message: 'The job has no photo report link yet: make it with POST /v1/jobs/{job_id}/photo-share-link',
  });

/** The answer for a job, with or without its link. */
async function linkObject(
  ctx: ServiceContext,
  jobId: number,
  link: PhotoShareLink | undefined,
  origin: string,
): Promise<PhotoShareLinkObject> {
  if (!link)
    return {
      job_id: jobId,
      enabled: false,
      share_url: null,
      access_mode: 'public',
      has_access_code: false,
      expires_at: null,
      is_expired: false,
    };
  const expired = isPast(link.expires_at);
  const open = link.enabled === 1 && !expired;
  return {
    job_id: link.job_id,
    enabled: link.enabled === 1,
    share_url: open ? shareUrl(origin, 'photos', await ctx.deps.links.tokenOf('photo_report', link.token_salt)) : null,
    access_mode: link.access_code_hash === null ? 'public' : 'code',
    has_access_code: link.access_code_hash !== null,
    expires_at: zWire(link.expires_at),
    is_expired: expired,
  };
}

/** What the activity log records of a link's settings (never its code or token). */
const settingsOf = (link: PhotoShareLink) => ({
  enabled: link.enabled === 1,
  access_mode: link.access_code_hash === null ? 'public' : 'code',
  expires_at: zWire(link.expires_at),
});

/** A code typed with spaces at either end could never be typed the same way twice. */
function checkAccessCode(code: string | undefined): void {
  if (code !== undefined && code.trim() !== code)
    throw invalidField('access_code', 'access_code must not start or end with a space');
}

export async function getPhotoShareLink(ctx: ServiceContext, jobId: number, origin: string) {
  await visibleJob(ctx, ctx.database.db, jobId);
  const link = await findLinkOfJob(ctx.database.db, ctx.auth.firm.id, jobId);
  return { data: await linkObject(ctx, jobId, link, origin) };
}

/**
 * Makes the job's link (201) with the code and expiry given, or answers the live one as it is
 * (200: a retried POST changes nothing, PATCH changes settings). A link turned off is made again:
 * a new token, and the settings this POST gives.
 */
export async function createPhotoShareLink(
  ctx: ServiceContext,
  jobId: number,
  input: CreatePhotoShareLinkInput,
  origin: string,
): Promise<{ created: boolean; data: PhotoShareLinkObject }> {
  checkAccessCode(input.access_code);
  const firmId = ctx.auth.firm.id;
  await visibleJob(ctx, ctx.database.db, jobId);
  const existing = await findLinkOfJob(ctx.database.db, firmId, jobId);
  if (existing?.enabled === 1) return { created: false, data: await linkObject(ctx, jobId, existing, origin) };

  const codeHash = input.access_code === undefined ? null : await hashAccessCode(input.access_code);
  const token = await ctx.deps.links.issue('photo_report');
  const made = await inWorkspaceTransaction(ctx, async (trx) => {
    await visibleJob(ctx, trx, jobId);
    const current = await findLinkOfJob(trx, firmId, jobId);
    // Made meanwhile by another call: that one stands.
    if (current?.enabled === 1) return { created: false, link: current };
    const at = now();
    const settings = {
      token_salt: token.salt,
      token_hash: token.hash,
      enabled: 1,
      access_code_hash: codeHash,
      expires_at: input.expires_in_days == null ? null : daysFromNow(input.expires_in_days),
      failed_attempts: 0,
      failed_window_start: null,
      updated_at: at,
    };
    if (current) {
      await trx.updateTable('photo_share_links').set(settings).where('id', '=', current.id).execute();
    } else {
      await trx
        .insertInto('photo_share_links')
        .values({ ...settings, firm_id: firmId, job_id: jobId, created_by_user_id: ctx.auth.user.id, created_at: at })
        .execute();
    }
    const made = (await findLinkOfJob(trx, firmId, jobId))!;
    await logJobActivity(trx, {
      firmId,
      jobId,
      userId: ctx.auth.user.id,
      kind: 'photo_share_link_changed',
      summary: current ? 'Photo report link turned on again' : 'Photo report link made',
      data: settingsOf(made),
    });
    return { created: true, link: made };
  });
  return { created: made.created, data: await linkObject(ctx, jobId, made.link, origin) };
}

/** Changes only what is sent; the answer is the link as it now stands. */
export async function updatePhotoShareLink(
  ctx: ServiceContext,
  jobId: number,
  input: UpdatePhotoShareLinkInput,
  origin: string,
) {
  if (input.public === true && input.access_code !== undefined)
    throw invalidField('public', 'Send access_code or public true, not both', {
      message: 'public true removes the access code; access_code sets one',
    });
  if (input.public === false && input.access_code === undefined)
    throw invalidField('public', 'public false needs an access_code', {
      message: 'To make the page ask for a code, send access_code',
    });
  checkAccessCode(input.access_code);
  const firmId = ctx.auth.firm.id;
  await visibleJob(ctx, ctx.database.db, jobId);
  const codeHash = input.access_code === undefined ? undefined : await hashAccessCode(input.access_code);
  const token = input.enabled === true ? await ctx.deps.links.issue('photo_report') : null;

  const link = await inWorkspaceTransaction(ctx, async (trx) => {
    await visibleJob(ctx, trx, jobId);
    const current = await findLinkOfJob(trx, firmId, jobId);
    if (!current) throw photoShareLinkNotFound();
    const changes: Partial<PhotoShareLink> = {};
    const said: string[] = [];
    if (input.enabled === false && current.enabled === 1) {
      await retireLink(trx, { firmId, kind: 'photo_report', tokenHash: current.token_hash, reason: 'disabled' });
      changes.enabled = 0;
      said.push('turned off');
    }
    if (input.enabled === true && current.enabled === 0 && token) {
      Object.assign(changes, { enabled: 1, token_salt: token.salt, token_hash: token.hash });
      said.push('turned on again');
    }
    if (codeHash !== undefined) {
      changes.access_code_hash = codeHash;
      said.push(current.access_code_hash === null ? 'access code set' : 'access code changed');
    } else if (input.public === true && current.access_code_hash !== null) {
      changes.access_code_hash = null;
      said.push('access code removed');
    }
    if (input.expires_in_days !== undefined) {
      changes.expires_at = input.expires_in_days === null ? null : daysFromNow(input.expires_in_days);
      const days = input.expires_in_days;
      said.push(days === null ? 'set never to expire' : `set to expire in ${days} day${days === 1 ? '' : 's'}`);
    }
    // A new code or a new token starts the count of wrong codes again.
    if (codeHash !== undefined || changes.token_hash !== undefined)
      Object.assign(changes, { failed_attempts: 0, failed_window_start: null });
    if (said.length === 0) return current;
    await trx
      .updateTable('photo_share_links')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', current.id)
      .execute();
    const changed = (await findLinkOfJob(trx, firmId, jobId))!;
    await logJobActivity(trx, {
      firmId,
      jobId,
      userId: ctx.auth.user.id,
      kind: 'photo_share_link_changed',
      summary: `Photo report link ${said.join(', ')}`,
      data: settingsOf(changed),
    });
    return changed;
  });
  return { data: await linkObject(ctx, jobId, link, origin) };
}
