// The reports part of the walk (test/helpers/walk/kit.ts): the reports read the time and job costs
// the operations-time walk made; they take no ids, so no call names another workspace's records, and
// the snapshot shows each workspace's reports unchanged by the other's calls.
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

const LABOR = '/v1/reports/labor-hours?start=2026-02-01&end=2026-02-28&approved_only=false';
const MONTH_END = '/v1/reports/month-end-job-cost?month=2026-02';
const RECEIVABLES = '/v1/reports/receivables?start=2026-01-01&end=2026-12-31';
// Job reports over every date: each workspace's jobs, decided or not, and what hangs on them.
const JOB_REPORTS = [
  '/v1/reports/data-dump?start=2000-01-01&end=2099-12-31',
  '/v1/reports/win-loss?start=2000-01-01&end=2099-12-31&date_basis=created&group_by=status',
  '/v1/reports/kpi?end=2026-02-15',
  '/v1/reports/resource-utilization?start=2026-02-01&end=2026-02-28',
];

export const reportsWalk: AreaWalk = {
  area: 'reports',
  workspace: { settings: { operations_enabled: true, crew_scheduling_enabled: true } },
  provision: async () => ({}),
  snapshot: () => ['/v1/reports', LABOR, MONTH_END, RECEIVABLES, ...JOB_REPORTS],
  foreignIds: () => [],
  routes: {
    'GET /v1/reports': { needs: 'read', path: () => '/v1/reports' },
    'GET /v1/reports/labor-hours': { needs: 'read', path: () => '/v1/reports/labor-hours' },
    'GET /v1/reports/month-end-job-cost': { needs: 'read', path: () => '/v1/reports/month-end-job-cost' },
    'GET /v1/reports/{key}': {
      needs: 'read',
      path: () => '/v1/reports/receivables',
      noForeign: 'names a report, not a record',
    },
    'GET /v1/reports/{key}/csv': {
      needs: 'read',
      path: () => '/v1/reports/receivables/csv',
      noForeign: 'names a report, not a record',
    },
  },
};
