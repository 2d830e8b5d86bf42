// The operations area (document 2: holds, schedule requests, re-bids, daily logs and reports;
// document 3: the work_orders, time_entries, allocations and job_costs datasets): crews and the
// work orders they are scheduled on, the crew-day locks holds keep, the crew app's interface, time
// and job costs, and re-bids of completed work. docs/api-decisions.md, "Operations".
import type { Area } from '#src/area.ts';
import { crewReportRoutes } from './crew-app/report-routes.ts';
import { crewRoutes } from './crews/routes.ts';
import { dailyLogMergeMovers } from './daily-logs/merge-movers.ts';
import { dailyLogRoutes } from './daily-logs/routes.ts';
import { dailyReportRoutes } from './daily-reports/routes.ts';
import { holdRoutes } from './holds/routes.ts';
import { workOrdersDataset } from './work-orders/export.ts';
import { workOrderJobMergeMover } from './work-orders/merge-movers.ts';
import { workOrderRoutes } from './work-orders/routes.ts';

export const operationsArea: Area = {
  name: 'operations',
  routes: [crewRoutes, workOrderRoutes, holdRoutes, dailyLogRoutes, dailyReportRoutes, crewReportRoutes],
  exportDatasets: [workOrdersDataset],
  mergeMovers: { job: [workOrderJobMergeMover, ...dailyLogMergeMovers] },
};
