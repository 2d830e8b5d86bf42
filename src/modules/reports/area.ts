// The reports area (document 2, "Report" and "Owner reports"): read-only reports over the other
// areas' records, run as the key's user. docs/reports.md; docs/api-decisions.md, "Owner reports".
import type { Area } from '#src/area.ts';
import { reportRoutes } from './routes.ts';

export const reportsArea: Area = {
  name: 'reports',
  routes: [reportRoutes],
};
