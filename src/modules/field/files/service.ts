// Files (document 3, File; Photos, photo tags, files). Every file follows storage's
// store-then-record pattern (platform/storage/storage.ts): the object is stored with no
// transaction open, then the row is inserted in a workspace transaction that checks its owner (the
// job, the customer, the library folder) and the customer-portal rule; when that fails the object
// is deleted again. Deleting removes the row first and the object after the commit.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Executor } from '#db/dialect.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { Job } from '#db/tables.ts';
import { clientAccountNotFound, findClientAccount, findVisibleJob, jobNotFound, logJobActivity } from '#crm/index.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { pageOf } from '#platform/pagination.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { recordStored } from '#platform/storage/store-then-record.ts';
import { ObjectTooLarge, asStorageError } from '#platform/storage/errors.ts';
import type { SignedUrl } from '#platform/storage/storage.ts';
import { syncWindow } from '#platform/sync.ts';
import { now } from '#platform/time.ts';
import {
  fileNotFound,
  fileTooLarge,
  folderNotFound,
  jobFilesOnly,
  libraryFilesOnly,
  portalNotReady,
} from './errors.ts';
import { FILE_MAX_BYTES, servedType } from './kinds.ts';
import { findFile, jobLibraryFiles, jobOwnFiles, listFiles, type FileRow } from './repo.ts';
import type { Audience, FileFields, FileListInput, FileObject, Source, UpdateFileInput } from './schemas.ts';
import { fileObject } from './serialize.ts';

/** GET /v1/files/{id}: its signed_url works for one hour (document 3). */
export const FILE_LINK_SECONDS = 3600;
/** GET /v1/files/{id}/download: the redirect's link is short-lived. */
export const DOWNLOAD_LINK_SECONDS = 300;

const fileKey = (firmId: number) => `firms/${firmId}/files/${randomUUID()}`;

// ---------------------------------------------------------------------------------------------
// Storing

/** A file stored under its key, not yet recorded. */
export interface StoredFileObject {
  key: string;
  bytes: number;
  contentType: string;
  filename: string;
}

/** Streams one file to storage (at most 200 MB; over that 413 File too large, nothing kept). */
export async function storeFileObject(
  ctx: ServiceContext,
  body: Readable | Buffer,
  contentType: string,
  filename: string,
): Promise<StoredFileObject> {
  const key = fileKey(ctx.auth.firm.id);
  try {
    const { bytes } = await ctx.deps.storage.put(key, body, { contentType, maxBytes: FILE_MAX_BYTES });
    return { key, bytes, contentType, filename };
  } catch (err) {
    if (err instanceof ObjectTooLarge) throw fileTooLarge();
    throw asStorageError(err);
  }
}

/** Where a new file goes and what it says: decided in the insert's transaction. */
interface Placement {
  source: Source;
  job_id: number | null;
  client_account_id: number | null;
  contact_id: number | null;
  work_order_id: number | null;
  folder_id: number | null;
  audience: Audience;
  customer_visible: boolean;
  description: string | null;
  document_type: string | null;
}

const unplaced = {
  job_id: null,
  client_account_id: null,
  contact_id: null,
  work_order_id: null,
  folder_id: null,
  audience: 'office',
  customer_visible: false,
  document_type: null,
} as const;

