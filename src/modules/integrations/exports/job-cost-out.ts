// job_cost_out file exports (document 3, POST /v1/exports with job_id, from and to;
// docs/api-decisions.md, "Operations: time and job costs"): one job's cost rows dated between two
// days as CSV, the file an accounting system imports. Small and bounded by one job, so it is built
// in the request and answered ready; polling and the keyless 24-hour link work as for
// workspace_data. The rows come from the operations area (its entry, jobCostOutRows).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { ExportFile } from '#db/tables.ts';
import { type CostRowObject, jobCostOutRows } from '#operations/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { csvText } from '#platform/csv.ts';
import { badRequest } from '#platform/errors.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { findExportFile, insertExportFile, markAttemptFailed, markReady } from './repo.ts';
import type { ExportRequest } from './schemas.ts';
import { exportsDir, finalPath, partialPath, removeFile } from './storage.ts';

/** The CSV's columns: the cost row's fields, in the order an accountant reads them. */
export const JOB_COST_OUT_COLUMNS = [
  'date',
  'job_id',
  'source',
  'id',
  'cost_type',
  'cost_code',
  'description',
  'quantity',
  'unit',
  'amount',
  'time_entry_id',
  'user_id',
  'created_at',
  'reviewed_at',
  'reconciled_at',
] as const satisfies readonly (keyof CostRowObject)[];

export function jobCostCsv(rows: readonly CostRowObject[]): string {
  return csvText([JOB_COST_OUT_COLUMNS, ...rows.map((r) => JOB_COST_OUT_COLUMNS.map((c) => r[c]))]);
}

export function csvName(exportId: number, token: string): string {
  return `${exportId}-${token}.csv`;
}

/** The parameters job_cost_out needs: job_id, and from and to (YYYY-MM-DD, from not after to). */
function rangeOf(input: ExportRequest): { jobId: number; from: string; to: string } {
  const missing = (['job_id', 'from', 'to'] as const).filter((f) => input[f] === undefined);
  if (missing.length > 0)
    throw badRequest(`job_cost_out needs ${missing.join(', ')}`, {
      code: 'missing_parameter',
      fields: missing,
      message: 'Send job_id and the dates from and to (YYYY-MM-DD, inclusive)',
    });
  if (input.to! < input.from!) throw badRequest('to must not be before from', { code: 'invalid_request', field: 'to' });
  return { jobId: input.job_id!, from: input.from!, to: input.to! };
}

/** POST /v1/exports kind job_cost_out: builds the CSV now and answers the ready file. */
export async function requestJobCostOut(
  ctx: ServiceContext,
  input: ExportRequest,
  lifetimeMs: number,
  dataDir: string,
): Promise<ExportFile> {
  const { jobId, from, to } = rangeOf(input);
  const started = now();
  const rows = await jobCostOutRows(ctx, jobId, { from, to });
  const token = randomBytes(12).toString('hex');
  // Pending and leased to this request until it expires: the workspace_data worker only claims
  // workspace_data, and the lease keeps the row this request's.
  const file = await inWorkspaceTransaction(ctx, (trx) =>
    insertExportFile(trx, {
      firmId: ctx.auth.firm.id,
      kind: 'job_cost_out',
      userId: ctx.auth.user.id,
      createdAt: started,
      expiresAt: storedAt(millisOf(started) + lifetimeMs),
      lease: { token, attempts: 1 },
    }),
  );
  const name = csvName(file.id, token);
  const partial = partialPath(dataDir, name);
  try {
    await fs.promises.mkdir(exportsDir(dataDir), { recursive: true });
    await fs.promises.writeFile(partial, jobCostCsv(rows));
    const final = finalPath(dataDir, name);
    await fs.promises.rename(partial, final);
    const { size } = await fs.promises.stat(final);
    await markReady(ctx.database.db, file.id, token, {
      fileName: name,
      sizeBytes: size,
      rowCounts: { job_costs: rows.length },
      watermark: null,
      at: now(),
    });
  } catch (err) {
    await removeFile(partial);
    await markAttemptFailed(ctx.database.db, file.id, token, 'Writing the file failed', now(), null);
    throw err;
  }
  return (await findExportFile(ctx.database.db, ctx.auth.firm.id, file.id, null))!;
}
