// Starting a plan takeoff (document 3: POST /v1/jobs/{job_id}/landscape-takeoffs with type
// blueprint → 202 run). In the request, before anything is written: the plan gate, the job, a
// credit left, the PDF fetched (file_url) or read (file_id) within 100 MB, opened to check it is a
// readable PDF, and the pages asked for checked against its page count. The PDF is then stored
// and a pending `plan` run queued; the worker stores the sheets, reads them and makes the takeoff
// (store.ts). Refused starts cost nothing, and so does a run that fails.
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { NotReadablePdf } from '#engines/plans/index.ts';
import { countPagesOnThread } from './on-thread.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { paymentRequired } from '#platform/errors.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { settingsOf } from '#platform/workspace.ts';
import { assertRoomForRun, insertRun, startedRun } from '../runs.ts';
import { checkBlueprintStart, type CreateTakeoff } from '../takeoffs.ts';
import { notReadablePdf, pageNotInPdf } from './errors.ts';
import { pdfFromJobFile, pdfFromUrl, planKey } from './source.ts';

/** Where a plan takeoff's PDF came from and what was taken off (the takeoff's plan_source). */
export interface PlanSource {
  file_id: number | null;
  file_url: string | null;
  bytes: number;
  pages: number[];
}

/** What the plan run is asked to do (the run's request). */
export interface PlanRequest {
  name: string;
  plan_key: string;
  page_count: number;
  source: PlanSource;
}

export const noCredits = () => paymentRequired('No takeoff credits remaining');

const NOT_READABLE: Record<NotReadablePdf['reason'], string> = {
  not_pdf: 'The file is not a PDF',
  damaged: 'The PDF is damaged and could not be read',
  encrypted: 'The PDF needs a password to open',
  no_pages: 'The PDF has no pages',
};

/** The page count of a readable PDF, or 422 Not a readable PDF saying why. */
export async function pageCountOf(bytes: Uint8Array): Promise<number> {
  try {
    // Copied to the engine thread, not moved: the bytes are stored afterwards.
    return await countPagesOnThread([bytes]);
  } catch (err) {
    if (err instanceof NotReadablePdf) throw notReadablePdf(NOT_READABLE[err.reason]);
    throw err;
  }
}

export async function startPlanTakeoff(ctx: ServiceContext, jobId: number, body: CreateTakeoff) {
  checkBlueprintStart(ctx, body);
  const firmId = ctx.auth.firm.id;
  const job = await findVisibleJob(ctx.database.db, firmId, jobId, ctx.auth.user);
  if (!job) throw jobNotFound();
  // Read now, not from the key's memo: the worker takes credits in another process.
  const firm = await ctx.database.db
    .selectFrom('firms')
    .select('settings')
    .where('id', '=', firmId)
    .executeTakeFirstOrThrow();
  const settings = settingsOf(firm);
  if (!settings.landscape_edition && settings.takeoff_credits < 1) throw noCredits();
  // Before the download: a workspace with 3 runs going is told now, not after 100 MB.
  await assertRoomForRun(ctx.database.db, firmId);

  const bytes =
    body.file_url !== undefined
      ? await pdfFromUrl(ctx, body.file_url)
      : await pdfFromJobFile(ctx, jobId, body.file_id!);
  const pageCount = await pageCountOf(bytes);
  const pages = body.pages ?? Array.from({ length: pageCount }, (_, i) => i + 1);
  for (const p of pages) if (p > pageCount) throw pageNotInPdf(p, pageCount);

  const key = planKey(firmId);
  await ctx.deps.storage.put(key, bytes, { contentType: 'application/pdf' });
  const request: PlanRequest = {
    name: body.name?.trim() || `${job.name} plans`,
    plan_key: key,
    page_count: pageCount,
    source: {
      file_id: body.file_id ?? null,
      file_url: body.file_url ?? null,
      bytes: bytes.length,
      pages: [...pages].sort((a, b) => a - b),
    },
  };
  let id: number;
  try {
    id = await inWorkspaceTransaction(ctx, async (trx) => {
      if (!(await findVisibleJob(trx, firmId, jobId, ctx.auth.user))) throw jobNotFound();
      await assertRoomForRun(trx, firmId);
      return insertRun(trx, ctx, { job_id: jobId, takeoff_id: null, kind: 'plan', request });
    });
  } catch (err) {
    await removeObjects(ctx.deps.storage, [key]);
    throw err;
  }
  return startedRun(ctx, id);
}
