// Photo report link queries: a job's link, a link by its token's hash, and the photos its page shows.
import type { Executor } from '#db/dialect.ts';
import type { PhotoShareLinkTable } from '#db/tables.ts';
import type { Selectable } from 'kysely';
import { SHARED_PHOTO_COLUMNS, type SharedPhoto } from './shared.ts';

export type PhotoShareLink = Selectable<PhotoShareLinkTable>;

export function findLinkOfJob(db: Executor, firmId: number, jobId: number): Promise<PhotoShareLink | undefined> {
  return db
    .selectFrom('photo_share_links')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .executeTakeFirst();
}

/** The link a token's hash names, in any workspace: the token is the credential. */
export function findLinkByTokenHash(db: Executor, hash: string): Promise<PhotoShareLink | undefined> {
  return db.selectFrom('photo_share_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/**
 * What the photo report shows: the job's photos that are external and marked for reports
 * (include_in_report, which is never set on an internal photo), in gallery order.
 */
export function reportPhotos(db: Executor, firmId: number, jobId: number): Promise<SharedPhoto[]> {
  return db
    .selectFrom('photos as p')
    .select(SHARED_PHOTO_COLUMNS)
    .where('p.firm_id', '=', firmId)
    .where('p.job_id', '=', jobId)
    .where('p.visibility', '=', 'external')
    .where('p.include_in_report', '=', 1)
    .orderBy('p.sort_order')
    .orderBy('p.taken_at')
    .orderBy('p.id')
    .execute();
}
