// The measurement area (document 1's POST /v1/detect/*; document 3, "Saved-takeoff shape" and
// "Saved-takeoff shapes"): aerial takeoffs of paved sites measured from imagery by the detector in
// engines/paved (or the operator's segmentation endpoint), with areas and lengths on the sphere by
// engines/geometry, and the API's shape edits with their history (docs/measurement.md); and
// landscape takeoffs (document 3, "Landscape takeoffs": lawn, beds and trees detected from imagery
// by engines/landscape in the worker, and plant takeoffs read from plan PDFs by engines/plans;
// docs/landscape.md).
import type { Area } from '#src/area.ts';
import { measurementJobMergeMover } from './measurements/merge-movers.ts';
import { measurementRoutes } from './measurements/routes.ts';
import { measurementSearch } from './measurements/search.ts';
import { shapeRoutes } from './shapes/routes.ts';
import { takeoffQuantities } from './measurements/quantities.ts';
import { landscapeJobMergeMover } from './landscape/merge-movers.ts';
import { landscapeRoutes } from './landscape/routes.ts';
import { planRoutes } from './landscape/plans/routes.ts';
import { jobPlanObjects } from './landscape/plans/stored-objects.ts';
import { landscapeRunTask } from './landscape/run-worker.ts';

export const measurementArea: Area = {
  name: 'measurement',
  routes: [measurementRoutes, shapeRoutes, landscapeRoutes, planRoutes],
  mergeMovers: { job: [measurementJobMergeMover, landscapeJobMergeMover] },
  workerTasks: (env, settings) => [landscapeRunTask(env, { clock: env.deps.clock, leaseMs: settings.leaseMs })],
  storedObjects: { job: [jobPlanObjects] },
  searchTypes: [measurementSearch],
  takeoffQuantities,
};
