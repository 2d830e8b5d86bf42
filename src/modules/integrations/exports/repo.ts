// Queries of workspace export files and their download links. Every read from the API is scoped
// by firm_id; the worker's claim and expiry queries cross workspaces by design.
import type { ExpressionBuilder } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { DB, ExportFile, User } from '#db/tables.ts';
import { workQueuedIn } from '#platform/work-queued.ts';

/** The export files' queue, for the worker inside `serve` (platform/work-queued.ts): its table. */
export const EXPORT_FILE_QUEUE = 'export_files';

export async function insertExportFile(
  db: Executor,
  values: {
    firmId: number;
    kind: string;
    userId: number;
    createdAt: string;
    expiresAt: string;
    /**
     * A file the request builds itself (job_cost_out): leased to it until the file expires, so no
     * worker ever claims it, and its one attempt counted.
     */
    lease?: { token: string; attempts: number };
  },
): Promise<ExportFile> {
  const file = await db
    .insertInto('export_files')
    .values({
      firm_id: values.firmId,
      kind: values.kind,
      status: 'pending',
      file_name: null,
      size_bytes: null,
      row_counts: null,
      watermark: null,
      error: null,
      attempts: values.lease?.attempts ?? 0,
      locked_until: values.lease ? values.expiresAt : null,
      lease_token: values.lease?.token ?? null,
      created_by_user_id: values.userId,
      created_at: values.createdAt,
      updated_at: values.createdAt,
      completed_at: null,
      expires_at: values.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // A file the request builds itself is not the worker's.
  if (!values.lease) workQueuedIn(db, EXPORT_FILE_QUEUE);
  return file;
}

/** An export of the workspace; `onlyOf` restricts to exports that user requested. */
export function findExportFile(
  db: Executor,
  firmId: number,
  id: number,
  onlyOf: number | null,
): Promise<ExportFile | undefined> {
  let qb = db.selectFrom('export_files').selectAll().where('firm_id', '=', firmId).where('id', '=', id);
  if (onlyOf !== null) qb = qb.where('created_by_user_id', '=', onlyOf);
  return qb.executeTakeFirst();
}

/** Exports of the workspace still waiting to be built (and not yet past their 24 hours). */
export async function countPendingExports(db: Executor, firmId: number, now: string): Promise<number> {
  const row = await db
    .selectFrom('export_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where('kind', '=', 'workspace_data')
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertExportLink(
  db: Executor,
  file: ExportFile,
  token: string,
  tokenHash: string,
  createdAt: string,
): Promise<void> {
  await db
    .insertInto('export_file_links')
    .values({ firm_id: file.firm_id, export_file_id: file.id, token, token_hash: tokenHash, created_at: createdAt })
    .execute();
}

/** The token of the file's download link, the first one made (null when none has been made). */
export async function findExportLinkToken(db: Executor, fileId: number): Promise<string | null> {
  const row = await db
    .selectFrom('export_file_links')
    .select('token')
    .where('export_file_id', '=', fileId)
    .where('token', 'is not', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.token ?? null;
}

/** The export a download link points at. */
export function findExportByLink(db: Executor, tokenHash: string): Promise<ExportFile | undefined> {
  return db
    .selectFrom('export_file_links')
    .innerJoin('export_files', 'export_files.id', 'export_file_links.export_file_id')
    .selectAll('export_files')
    .where('export_file_links.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The workspace's billing state: a keyless download has no key whose checks would have refused it. */
export async function subscriptionStatusOf(db: Executor, firmId: number): Promise<string | undefined> {
  const row = await db.selectFrom('firms').select('subscription_status').where('id', '=', firmId).executeTakeFirst();
  return row?.subscription_status;
}

/** The user an export was requested by (their visibility shapes the file). */
export function findRequester(db: Executor, file: ExportFile): Promise<User | undefined> {
  if (file.created_by_user_id === null) return Promise.resolve(undefined);
  return db
    .selectFrom('users')
    .selectAll()
    .where('firm_id', '=', file.firm_id)
    .where('id', '=', file.created_by_user_id)
    .executeTakeFirst();
}

// ---- the worker ------------------------------------------------------------------------------

/** Whether any pending export is free to take (or to give up on): a read, so an idle sweep writes nothing. */
export async function anyExportDue(db: Executor, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('export_files')
    .select('id')
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .where(leaseFree(now))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the oldest pending export whose lease is free or has run out (a crashed build's), for
 * `leaseToken` until `lockedUntil`, counting the attempt. One statement, so two workers never
 * both take it: the outer WHERE re-checks the lease, and on PostgreSQL the inner SELECT skips
 * rows another worker's claim has locked (FOR UPDATE SKIP LOCKED).
 */
export function claimPendingExport(
  db: Executor,
  engine: Engine,
  now: string,
  lockedUntil: string,
  leaseToken: string,
  maxAttempts: number,
): Promise<ExportFile | undefined> {
  let next = db
    .selectFrom('export_files')
    .select('id')
    .where('kind', '=', 'workspace_data')
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .where(leaseFree(now))
    .orderBy('id')
    .limit(1);
  if (engine === 'postgres') next = next.forUpdate().skipLocked();
  return db
    .updateTable('export_files')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      locked_until: lockedUntil,
      lease_token: leaseToken,
      updated_at: now,
    }))
    .where('id', '=', next)
    .where('status', '=', 'pending')
    .where(leaseFree(now))
    .returningAll()
    .executeTakeFirst();
}

/** No build holds the export: never leased, or the holder's lease ran out (it crashed or stalled). */
function leaseFree(now: string) {
  return (eb: ExpressionBuilder<DB, 'export_files'>) =>
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);
}

/** Fails pending exports whose last allowed build stopped (its lease ran out); answers their ids. */
export async function failAbandonedExports(
  db: Executor,
  now: string,
  maxAttempts: number,
  error: string,
): Promise<number[]> {
  const rows = await db
    .updateTable('export_files')
    .set({ status: 'failed', error, locked_until: null, lease_token: null, completed_at: now, updated_at: now })
    .where('status', '=', 'pending')
    .where('attempts', '>=', maxAttempts)
    .where(leaseFree(now))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Extends a build's lease; false when the lease was lost (another worker took the export over). */
export async function renewLease(db: Executor, id: number, leaseToken: string, lockedUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('export_files')
    .set({ locked_until: lockedUntil })
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function holdsLease(db: Executor, id: number, leaseToken: string): Promise<boolean> {
  const row = await db
    .selectFrom('export_files')
    .select('id')
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks the build done, only if this build still holds the lease. */
export async function markReady(
  db: Executor,
  id: number,
  leaseToken: string,
  done: {
    fileName: string;
    sizeBytes: number;
    rowCounts: Record<string, number>;
    /** null for a file that is no dataset pull (job_cost_out). */
    watermark: string | null;
    at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('export_files')
    .set({
      status: 'ready',
      file_name: done.fileName,
      size_bytes: done.sizeBytes,
      row_counts: JSON.stringify(done.rowCounts),
      watermark: done.watermark,
      error: null,
      locked_until: null,
      lease_token: null,
      completed_at: done.at,
      updated_at: done.at,
    })
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a failed attempt: tried again after `retryAt`, or failed for good when `retryAt` is null. */
export async function markAttemptFailed(
  db: Executor,
  id: number,
  leaseToken: string,
  error: string,
  at: string,
  retryAt: string | null,
): Promise<void> {
  await db
    .updateTable('export_files')
    .set(
      retryAt === null
        ? { status: 'failed', error, locked_until: null, lease_token: null, completed_at: at, updated_at: at }
        : { error, locked_until: retryAt, lease_token: null, updated_at: at },
    )
    .where('id', '=', id)
    .where('lease_token', '=', leaseToken)
    .where('status', '=', 'pending')
    .execute();
}

/** Ready or pending exports past their 24 hours (at most `limit`). */
export function findExpiredExports(db: Executor, now: string, limit: number): Promise<ExportFile[]> {
  return db
    .selectFrom('export_files')
    .selectAll()
    .where('status', 'in', ['ready', 'pending'])
    .where('expires_at', '<=', now)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markExpired(db: Executor, file: ExportFile, at: string): Promise<void> {
  await db
    .updateTable('export_files')
    .set({
      status: 'expired',
      file_name: null,
      locked_until: null,
      lease_token: null,
      updated_at: at,
      ...(file.status === 'pending' ? { error: 'Not built before it expired' } : {}),
    })
    .where('id', '=', file.id)
    .where('status', '=', file.status)
    .execute();
}
