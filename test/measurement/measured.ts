// A measurement made in a test workspace without a tile server: the demo's measured lot (the
// demo's own generated imagery, detected and edited once through the measurement area's service),
// for tests whose app has no imagery (the walks, the deletion lock).
import { actingAs } from '#platform/auth.ts';
import { demoMeasurement } from '#seed/demo-measurement.ts';
import type { TestApp, Workspace } from '#test/helpers/harness.ts';

export async function measuredLot(t: TestApp, w: Workspace, jobId: number): Promise<number> {
  const auth = await actingAs(t.database.db, w.firmId, w.ownerId);
  return demoMeasurement({ database: t.database, deps: t.env.deps, auth }, jobId);
}
