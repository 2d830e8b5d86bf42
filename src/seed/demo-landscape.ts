// The demo workspace's landscape takeoff (issue 28): the Maple Ridge entrance measured from the
// demo's own yard tiles (demo-yard.ts) by a detect run, started and run by the same code as
// POST /v1/landscape-takeoffs/{id}/detect and the worker, so the demo shows detected lawn, beds and
// trees, the run that found them, and the credit it used.
import { createAerialTakeoff, landscapeRunTask, startDetect } from '#measurement/index.ts';
import { systemClock } from '#platform/clock.ts';
import type { ServiceContext } from '#platform/context.ts';
import { demoYardImagery, demoYardOutline } from './demo-yard.ts';

export async function demoLandscape(ctx: ServiceContext, jobId: number): Promise<number> {
  const takeoff = (await createAerialTakeoff(ctx, jobId, { type: 'aerial', name: 'Entrance lawn and beds' })).data;
  const seeing = { ...ctx, deps: { ...ctx.deps, imagery: demoYardImagery(), segmentation: null } };
  await startDetect(seeing, takeoff.id, { polygon: demoYardOutline() });
  // The run, done now as the worker would do it (the worker the server starts reads no demo tiles).
  await landscapeRunTask(seeing, { clock: systemClock, leaseMs: 120_000 }).sweep();
  return takeoff.id;
}
