// Chosen-photo link queries: a job's links newest first, one link, one by its token's hash, and
// the photos each shows.
import type { Selectable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { PhotoSelectionShareTable } from '#db/tables.ts';
import { SHARED_PHOTO_COLUMNS, type SharedPhoto } from '#field/photo-share-links/shared.ts';

export type PhotoSelectionShare = Selectable<PhotoSelectionShareTable>;

export async function listJobShares(
  db: Executor,
  firmId: number,
  jobId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: PhotoSelectionShare[]; total: number }> {
  const mine = db.selectFrom('photo_selection_shares').where('firm_id', '=', firmId).where('job_id', '=', jobId);
  const [rows, count] = await Promise.all([
    mine
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findJobShare(
  db: Executor,
  firmId: number,
  jobId: number,
  id: number,
): Promise<PhotoSelectionShare | undefined> {
  return db
    .selectFrom('photo_selection_shares')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The link a token's hash names, in any workspace: the token is the credential. */
export function findShareByTokenHash(db: Executor, hash: string): Promise<PhotoSelectionShare | undefined> {
  return db.selectFrom('photo_selection_shares').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** The chosen photos each share shows now (external, not deleted), in their order. */
export async function shownPhotoIds(db: Executor, shareIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(shareIds.map((id) => [id, []]));
  if (shareIds.length === 0) return out;
  const rows = await db
    .selectFrom('photo_selection_share_photos as s')
    .innerJoin('photos as p', 'p.id', 's.photo_id')
    .select(['s.share_id', 's.photo_id'])
    .where('s.share_id', 'in', shareIds)
    .where('p.visibility', '=', 'external')
    .orderBy('s.share_id')
    .orderBy('s.position')
    .execute();
  for (const r of rows) out.get(r.share_id)!.push(r.photo_id);
  return out;
}

/** What a share's page shows: its chosen photos that are still there and still external, in order. */
export function selectionPhotos(db: Executor, share: PhotoSelectionShare): Promise<SharedPhoto[]> {
  return db
    .selectFrom('photo_selection_share_photos as s')
    .innerJoin('photos as p', 'p.id', 's.photo_id')
    .select(SHARED_PHOTO_COLUMNS)
    .where('s.share_id', '=', share.id)
    .where('p.firm_id', '=', share.firm_id)
    .where('p.visibility', '=', 'external')
    .orderBy('s.position')
    .execute();
}
