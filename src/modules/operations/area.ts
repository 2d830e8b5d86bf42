// The operations area (document 2: holds, schedule requests, re-bids, daily logs and reports;
// document 3: the work_orders, time_entries, allocations and job_costs datasets): crews and the
// work orders they are scheduled on, the crew-day locks holds keep, the crew app's interface, time
// and job costs, and re-bids of completed work. docs/api-decisions.md, "Operations".
import type { Area } from '#src/area.ts';
import { allocationsDataset } from './allocations/export.ts';
import { allocationJobMergeMover } from './allocations/merge-movers.ts';
import { allocationRoutes } from './allocations/routes.ts';
import { completedSiteRoutes } from './completed-sites/routes.ts';
import { crewReportRoutes } from './crew-app/report-routes.ts';
import { crewTimeRoutes } from './crew-app/time-routes.ts';
import { crewRoutes } from './crews/routes.ts';
import { dailyLogMergeMovers } from './daily-logs/merge-movers.ts';
import { dailyLogRoutes } from './daily-logs/routes.ts';
import { dailyReportRoutes } from './daily-reports/routes.ts';
import { holdRoutes } from './holds/routes.ts';
import { jobCostsDataset } from './job-costs/export.ts';
import { jobCostJobMergeMover } from './job-costs/merge-movers.ts';
import { jobCostRoutes } from './job-costs/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { rebidSiteMergeMovers } from './rebids/merge-movers.ts';
import { rebidRoutes } from './rebids/routes.ts';
import { giveStarterCycles } from './rebids/service.ts';
import { scheduleRequestRoutes } from './schedule-requests/routes.ts';
import { timeEntriesDataset } from './time-entries/export.ts';
import { timeEntryJobMergeMover } from './time-entries/merge-movers.ts';
import { timeEntryRoutes } from './time-entries/routes.ts';
import { workOrdersDataset } from './work-orders/export.ts';
import { workOrderJobMergeMover } from './work-orders/merge-movers.ts';
import { workOrderRoutes } from './work-orders/routes.ts';

export const operationsArea: Area = {
  name: 'operations',
  routes: [
    crewRoutes,
    workOrderRoutes,
    holdRoutes,
    scheduleRequestRoutes,
    notificationRoutes,
    dailyLogRoutes,
    dailyReportRoutes,
    crewReportRoutes,
    crewTimeRoutes,
    timeEntryRoutes,
    jobCostRoutes,
    allocationRoutes,
    rebidRoutes,
    completedSiteRoutes,
  ],
  // Document 3's order: job_costs, work_orders, time_entries, allocations.
  exportDatasets: [jobCostsDataset, workOrdersDataset, timeEntriesDataset, allocationsDataset],
  mergeMovers: {
    job: [
      workOrderJobMergeMover,
      ...dailyLogMergeMovers,
      timeEntryJobMergeMover,
      jobCostJobMergeMover,
      allocationJobMergeMover,
    ],
    location: rebidSiteMergeMovers,
  },
  workspaceStarters: [giveStarterCycles],
};
