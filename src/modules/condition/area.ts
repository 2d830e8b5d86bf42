// The condition area (document 3, "Condition ratings"): pavement condition ratings, PASER and PCI,
// from an image or a place seen in aerial imagery, by the engines in engines/condition and the
// detector in engines/distress (or the operator's vision endpoint); a site's ratings history.
// docs/condition.md has the method and its measured accuracy.
import type { Area } from '#src/area.ts';
import { ratingSiteMergeMovers } from './ratings/merge-movers.ts';
import { conditionRatingRoutes } from './ratings/routes.ts';

export const conditionArea: Area = {
  name: 'condition',
  routes: [conditionRatingRoutes],
  mergeMovers: { location: ratingSiteMergeMovers },
};
