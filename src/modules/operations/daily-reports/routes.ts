// /v1/daily-reports (document 2, Daily logs and reports): the office reads reports and emails one
// to a third party. Reports are filed only from the crew app (crew-app/report-routes.ts).
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import {
  DailyReportList,
  DailyReportListQuery,
  DailyReportParams,
  OneDailyReport,
  SendDailyReportBody,
  SentDailyReport,
} from './schemas.ts';
import { sendDailyReport } from './send.ts';
import { getDailyReport, listDailyReports } from './service.ts';

const tags = ['Daily reports'];

export function dailyReportRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/daily-reports',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List daily reports, newest first',
        querystring: DailyReportListQuery,
        response: { 200: DailyReportList },
      },
    },
    async (request) => listDailyReports(ctx(request), request.query),
  );

  app.get(
    '/v1/daily-reports/:id',
    {
      config: READ,
      schema: { tags, summary: 'Read a daily report', params: DailyReportParams, response: { 200: OneDailyReport } },
    },
    async (request) => ({ data: await getDailyReport(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/daily-reports/:id/send',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Email the report to one address (EMAILS A THIRD PARTY; office user); 502 and nothing recorded when the mail server does not take it',
        params: DailyReportParams,
        body: SendDailyReportBody,
        response: { 200: SentDailyReport },
      },
    },
    async (request) => sendDailyReport(ctx(request), request.params.id, request.body.to_email),
  );
}
