// GET /v1/reports/{key} (document 2, Owner reports): a report run as the key's user. These are the
// management reports: a user allowed to view reports (owners; members an owner allowed) runs them,
// anyone else is 403 Reports not available. Each report is a file of its own with its definition;
// this file lists them and runs one: access, the parameters it uses, its tables shaped by the
// options every report shares (run-result.ts).
import type { ServiceContext } from '#platform/context.ts';
import { forbidden, notFound } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import { receivables } from './receivables.ts';
import { winLoss } from './win-loss.ts';
import { winLossGraph } from './win-loss-graph.ts';
import { JOB_COST_REPORTS } from './job-cost-reports.ts';
import { PERIOD_REPORTS } from './period-reports.ts';
import { RESOURCE_REPORTS } from './resource-reports.ts';
import { SALES_REPORTS } from './sales-reports.ts';
import { type ReportParam, type ReportQueryInput, type ReportSpan, type RunParams, runParams } from './run-query.ts';
import { type ReportRunObject, type ReportTable, shapeTables } from './run-result.ts';
import type { ReportEntryObject } from './schemas.ts';

export interface ReportDefinition extends ReportEntryObject {
  /** The parameters it reads beyond start, end, q, columns and rows_limit; any other is 400. */
  uses: readonly ReportParam[];
  /** The dates it covers: start to end (the default), or the week or month holding end. */
  span?: ReportSpan;
  /** The views it offers, the first the default. */
  views?: readonly string[];
  /** For a report only some workspaces use: whether this one does (else it is not listed, and 404). */
  appliesTo?(ctx: ServiceContext): Promise<boolean>;
  run(ctx: ServiceContext, p: RunParams): Promise<ReportOutput>;
}

export interface ReportOutput {
  summary: { label: string; value: string }[];
  tables: ReportTable[];
  /** Set when the report read only the first 20,000 jobs (document 1, Limits). */
  truncated?: boolean;
}

/** The management reports, in the list's order: by section, each section's file in its own order. */
export const MANAGEMENT_REPORTS: readonly ReportDefinition[] = [
  ...PERIOD_REPORTS,
  winLoss,
  winLossGraph,
  ...SALES_REPORTS,
  receivables,
  ...JOB_COST_REPORTS,
  ...RESOURCE_REPORTS,
];

export const mayViewReports = (ctx: ServiceContext) => can(ctx.auth.user, 'can_view_reports');

export async function runReport(ctx: ServiceContext, key: string, q: ReportQueryInput): Promise<ReportRunObject> {
  const report = MANAGEMENT_REPORTS.find((r) => r.key === key);
  if (!report || (report.appliesTo && !(await report.appliesTo(ctx))))
    throw notFound('Report not found', {
      message: `There is no report ${key}: GET /v1/reports lists the reports this key can run`,
    });
  if (!mayViewReports(ctx))
    throw forbidden('Reports not available', {
      code: 'reports_not_available',
      message: "The key's user may not view reports: an owner can allow it",
    });
  // Each of a report's statements is planned with its own range and filters (Database.unprepared):
  // a plan kept from another range may sort a year of rows where a hash would group them.
  const planned: ServiceContext = { ...ctx, database: { ...ctx.database, db: ctx.database.unprepared } };
  const p = await runParams(planned, report, q);
  const { summary, tables, truncated } = await report.run(planned, p);
  const shaped = await shapeTables(tables, p);
  return {
    key: report.key,
    title: report.title,
    section: report.section,
    description: report.description,
    start: p.start,
    end: p.end,
    date_basis: p.dateBasis ?? report.date_basis,
    summary,
    tables: shaped.tables,
    truncated: shaped.truncated || truncated === true,
  };
}
