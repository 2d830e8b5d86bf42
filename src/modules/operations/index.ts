// The operations area's public entry: what other areas, the demo seed and the CLI may use.
// Everything else under src/modules/operations/ is the area's own (test/platform/boundaries.test.ts
// holds the line).

export { createCrew } from './crews/service.ts';
export { reportOfWorkspace } from './daily-reports/repo.ts';
export { jobCostOutRows } from './job-costs/service.ts';
export type { CostRowObject } from './job-costs/schemas.ts';
