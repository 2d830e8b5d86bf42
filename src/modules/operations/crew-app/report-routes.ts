// The crew app's report endpoints (issue 25, "The crew app's interface"; document 2: reports are
// filed only from the crew app): POST /v1/crew/daily-reports and POST /v1/crew/daily-logs/submit.
// A key whose user is on the work order's crew, or an office user (report-access.ts). Photos of a
// report go through the photo upload with daily_report_id. Time entries: time-routes.ts.
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, CREW_WRITE } from '#platform/routes.ts';
import { OneDailyLog, SubmitDailyLogBody } from '../daily-logs/schemas.ts';
import { FileDailyReportBody, OneDailyReport } from '../daily-reports/schemas.ts';
import { fileDailyReport, submitDailyLog } from './reports.ts';

const tags = ['Crew app'];

export function crewReportRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/crew/daily-reports',
    {
      config: CREW_WRITE,
      schema: {
        tags,
        summary:
          "Crew app: file a daily report for a work order's day (its crew, or an office user naming user_id); makes the day's draft log when absent; 409 on a day approved by payroll",
        body: FileDailyReportBody,
        response: { 201: OneDailyReport },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await fileDailyReport(ctx(request), request.body) }),
  );

  app.post(
    '/v1/crew/daily-logs/submit',
    {
      config: CREW_WRITE,
      schema: {
        tags,
        summary:
          "Crew app: submit a work order's day for sign-off (draft → submitted); 409 when the workspace does not use sign-off or the day is not a draft",
        body: SubmitDailyLogBody,
        response: { 200: OneDailyLog },
      },
    },
    async (request) => ({ data: await submitDailyLog(ctx(request), request.body) }),
  );
}