/** Inserts a stored object's row in the caller's transaction, logging it on its job. */
async function insertFile(
  trx: Executor,
  who: { firmId: number; userId: number },
  stored: StoredFileObject,
  p: Placement,
): Promise<number> {
  const row = await trx
    .insertInto('files')
    .values({
      firm_id: who.firmId,
      storage_key: stored.key,
      filename: stored.filename,
      content_type: stored.contentType,
      size_bytes: stored.bytes,
      description: p.description,
      document_type: p.document_type,
      source: p.source,
      audience: p.audience,
      customer_visible: p.customer_visible ? 1 : 0,
      job_id: p.job_id,
      client_account_id: p.client_account_id,
      contact_id: p.contact_id,
      work_order_id: p.work_order_id,
      folder_id: p.folder_id,
      uploaded_by_user_id: who.userId,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (p.job_id !== null)
    await logJobActivity(trx, {
      firmId: who.firmId,
      jobId: p.job_id,
      userId: who.userId,
      kind: 'file_added',
      summary: `File "${stored.filename}" added`,
      data: { file_id: row.id, filename: stored.filename },
    });
  return row.id;
}

const whoOf = (ctx: ServiceContext) => ({ firmId: ctx.auth.firm.id, userId: ctx.auth.user.id });

/**
 * Records a stored object as a file: `place` checks its owner inside the workspace transaction and
 * says where it goes. When anything fails, the object is deleted (store first, then record).
 */
function recordFile(
  ctx: ServiceContext,
  stored: StoredFileObject,
  place: (trx: Executor) => Promise<Placement>,
): Promise<number> {
  return recordStored(ctx.deps.storage, [stored.key], () =>
    inWorkspaceTransaction(ctx, async (trx) => insertFile(trx, whoOf(ctx), stored, await place(trx))),
  );
}

// ---------------------------------------------------------------------------------------------
// Owners and the portal rule

export async function visibleJob(ctx: ServiceContext, db: Executor, jobId: number): Promise<Job> {
  const job = await findVisibleJob(db, ctx.auth.firm.id, jobId, ctx.auth.user);
  if (!job) throw jobNotFound();
  return job;
}

async function existingAccount(ctx: ServiceContext, db: Executor, accountId: number) {
  const account = await findClientAccount(db, ctx.auth.firm.id, accountId);
  if (!account) throw clientAccountNotFound();
  return account;
}

async function existingFolder(ctx: ServiceContext, db: Executor, folderId: number) {
  const folder = await db
    .selectFrom('library_folders')
    .select('id')
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('id', '=', folderId)
    .executeTakeFirst();
  if (!folder) throw folderNotFound();
  return folder;
}

/**
 * customer_visible needs the job linked to a customer whose portal is on (document 3): a customer,
 * not archived, in a workspace with the customer portal turned on. 409 with portal_status otherwise.
 */
export async function assertPortalReady(ctx: ServiceContext, db: Executor, job: Job): Promise<void> {
  if (job.client_account_id === null) throw portalNotReady('job_not_linked');
  const account = await findClientAccount(db, ctx.auth.firm.id, job.client_account_id);
  if (!account || account.archived_at !== null) throw portalNotReady('account_archived');
  if (!ctx.auth.settings.customer_portal_enabled) throw portalNotReady('portal_disabled');
}

// ---------------------------------------------------------------------------------------------
// Uploads: the checks before the body is read, before the file is stored, and the record

/** The three upload routes: a job's file, a customer's, the Company Library's. */
export type UploadTarget =
  | { kind: 'job'; jobId: number }
  | { kind: 'customer'; accountId: number }
  | { kind: 'library' };

/** Before the body is read: the owner is there (404 before a byte is stored). */
export async function preflightUpload(ctx: ServiceContext, target: UploadTarget): Promise<void> {
  const db = ctx.database.db;
  if (target.kind === 'job') await visibleJob(ctx, db, target.jobId);
  else if (target.kind === 'customer') await existingAccount(ctx, db, target.accountId);
}

/**
 * The fields an upload's form may carry for its target: audience and customer_visible belong to
 * job files, folder_id to library files (the same 400s as PATCH /v1/files/{id}).
 */
export function checkFieldsFor(target: UploadTarget, fields: FileFields): void {
  if (target.kind !== 'job') {
    if (fields.audience !== undefined) throw jobFilesOnly('audience');
    if (fields.customer_visible !== undefined) throw jobFilesOnly('customer_visible');
  }
  if (target.kind !== 'library' && fields.folder_id !== undefined) throw libraryFilesOnly();
}

/** With the fields read so far, before the file is stored: what the database can refuse already. */
export async function checkBeforeStoring(ctx: ServiceContext, target: UploadTarget, fields: FileFields): Promise<void> {
  checkFieldsFor(target, fields);
  const db = ctx.database.db;
  if (target.kind === 'job' && fields.customer_visible === true)
    await assertPortalReady(ctx, db, await visibleJob(ctx, db, target.jobId));
  if (target.kind === 'library' && typeof fields.folder_id === 'number')
    await existingFolder(ctx, db, fields.folder_id);
}

/** Records an upload read by upload.ts (the object is stored; it is deleted if this fails). */
export async function recordFileUpload(
  ctx: ServiceContext,
  target: UploadTarget,
  stored: StoredFileObject,
  fields: FileFields,
): Promise<{ data: FileObject }> {
  try {
    checkFieldsFor(target, fields);
  } catch (err) {
    await removeObjects(ctx.deps.storage, [stored.key]);
    throw err;
  }
  const description = fields.description?.trim() || null;
  const id = await recordFile(ctx, stored, async (trx) => {
    if (target.kind === 'job') {
      const job = await visibleJob(ctx, trx, target.jobId);
      if (fields.customer_visible === true) await assertPortalReady(ctx, trx, job);
      return {
        ...unplaced,
        source: 'job',
        job_id: job.id,
        audience: fields.audience ?? 'office',
        customer_visible: fields.customer_visible ?? false,
        description,
      };
    }
    if (target.kind === 'customer') {
      const account = await existingAccount(ctx, trx, target.accountId);
      return { ...unplaced, source: 'customer', client_account_id: account.id, description };
    }
    const folderId =
      typeof fields.folder_id === 'number' ? (await existingFolder(ctx, trx, fields.folder_id)).id : null;
    return { ...unplaced, source: 'library', folder_id: folderId, description };
  });
  return { data: fileObject(await fileRow(ctx, id)) };
}

/**
 * An upload to a job, a customer or the Company Library: the owner first (404 before a byte is
 * read), then the form (the file stored as it streams in), then the record.
 */
export async function uploadFile(
  ctx: ServiceContext,
  target: UploadTarget,
  read: () => Promise<{ fields: FileFields; stored: StoredFileObject }>,
): Promise<{ data: FileObject }> {
  await preflightUpload(ctx, target);
  const { fields, stored } = await read();
  return recordFileUpload(ctx, target, stored, fields);
}

export interface ServiceFile {
  jobId: number;
  /** What kind of document the service made: executed_proposal, executed_agreement … */
  documentType: string | null;
  source: Extract<Source, 'job' | 'proposal' | 'work_order'>;
  workOrderId?: number | null;
  description?: string | null;
  audience?: Audience;
  customerVisible?: boolean;
}

/**
 * A file the service made itself, kept on a job (an executed proposal, a signed agreement): its
 * object stored already (storeFileObject, with no transaction open), its row written in the caller's
 * transaction by the context's user and logged on the job. The caller's write decides whether the
 * object is kept (platform/storage/store-then-record.ts).
 */
export async function recordServiceFileIn(
  trx: Executor,
  ctx: ServiceContext,
  stored: StoredFileObject,
  file: ServiceFile,
): Promise<number> {
  const job = await visibleJob(ctx, trx, file.jobId);
  if (file.customerVisible === true) await assertPortalReady(ctx, trx, job);
  return insertFile(trx, whoOf(ctx), stored, {
    ...unplaced,
    source: file.source,
    job_id: job.id,
    work_order_id: file.workOrderId ?? null,
    audience: file.audience ?? 'office',
    customer_visible: file.customerVisible ?? false,
    description: file.description?.trim() || null,
    document_type: file.documentType,
  });
}

// ---------------------------------------------------------------------------------------------
// Reads

async function fileRow(ctx: ServiceContext, id: number, db: Executor = ctx.database.db): Promise<FileRow> {
  const row = await findFile(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw fileNotFound();
  return row;
}

/** A keyless link that downloads the file under its name. */
function linkTo(ctx: ServiceContext, row: FileRow, seconds: number, base: string): Promise<SignedUrl> {
  return ctx.deps.storage.signedUrl(
    row.storage_key,
    {
      expiresInSeconds: seconds,
      filename: row.filename,
      contentType: servedType(row.content_type),
      disposition: 'attachment',
    },
    base,
  );
}

export async function getFile(ctx: ServiceContext, id: number, base: string): Promise<{ data: FileObject }> {
  const row = await fileRow(ctx, id);
  return { data: fileObject(row, await linkTo(ctx, row, FILE_LINK_SECONDS, base)) };
}

/** Where GET /v1/files/{id}/download sends the client: a link that works for five minutes. */
export async function downloadLink(ctx: ServiceContext, id: number, base: string): Promise<string> {
  const row = await fileRow(ctx, id);
  return (await linkTo(ctx, row, DOWNLOAD_LINK_SECONDS, base)).url;
}

/** The job's own files newest first, then the library files linked to it (with attachment). */
export async function jobFiles(ctx: ServiceContext, jobId: number): Promise<{ data: FileObject[] }> {
  const db = ctx.database.db;
  await visibleJob(ctx, db, jobId);
  const [own, linked] = await Promise.all([
    jobOwnFiles(db, ctx.auth.firm.id, jobId),
    jobLibraryFiles(db, ctx.auth.firm.id, jobId),
  ]);
  return { data: [...own.map((r) => fileObject(r)), ...linked.map((r) => fileObject(r))] };
}

export async function listWorkspaceFiles(ctx: ServiceContext, q: FileListInput) {
  const page = pageOf(q);
  const { rows, total } = await listFiles(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    {
      jobId: q.job_id,
      clientAccountId: q.client_account_id,
      contactId: q.contact_id,
      source: q.source,
      folderId: q.folder_id,
      q: q.q?.trim() || undefined,
      engine: ctx.database.dialect.engine,
      createdAfter: syncWindow(q.created_after, 'second', 'created_at'),
    },
    page.limit,
    page.offset,
  );
  return { data: rows.map((r) => fileObject(r)), pagination: { total, limit: page.limit, offset: page.offset } };
}

// ---------------------------------------------------------------------------------------------
// Changes and deletes

/**
 * Only the fields sent change. audience and customer_visible are job files' (400 on others;
 * customer_visible true under the portal rule); folder_id is library files' (null: the top level).
 */
export async function updateFile(ctx: ServiceContext, id: number, input: UpdateFileInput) {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const row = await fileRow(ctx, id, trx);
    const isJobFile = row.job_id !== null;
    if (!isJobFile && input.audience !== undefined) throw jobFilesOnly('audience');
    if (!isJobFile && input.customer_visible !== undefined) throw jobFilesOnly('customer_visible');
    if (row.source !== 'library' && input.folder_id !== undefined) throw libraryFilesOnly();
    if (input.customer_visible === true && row.job_id !== null)
      await assertPortalReady(ctx, trx, await visibleJob(ctx, trx, row.job_id));
    if (typeof input.folder_id === 'number') await existingFolder(ctx, trx, input.folder_id);
    await updateChanged(trx, 'files', row, {
      ...(input.description !== undefined ? { description: input.description?.trim() || null } : {}),
      ...(input.audience !== undefined ? { audience: input.audience } : {}),
      ...(input.customer_visible !== undefined ? { customer_visible: input.customer_visible ? 1 : 0 } : {}),
      ...(input.folder_id !== undefined ? { folder_id: input.folder_id } : {}),
    });
  });
  return { data: fileObject(await fileRow(ctx, id)) };
}

/** Deletes the record (a library file leaves every job with it), then its object after the commit. */
export async function deleteFile(ctx: ServiceContext, id: number): Promise<void> {
  const key = await inWorkspaceTransaction(ctx, async (trx) => {
    const row = await fileRow(ctx, id, trx);
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('library_file_jobs').where('file_id', '=', id).execute();
    await trx.deleteFrom('files').where('id', '=', id).execute();
    return row.storage_key;
  });
  await removeObjects(ctx.deps.storage, [key]);
}
