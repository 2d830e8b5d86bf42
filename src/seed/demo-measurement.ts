// The demo workspace's measured lot (issue 27): the walked job's parking lot measured from the
// demo's own imagery (demo-imagery.ts) through the same service as POST /v1/detect/full, then
// edited once through the shape-edit save as the office would (the curb along the storefront, two
// bollards, the dumpster pad cut out), so the demo shows a detected takeoff, its edits and its
// history.
import { saveEdits, startMeasurement } from '#measurement/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { demoImagery, demoLatLng, demoLotBounds, demoLotScene } from './demo-imagery.ts';

export async function demoMeasurement(ctx: ServiceContext, jobId: number): Promise<number> {
  const measuring = { ...ctx, deps: { ...ctx.deps, imagery: demoImagery(), segmentation: null } };
  const { data } = await startMeasurement(measuring, {
    from: 'bounds',
    bounds: demoLotBounds(),
    job_id: jobId,
    name: 'Main lot (aerial)',
  });
  const xs = demoLotScene.lot.map((p) => p[0]);
  const ys = demoLotScene.lot.map((p) => p[1]);
  const [west, east, south] = [Math.min(...xs), Math.max(...xs), Math.min(...ys)];
  await saveEdits(ctx, data.id, {
    base_rev: data.rev,
    operations: [
      {
        op: 'add_line',
        category: 'curb',
        spec: '6 in',
        coordinates: [demoLatLng([west + 2, south + 1]), demoLatLng([east - 2, south + 1])],
      },
      { op: 'add_count', category: 'bollard', spec: 'steel', coordinates: demoLatLng([west + 4, south + 3]) },
      { op: 'add_count', category: 'bollard', spec: 'steel', coordinates: demoLatLng([west + 7, south + 3]) },
    ],
  });
  return data.id;
}
