// File exports (document 3, POST /v1/exports): the request, the poll with its fresh keyless link,
// and the download behind a link. workspace_data is built in the background (workspace-file.ts);
// job_cost_out is built in the request (job-cost-out.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Database } from '#db/database.ts';
import type { ExportFile } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, badRequest, notFound, paymentRequired, unknownFields } from '#platform/errors.ts';
import { hashKey } from '#platform/keys.ts';
import { can } from '#platform/permissions.ts';
import { billingBlocked } from '#platform/plans.ts';
import { millisOf, now, storedAt, zWire } from '#platform/time.ts';
import {
  countPendingExports,
  findExportByLink,
  findExportFile,
  findExportLinkToken,
  insertExportFile,
  insertExportLink,
  subscriptionStatusOf,
} from './repo.ts';
import type { ExportRequest } from './schemas.ts';
import { statusAt } from './serialize.ts';
import { requestJobCostOut } from './job-cost-out.ts';
import { finalPath } from './storage.ts';

export const EXPORT_KINDS = ['workspace_data', 'job_cost_out'] as const;
/** A download link works for this long after the export was requested (document 3: a 24-hour link). */
export const EXPORT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Builds a workspace may have waiting at once; more would only queue the same work again. */
export const MAX_PENDING_EXPORTS = 3;

/**
 * POST /v1/exports: queues a workspace_data file for the background worker, or builds a
 * job_cost_out file at once.
 */
export async function requestExport(ctx: ServiceContext, input: ExportRequest): Promise<ExportFile> {
  if (!(EXPORT_KINDS as readonly string[]).includes(input.kind)) {
    throw badRequest(`kind must be one of ${EXPORT_KINDS.join(', ')}`, {
      message: "workspace_data: every dataset as a ZIP; job_cost_out: one job's costs between two dates as CSV",
      code: 'invalid_request',
      field: 'kind',
      kinds: [...EXPORT_KINDS],
    });
  }
  if (input.kind === 'job_cost_out') return requestJobCostOut(ctx, input, EXPORT_LIFETIME_MS, ctx.deps.dataDir);
  // job_id, from and to belong to job_cost_out; a workspace_data export takes only kind.
  const extra = (['job_id', 'from', 'to'] as const).filter((f) => input[f] !== undefined);
  if (extra.length > 0) {
    throw unknownFields(extra, { message: 'workspace_data takes only kind' });
  }
  // In the workspace's write lock, so two requests at once cannot both take the last place.
  return inWorkspaceTransaction(ctx, async (trx) => {
    const createdAt = now();
    if ((await countPendingExports(trx, ctx.auth.firm.id, createdAt)) >= MAX_PENDING_EXPORTS) {
      throw new ApiError(429, `Workspace already has ${MAX_PENDING_EXPORTS} exports being built`, {
        message: 'Wait for one to be ready (poll its url) before requesting another',
        code: 'exports_in_progress',
      });
    }
    return insertExportFile(trx, {
      firmId: ctx.auth.firm.id,
      kind: input.kind,
      userId: ctx.auth.user.id,
      createdAt,
      expiresAt: storedAt(millisOf(createdAt) + EXPORT_LIFETIME_MS),
    });
  });
}

const exportNotFound = () => notFound('Export not found');

/**
 * An export of the caller's workspace (a user who sees only their own jobs sees only the exports
 * they requested: the file holds what its requester sees). A ready one comes with its download
 * link: one per file, made by the first poll and shown again until the file expires, so a client
 * polling every second does not leave a row per poll.
 */
export async function readExport(
  ctx: ServiceContext,
  id: number,
): Promise<{ file: ExportFile; now: string; token: string | null }> {
  const { db } = ctx.database;
  const onlyOf = can(ctx.auth.user, 'sees_own_jobs_only') ? ctx.auth.user.id : null;
  const file = await findExportFile(db, ctx.auth.firm.id, id, onlyOf);
  if (!file) throw exportNotFound();
  const at = now();
  if (statusAt(file, at) !== 'ready') return { file, now: at, token: null };
  const token = (await findExportLinkToken(db, file.id)) ?? (await makeExportLink(ctx, file, at));
  return { file, now: at, token };
}

/** The file's link, made in the workspace's lock so that two first polls at once share one. */
function makeExportLink(ctx: ServiceContext, file: ExportFile, at: string): Promise<string> {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const made = await findExportLinkToken(trx, file.id);
    if (made) return made;
    const token = randomBytes(32).toString('base64url');
    await insertExportLink(trx, file, token, hashKey(token), at);
    return token;
  });
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The file behind a keyless download link, or the documented refusals. */
export async function openDownload(
  database: Database,
  dataDir: string,
  token: string,
): Promise<{ file: ExportFile; size: number; body: Readable }> {
  const file = TOKEN.test(token) ? await findExportByLink(database.db, hashKey(token)) : undefined;
  if (!file) throw notFound('Export not found', { message: 'This download link is not valid' });
  const expired = () =>
    new ApiError(410, 'Export expired', {
      message: 'Download links last 24 hours; request a new export with POST /v1/exports',
      expired_at: zWire(file.expires_at),
    });
  if (statusAt(file, now()) === 'expired' || file.file_name === null) throw expired();
  const status = await subscriptionStatusOf(database.db, file.firm_id);
  if (status === undefined || billingBlocked(status)) {
    throw paymentRequired('Payment required', {
      message: 'Workspace billing is past due or inactive',
      subscription_status: status ?? null,
    });
  }
  // Opened here, so an expiry sweep deleting the file mid-download does not cut the download;
  // already gone (deleted a moment ago) is as expired as the row is about to say.
  const handle = await fs.promises.open(finalPath(dataDir, file.file_name), 'r').catch(() => null);
  if (!handle) throw expired();
  const { size } = await handle.stat();
  return { file, size, body: handle.createReadStream() };
}
