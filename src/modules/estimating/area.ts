// The estimating area (document 3): the catalog (items, services, price lists, templates) and
// estimates priced by the pricing engine, and the proposals customers read and sign.
import type { Area } from '#src/area.ts';
import { catalogItemRoutes } from './catalog/item-routes.ts';
import { priceListRoutes } from './catalog/price-list-routes.ts';
import { catalogServiceRoutes } from './catalog/service-routes.ts';
import { estimateTemplateRoutes } from './catalog/template-routes.ts';
import { estimatePayloadPart } from './estimates/events.ts';
import { estimateLinesDataset, estimatesDataset } from './estimates/export.ts';
import { estimateJobMergeMover } from './estimates/job-estimate.ts';
import { estimateLifecycleRoutes } from './estimates/lifecycle-routes.ts';
import { estimateLineRoutes } from './estimates/line-routes.ts';
import { estimateRoutes } from './estimates/routes.ts';
import { proposalJobMergeMover } from './proposals/merge-movers.ts';
import { proposalLinkRoutes } from './proposals/link-routes.ts';
import { proposalRoutes } from './proposals/routes.ts';
import { proposalTemplateRoutes } from './proposals/template-routes.ts';
import { proposalPage } from './proposals/page.ts';
import { proposalSearch } from './proposals/search.ts';

export const estimatingArea: Area = {
  name: 'estimating',
  routes: [
    catalogServiceRoutes,
    catalogItemRoutes,
    priceListRoutes,
    estimateTemplateRoutes,
    estimateRoutes,
    estimateLineRoutes,
    estimateLifecycleRoutes,
    proposalRoutes,
    proposalLinkRoutes,
    proposalTemplateRoutes,
  ],
  pages: [proposalPage],
  mergeMovers: { job: [estimateJobMergeMover, proposalJobMergeMover] },
  payloadParts: [estimatePayloadPart],
  exportDatasets: [estimatesDataset, estimateLinesDataset],
  searchTypes: [proposalSearch],
};
