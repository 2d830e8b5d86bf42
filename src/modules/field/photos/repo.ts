// Photo queries: one, a job's gallery or a filtered page, with the uploader and the tags.
import type { Executor } from '#db/dialect.ts';
import type { Photo, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import { can } from '#platform/permissions.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type PhotoRow = Photo & {
  by_name: string | null;
  by_username: string | null;
  by_email: string | null;
};

export interface PhotoTagRef {
  id: number;
  name: string;
  color: string;
}

export function photoRows(db: Executor, firmId: number) {
  return db
    .selectFrom('photos as p')
    .leftJoin('users as u', 'u.id', 'p.taken_by_user_id')
    .selectAll('p')
    .select(['u.name as by_name', 'u.username as by_username', 'u.email as by_email'])
    .where('p.firm_id', '=', firmId);
}

/** A photo of the workspace on a job the user sees. */
export function findPhoto(db: Executor, firmId: number, id: number, user: User): Promise<PhotoRow | undefined> {
  return onVisibleJob(photoRows(db, firmId).where('p.id', '=', id), 'p.job_id', firmId, user).executeTakeFirst();
}

export function findPhotoByClientUid(db: Executor, firmId: number, clientUid: string): Promise<PhotoRow | undefined> {
  return photoRows(db, firmId).where('p.client_uid', '=', clientUid).executeTakeFirst();
}

/** The job's photos in gallery order: sort_order, then taken_at. */
export function jobGallery(db: Executor, firmId: number, jobId: number): Promise<PhotoRow[]> {
  return photoRows(db, firmId)
    .where('p.job_id', '=', jobId)
    .orderBy('p.sort_order')
    .orderBy('p.taken_at')
    .orderBy('p.id')
    .execute();
}

/** The workspace's photos, from the count the database keeps (migration 018): no scan. */
export async function countPhotos(db: Executor, firmId: number): Promise<number> {
  const row = await db.selectFrom('photo_counts').select('count').where('firm_id', '=', firmId).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Tags of each photo, by name. */
export async function tagsOf(db: Executor, photoIds: number[]): Promise<Map<number, PhotoTagRef[]>> {
  const out = new Map<number, PhotoTagRef[]>();
  if (photoIds.length === 0) return out;
  const rows = await db
    .selectFrom('photo_tag_links as l')
    .innerJoin('photo_tags as t', 't.id', 'l.tag_id')
    .select(['l.photo_id', 't.id', 't.name', 't.color'])
    .where('l.photo_id', 'in', photoIds)
    .orderBy('t.name_key')
    .orderBy('t.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.photo_id) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color });
    out.set(r.photo_id, list);
  }
  return out;
}

export interface PhotoFilter {
  jobId?: number;
  stage?: string;
  visibility?: string;
  updatedAfter?: SyncWindow;
}

/** Newest first; with updated_after oldest changed first. */
export async function listPhotos(
  db: Executor,
  firmId: number,
  user: User,
  f: PhotoFilter,
  limit: number,
  offset: number,
) {
  const filtered = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    if (f.jobId !== undefined) qb = qb.where('p.job_id', '=', f.jobId);
    if (f.stage !== undefined) qb = qb.where('p.stage', '=', f.stage);
    if (f.visibility !== undefined) qb = qb.where('p.visibility', '=', f.visibility);
    if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'p', f.updatedAfter, rest);
    return qb;
  };
  const rows = (rest?: GroupRest) => onVisibleJob(filtered(photoRows(db, firmId), rest), 'p.job_id', firmId, user);
  const page = newestOrSyncPage(rows, 'p', f.updatedAfter, { limit, offset }, 'created_at');
  // The unfiltered list of a user who sees every job (the common sync case) reads the kept count,
  // so its cost does not grow with the workspace; a filter or a crew login's view counts.
  const unfiltered =
    f.jobId === undefined && f.stage === undefined && f.visibility === undefined && f.updatedAfter === undefined;
  const count =
    unfiltered && !can(user, 'sees_own_jobs_only')
      ? countPhotos(db, firmId)
      : onVisibleJob(filtered(db.selectFrom('photos as p').where('p.firm_id', '=', firmId)), 'p.job_id', firmId, user)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.n));
  const [data, total] = await Promise.all([page, count]);
  return { rows: data, total };
}
