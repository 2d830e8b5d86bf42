// /v1/daily-logs (document 2, Daily logs and reports): reads need read_jobs; writes need write_jobs
// and an office user (service.ts). The crew app's submit is crew-app/report-routes.ts.
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import {
  DailyLogList,
  DailyLogListQuery,
  DailyLogParams,
  OneDailyLog,
  SaveDailyLogBody,
  SendBackBody,
} from './schemas.ts';
import { approveDailyLog, getDailyLog, listDailyLogs, saveDailyLog, sendBackDailyLog } from './service.ts';

const tags = ['Daily logs'];

export function dailyLogRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/daily-logs',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List daily logs, newest day first (updated_after: oldest updated first)',
        querystring: DailyLogListQuery,
        response: { 200: DailyLogList },
      },
    },
    async (request) => listDailyLogs(ctx(request), request.query),
  );

  app.get(
    '/v1/daily-logs/:id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Read a daily log with its daily reports',
        params: DailyLogParams,
        response: { 200: OneDailyLog },
      },
    },
    async (request) => ({ data: await getDailyLog(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/daily-logs',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Replace a work order's day notes (office user); makes the day's log when absent; 409 on a day approved by payroll",
        body: SaveDailyLogBody,
        response: { 200: OneDailyLog },
      },
    },
    async (request) => ({ data: await saveDailyLog(ctx(request), request.body) }),
  );

  app.post(
    '/v1/daily-logs/:id/approve',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Approve a submitted day (office user; approves the day's time for payroll), or give an office-approved day the payroll sign-off (payroll approver, when the workspace takes one)",
        params: DailyLogParams,
        response: { 200: OneDailyLog },
      },
    },
    async (request) => ({ data: await approveDailyLog(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/daily-logs/:id/send-back',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Send a submitted or approved day back to the crew as a draft with a note (office user; a payroll-approved day only by a payroll approver)',
        params: DailyLogParams,
        body: SendBackBody,
        response: { 200: OneDailyLog },
      },
    },
    async (request) => ({ data: await sendBackDailyLog(ctx(request), request.params.id, request.body.note) }),
  );
}
