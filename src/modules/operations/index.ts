// The operations area's public entry: what other areas, the demo seed and the CLI may use.
// Everything else under src/modules/operations/ is the area's own (test/platform/boundaries.test.ts
// holds the line).

export { progressOfJob, type WorkOrderProgress } from './allocations/progress.ts';
export { createCrew } from './crews/service.ts';
export { reportOfWorkspace } from './daily-reports/repo.ts';
export { jobCostOutRows } from './job-costs/service.ts';
export type { CostRowObject } from './job-costs/schemas.ts';
export { submitDailyLog, fileDailyReport } from './crew-app/reports.ts';
export { createHold } from './holds/service.ts';
export { createJobCost } from './job-costs/service.ts';
export { addHistory } from './rebids/service.ts';
export { createRequest } from './schedule-requests/service.ts';
export { createTimeEntry } from './time-entries/service.ts';
export { publishSchedule } from './work-orders/publish.ts';
export { createWorkOrder } from './work-orders/service.ts';
export { assertSeesJobCosts } from './job-costs/service.ts';
export { timeEntriesOf } from './time-entries/repo.ts';
