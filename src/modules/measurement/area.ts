// The measurement area (document 1's POST /v1/detect/*; document 3, "Saved-takeoff shape" and
// "Saved-takeoff shapes"): aerial takeoffs of paved sites measured from imagery by the detector in
// engines/paved (or the operator's segmentation endpoint), with areas and lengths on the sphere by
// engines/geometry, and the API's shape edits with their history. docs/measurement.md.
import type { Area } from '#src/area.ts';
import { measurementJobMergeMover } from './measurements/merge-movers.ts';
import { measurementRoutes } from './measurements/routes.ts';
import { measurementSearch } from './measurements/search.ts';
import { shapeRoutes } from './shapes/routes.ts';
import { takeoffQuantities } from './measurements/quantities.ts';

export const measurementArea: Area = {
  name: 'measurement',
  routes: [measurementRoutes, shapeRoutes],
  mergeMovers: { job: [measurementJobMergeMover] },
  searchTypes: [measurementSearch],
  takeoffQuantities,
};
