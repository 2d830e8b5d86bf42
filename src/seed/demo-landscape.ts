// The demo workspace's landscape takeoffs (issue 28) on the Maple Ridge entrance landscaping job,
// started and run by the same code as the API and the worker:
// - an aerial takeoff measured from the demo's own yard tiles (demo-yard.ts) by a detect run, so
//   the demo shows detected lawn, beds and trees, the run that found them, and the credit it used;
// - a plan takeoff read from the job's plan set, a PDF generated at seed time (engines/plans'
//   synthetic plan, a fixed seed: a planting plan with its plant schedule and callouts, a rotated
//   sheet, a scanned one) and stored on the job as an upload is, then started with its file_id as
//   POST /v1/jobs/{job_id}/landscape-takeoffs {type: blueprint} does, taking off its two drawn
//   sheets; the worker stores them and reads the schedule and callouts (one credit), and an
//   advanced run places the callout and symbol dots on both.
import { recordFileUpload, storeFileObject } from '#field/index.ts';
import {
  createAerialTakeoff,
  getLandscapeRun,
  landscapeRunTask,
  startDetect,
  startPlanRun,
  startPlanTakeoff,
} from '#measurement/index.ts';
import { systemClock } from '#platform/clock.ts';
import type { ServiceContext } from '#platform/context.ts';
import { demoYardImagery, demoYardOutline } from './demo-yard.ts';

/** The demo plan set's seed: the same PDF on every start. */
export const DEMO_PLAN_SEED = 28;

export async function demoLandscape(ctx: ServiceContext, jobId: number): Promise<{ aerialId: number; planId: number }> {
  const takeoff = (await createAerialTakeoff(ctx, jobId, { type: 'aerial', name: 'Entrance lawn and beds' })).data;
  const seeing = { ...ctx, deps: { ...ctx.deps, imagery: demoYardImagery(), segmentation: null } };
  await startDetect(seeing, takeoff.id, { polygon: demoYardOutline() });
  // The run, done now as the worker would do it (the worker the server starts reads no demo tiles).
  const worker = landscapeRunTask(seeing, { clock: systemClock, leaseMs: 120_000 });
  await worker.sweep();
  return { aerialId: takeoff.id, planId: await demoPlanTakeoff(ctx, jobId, worker) };
}

/** The entrance's plan set on the job, its takeoff read by the worker and an advanced run: the takeoff's id. */
async function demoPlanTakeoff(
  ctx: ServiceContext,
  jobId: number,
  worker: ReturnType<typeof landscapeRunTask>,
): Promise<number> {
  // The generator (pdfkit, MuPDF) is loaded only when a demo is seeded, not with every server.
  const { syntheticPlan } = await import('#engines/plans/synthetic-plan.ts');
  const { bytes } = await syntheticPlan(DEMO_PLAN_SEED);
  const stored = await storeFileObject(ctx, bytes, 'application/pdf', 'Entrance planting plans.pdf');
  const file = await recordFileUpload(ctx, { kind: 'job', jobId }, stored, {
    description: 'Planting plan set from the landscape architect',
  });
  const started = await startPlanTakeoff(ctx, jobId, {
    type: 'blueprint',
    file_id: file.data.id,
    // The two drawn sheets: the scanned enlargement is most of a plan's reading time (docs/performance.md,
    // "The plan takeoff"), and the demo is seeded on every fresh start and in many tests.
    pages: [1, 2],
    name: 'Entrance planting plans',
  });
  await worker.sweep();
  const read = (await getLandscapeRun(ctx, started.data.id)).data;
  if (read.status !== 'completed' || read.takeoff_id === null)
    throw new Error(`The demo plan takeoff's run ended ${read.status}: ${JSON.stringify(read.failure)}`);
  const advanced = await startPlanRun(ctx, read.takeoff_id, 'advanced_run', {});
  await worker.sweep();
  const dots = (await getLandscapeRun(ctx, advanced.data.id)).data;
  if (dots.status !== 'completed')
    throw new Error(`The demo plan takeoff's advanced run ended ${dots.status}: ${JSON.stringify(dots.failure)}`);
  return read.takeoff_id;
}
