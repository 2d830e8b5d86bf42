// File queries: one, a job's list (its own files, then the library files linked to it), a
// filtered page, with the uploader's and the folder's names.
import type { Engine, Executor } from '#db/dialect.ts';
import type { StoredFile, User } from '#db/tables.ts';
import { containsText } from '#db/text-search.ts';
import { onVisibleJob } from '#crm/index.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export type FileRow = StoredFile & {
  by_name: string | null;
  folder_name: string | null;
};

/** A library file as a job's list shows it: with the link to the job. */
export type AttachedFileRow = FileRow & {
  attachment_id: number;
  attachment_job_id: number;
  attached_by_rule: string | null;
  attached_at: string;
};

export function fileRows(db: Executor, firmId: number) {
  return db
    .selectFrom('files as f')
    .leftJoin('users as u', 'u.id', 'f.uploaded_by_user_id')
    .leftJoin('library_folders as lf', 'lf.id', 'f.folder_id')
    .selectAll('f')
    .select(['u.name as by_name', 'lf.name as folder_name'])
    .where('f.firm_id', '=', firmId);
}

/** A file of the workspace: a job's only when the user sees the job. */
export function findFile(db: Executor, firmId: number, id: number, user: User): Promise<FileRow | undefined> {
  return onVisibleJob(fileRows(db, firmId).where('f.id', '=', id), 'f.job_id', firmId, user).executeTakeFirst();
}

/** The job's own files, newest first. */
export function jobOwnFiles(db: Executor, firmId: number, jobId: number): Promise<FileRow[]> {
  return fileRows(db, firmId)
    .where('f.job_id', '=', jobId)
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .execute();
}

/** The library files linked to the job, most recently linked first. */
export function jobLibraryFiles(db: Executor, firmId: number, jobId: number): Promise<AttachedFileRow[]> {
  return fileRows(db, firmId)
    .innerJoin('library_file_jobs as a', 'a.file_id', 'f.id')
    .select([
      'a.id as attachment_id',
      'a.job_id as attachment_job_id',
      'a.attached_by_rule',
      'a.created_at as attached_at',
    ])
    .where('a.job_id', '=', jobId)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
}

/** One library file's link to a job, if there is one. */
export function findAttachment(db: Executor, fileId: number, jobId: number) {
  return db
    .selectFrom('library_file_jobs')
    .selectAll()
    .where('file_id', '=', fileId)
    .where('job_id', '=', jobId)
    .executeTakeFirst();
}

/** How many files a library folder holds. */
export async function countFolderFiles(
  db: Executor,
  firmId: number,
  folderIds: number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (folderIds.length === 0) return out;
  const rows = await db
    .selectFrom('files')
    .select(['folder_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('firm_id', '=', firmId)
    .where('folder_id', 'in', folderIds)
    .groupBy('folder_id')
    .execute();
  for (const r of rows) if (r.folder_id !== null) out.set(r.folder_id, Number(r.n));
  return out;
}

export interface FileFilter {
  jobId?: number;
  clientAccountId?: number;
  contactId?: number;
  source?: string;
  folderId?: number;
  q?: string;
  engine: Engine;
  createdAfter?: SyncWindow;
}

/** Newest first; with created_after oldest first. */
export async function listFiles(
  db: Executor,
  firmId: number,
  user: User,
  f: FileFilter,
  limit: number,
  offset: number,
) {
  const filtered = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    if (f.jobId !== undefined) qb = qb.where('f.job_id', '=', f.jobId);
    if (f.clientAccountId !== undefined) qb = qb.where('f.client_account_id', '=', f.clientAccountId);
    if (f.contactId !== undefined) qb = qb.where('f.contact_id', '=', f.contactId);
    if (f.source !== undefined) qb = qb.where('f.source', '=', f.source);
    if (f.folderId !== undefined) qb = qb.where('f.folder_id', '=', f.folderId);
    if (f.q) qb = qb.where(containsText(['f.filename', 'f.description'], f.q, f.engine));
    if (f.createdAfter !== undefined) qb = whereInWindow(qb, 'f', f.createdAfter, rest);
    return qb;
  };
  const rows = (rest?: GroupRest) => onVisibleJob(filtered(fileRows(db, firmId), rest), 'f.job_id', firmId, user);
  const page = newestOrSyncPage(rows, 'f', f.createdAfter, { limit, offset }, 'created_at');
  const count = onVisibleJob(
    filtered(db.selectFrom('files as f').where('f.firm_id', '=', firmId)),
    'f.job_id',
    firmId,
    user,
  )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const [data, total] = await Promise.all([page, count]);
  return { rows: data, total: Number(total.n) };
}
