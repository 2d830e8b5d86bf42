// GET /v1/reports (document 2, Owner reports: "list of reports this key can run"; docs/reports.md):
// the reports built so far, each listed only when the key's user may run it.
import type { ServiceContext } from '#platform/context.ts';
import { mayRunLaborHours } from './labor-hours.ts';
import { mayRunMonthEnd } from './month-end-job-cost.ts';
import { MANAGEMENT_REPORTS, mayViewReports } from './run.ts';
import type { ReportEntryObject } from './schemas.ts';

interface Listed extends ReportEntryObject {
  mayRun: (ctx: ServiceContext) => boolean;
  appliesTo?: (ctx: ServiceContext) => Promise<boolean>;
}

const REPORTS: readonly Listed[] = [
  ...MANAGEMENT_REPORTS.map(({ key, title, section, description, date_basis, appliesTo }) => ({
    key,
    title,
    section,
    description,
    date_basis,
    mayRun: mayViewReports,
    appliesTo,
  })),
  {
    key: 'labor-hours',
    title: 'Labor hours',
    section: 'Operations',
    description:
      "Each worker's hours by day, job and cost code, split into regular, overtime (past 40 a week) and doubletime (past 60), with pay for users who may see it",
    date_basis: 'all',
    mayRun: mayRunLaborHours,
  },
  {
    key: 'month-end-job-cost',
    title: 'Month-end job cost',
    section: 'Operations',
    description:
      "Each job's revenue invoiced in the month, its direct costs by cost type, gross profit and margin, and the same to the month's end",
    date_basis: 'all',
    mayRun: mayRunMonthEnd,
  },
];

/** The reports the key's user may run, in the list's order. */
export async function reportCatalogue(ctx: ServiceContext): Promise<ReportEntryObject[]> {
  const listed: ReportEntryObject[] = [];
  for (const { mayRun, appliesTo, ...entry } of REPORTS)
    if (mayRun(ctx) && (!appliesTo || (await appliesTo(ctx)))) listed.push(entry);
  return listed;
}
