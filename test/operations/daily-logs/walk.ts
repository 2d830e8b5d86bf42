// The daily logs and reports part of the isolation and permission walk (test/helpers/walk/kit.ts):
// a report filed from the crew app on the operations walk's work order (its crew holds the owner),
// the day's log with the office's notes, and every route of /v1/daily-logs, /v1/daily-reports and
// the crew app's report endpoints.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

const DATE = '2027-03-01';

export const dailyLogsWalk: AreaWalk = {
  area: 'operations-daily-logs',
  workspace: { settings: { daily_log_signoff: true } },
  async provision({ w, label, ids }) {
    const report = (
      await ok(
        w.api.post('/v1/crew/daily-reports', {
          work_order_id: ids.workOrder,
          date: DATE,
          weather: `Walk weather ${label}`,
          answers: { 'Site cleaned?': true },
        }),
      )
    ).data;
    const log = (
      await ok(w.api.post('/v1/daily-logs', { work_order_id: ids.workOrder, date: DATE, notes: `Walk notes ${label}` }))
    ).data;
    return { dailyReport: report.id, dailyLog: log.id };
  },
  snapshot: (ids) => [
    '/v1/daily-logs',
    `/v1/daily-logs/${ids.dailyLog}`,
    '/v1/daily-reports',
    `/v1/daily-reports/${ids.dailyReport}`,
  ],
  async state(t, ids) {
    return t.database.db
      .selectFrom('daily_reports')
      .select(['last_emailed_at', 'last_emailed_to'])
      .where('id', '=', ids.dailyReport)
      .executeTakeFirstOrThrow();
  },
  foreignIds: (a) => [
    { method: 'GET', path: `/v1/daily-logs/${a.dailyLog}`, error: 'Daily log not found' },
    {
      method: 'POST',
      path: '/v1/daily-logs',
      body: { work_order_id: a.workOrder, date: DATE, notes: 'Hijack' },
      error: 'Work order not found',
    },
    { method: 'POST', path: `/v1/daily-logs/${a.dailyLog}/approve`, error: 'Daily log not found' },
    {
      method: 'POST',
      path: `/v1/daily-logs/${a.dailyLog}/send-back`,
      body: { note: 'Hijack' },
      error: 'Daily log not found',
    },
    { method: 'GET', path: `/v1/daily-reports/${a.dailyReport}`, error: 'Daily report not found' },
    {
      method: 'POST',
      path: `/v1/daily-reports/${a.dailyReport}/send`,
      body: { to_email: 'hijack@example.com' },
      error: 'Daily report not found',
    },
    {
      method: 'POST',
      path: '/v1/crew/daily-reports',
      body: { work_order_id: a.workOrder, date: DATE, weather: 'Hijack' },
      error: 'Work order not found',
    },
    {
      method: 'POST',
      path: '/v1/crew/daily-logs/submit',
      body: { work_order_id: a.workOrder, date: DATE },
      error: 'Work order not found',
    },
  ],
  async lookups({ A, B }) {
    // B's lists filtered by A's job and work order find nothing.
    for (const query of [`job_id=${A.ids.job}`, `work_order_id=${A.ids.workOrder}`]) {
      for (const path of ['/v1/daily-logs', '/v1/daily-reports']) {
        const res = await B.w.api.get(`${path}?${query}`);
        if (res.status !== 200 || res.body.data.length !== 0)
          throw new Error(`${path}?${query} in B answered ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  },
  routes: {
    'GET /v1/daily-logs': { needs: 'read', path: () => '/v1/daily-logs' },
    'GET /v1/daily-logs/{id}': { needs: 'read', path: (a) => `/v1/daily-logs/${a.dailyLog}` },
    'POST /v1/daily-logs': {
      needs: 'write',
      path: () => '/v1/daily-logs',
      body: (a) => ({ work_order_id: a.workOrder, date: DATE, notes: 'Read-only notes' }),
    },
    'POST /v1/daily-logs/{id}/approve': { needs: 'write', path: (a) => `/v1/daily-logs/${a.dailyLog}/approve` },
    'POST /v1/daily-logs/{id}/send-back': {
      needs: 'write',
      path: (a) => `/v1/daily-logs/${a.dailyLog}/send-back`,
      body: () => ({ note: 'Read-only note' }),
    },
    'GET /v1/daily-reports': { needs: 'read', path: () => '/v1/daily-reports' },
    'GET /v1/daily-reports/{id}': { needs: 'read', path: (a) => `/v1/daily-reports/${a.dailyReport}` },
    'POST /v1/daily-reports/{id}/send': {
      needs: 'write',
      path: (a) => `/v1/daily-reports/${a.dailyReport}/send`,
      body: () => ({ to_email: 'read-only@example.com' }),
    },
    'POST /v1/crew/daily-reports': {
      needs: 'write',
      path: () => '/v1/crew/daily-reports',
      body: (a) => ({ work_order_id: a.workOrder, date: DATE, weather: 'Read-only' }),
    },
    'POST /v1/crew/daily-logs/submit': {
      needs: 'write',
      path: () => '/v1/crew/daily-logs/submit',
      body: (a) => ({ work_order_id: a.workOrder, date: DATE }),
    },
  },
};
