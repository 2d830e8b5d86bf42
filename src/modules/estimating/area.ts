// The estimating area (document 3): the catalog (items, services, price lists, templates) and
// estimates priced by the pricing engine, and the proposals customers read and sign.
import type { Area } from '#src/area.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { estimatePayloadPart } from './estimates/events.ts';
import { estimateLinesDataset, estimatesDataset } from './estimates/export.ts';
import { estimateJobMergeMover } from './estimates/job-estimate.ts';
import { estimateRoutes } from './estimates/routes.ts';
import { proposalJobMergeMover } from './proposals/merge-movers.ts';
import { proposalRoutes } from './proposals/routes.ts';
import { proposalSearch } from './proposals/search.ts';

import { proposalPage } from './proposals/page.ts';
export const estimatingArea: Area = {
  name: 'estimating',
  routes: [catalogRoutes, estimateRoutes, proposalRoutes],
  pages: [proposalPage],
  mergeMovers: { job: [estimateJobMergeMover, proposalJobMergeMover] },
  payloadParts: [estimatePayloadPart],
  exportDatasets: [estimatesDataset, estimateLinesDataset],
  searchTypes: [proposalSearch],
};
