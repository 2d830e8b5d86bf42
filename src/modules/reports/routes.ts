// /v1/reports (document 2, Owner reports; docs/reports.md): the list and the reports built so far.
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, READ } from '#platform/routes.ts';
import { reportCatalogue } from './catalogue.ts';
import { laborHoursReport } from './labor-hours.ts';
import { monthEndJobCostReport } from './month-end-job-cost.ts';
import { runReport } from './run.ts';
import { reportFile } from './download.ts';
import { ReportFileQuery, ReportParams, ReportQuery } from './run-query.ts';
import { ReportRun } from './run-result.ts';
import { LaborHoursQuery, LaborHoursReport, MonthEndQuery, MonthEndReport, ReportCatalogue } from './schemas.ts';

const tags = ['Reports'];

export function reportRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/reports',
    {
      config: READ,
      schema: {
        tags,
        summary: "The owner reports this key's user may run",
        response: { 200: ReportCatalogue },
      },
    },
    async (request) => ({ data: await reportCatalogue(ctx(request)) }),
  );

  app.get(
    '/v1/reports/labor-hours',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'Labor hours by worker, day, job and cost code with overtime per worker-week (crew scheduling on; a user with Approve payroll)',
        querystring: LaborHoursQuery,
        response: { 200: LaborHoursReport },
      },
    },
    async (request) => ({ data: await laborHoursReport(ctx(request), request.query) }),
  );

  app.get(
    '/v1/reports/month-end-job-cost',
    {
      config: READ,
      schema: {
        tags,
        summary:
          "A month's revenue, direct costs by type and gross profit per job, up to 200 jobs by job number (crew scheduling on; a user who may see job costs)",
        querystring: MonthEndQuery,
        response: { 200: MonthEndReport },
      },
    },
    async (request) => ({ data: await monthEndJobCostReport(ctx(request), request.query) }),
  );

  // After the two reports above: a static path wins over the parameter, so these keys reach their own.
  app.get(
    '/v1/reports/:key',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'Run a management report by its key (a user allowed to view reports): summary lines and tables with typed columns',
        params: ReportParams,
        querystring: ReportQuery,
        response: { 200: ReportRun },
      },
    },
    async (request) => ({ data: await runReport(ctx(request), request.params.key, request.query) }),
  );

  app.get(
    '/v1/reports/:key/csv',
    {
      config: READ,
      schema: {
        tags,
        summary:
          "A report's tables to open in a spreadsheet: one table as CSV (table=), or every table (a ZIP of CSVs when there are several)",
        params: ReportParams,
        querystring: ReportFileQuery,
        response: {
          200: {
            description: 'The CSV, or a ZIP of one CSV per table',
            headers: {
              'Content-Disposition': {
                type: 'string',
                description: 'attachment; filename="<key>-<start>-to-<end>[-<table>].csv" or ".zip"',
              },
            },
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/zip': { schema: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const file = await reportFile(ctx(request), request.params.key, request.query);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}
