// The time and job-cost part of the operations walk (test/helpers/walk/kit.ts): time entries on
// the CRM walk's job and shop time, a job cost, and the job's labor, costs and allocation reads.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const operationsTimeWalk: AreaWalk = {
  area: 'operations-time',
  workspace: { settings: { operations_enabled: true, crew_scheduling_enabled: true } },
  async provision({ w, ids }) {
    const closed = await ok(
      w.api.post('/v1/crew/time-entries', {
        job_id: ids.job,
        cost_code: 'Walk',
        clock_in: '2026-02-02T13:00:00Z',
        clock_out: '2026-02-02T17:00:00Z',
      }),
    );
    const open = await ok(w.api.post('/v1/crew/time-entries', { clock_in: '2026-02-03T13:00:00Z' }));
    const cost = await ok(
      w.api.post(`/v1/jobs/${ids.job}/costs`, { cost_type: 'material', amount: 12.5, date: '2026-02-02' }),
    );
    return { timeEntry: closed.data.id, openTimeEntry: open.data.id, jobCost: cost.data.id };
  },
  snapshot: (ids) => [
    '/v1/time-entries',
    `/v1/jobs/${ids.job}/labor`,
    `/v1/jobs/${ids.job}/costs`,
    `/v1/jobs/${ids.job}/allocation`,
  ],
  foreignIds: (a) => [
    {
      method: 'POST',
      path: `/v1/crew/time-entries/${a.openTimeEntry}/clock-out`,
      body: { clock_out: '2026-02-03T14:00:00Z' },
      error: 'Time entry not found',
    },
    { method: 'POST', path: `/v1/time-entries/${a.timeEntry}/void`, body: {}, error: 'Time entry not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/labor`, error: 'Job not found' },
    { method: 'GET', path: `/v1/jobs/${a.job}/costs`, error: 'Job not found' },
    {
      method: 'POST',
      path: `/v1/jobs/${a.job}/costs`,
      body: { cost_type: 'other', amount: 1, date: '2026-02-02' },
      error: 'Job not found',
    },
    { method: 'GET', path: `/v1/jobs/${a.job}/allocation`, error: 'Job not found' },
  ],
  async lookups({ A, B }) {
    // A's jobs and users are not B's: B cannot put time on them.
    const onJob = await B.w.api.post('/v1/crew/time-entries', { job_id: A.ids.job, clock_in: '2026-02-05T13:00:00Z' });
    if (onJob.status !== 404) throw new Error(`time on A's job from B answered ${onJob.status}`);
    const forUser = await B.w.api.post('/v1/crew/time-entries', {
      user_id: A.w.ownerId,
      clock_in: '2026-02-05T13:00:00Z',
    });
    if (forUser.status !== 404) throw new Error(`time for A's user from B answered ${forUser.status}`);
  },
  routes: {
    'POST /v1/crew/time-entries': {
      needs: 'write',
      path: () => '/v1/crew/time-entries',
      body: () => ({ clock_in: '2026-02-10T13:00:00Z', clock_out: '2026-02-10T14:00:00Z' }),
    },
    'POST /v1/crew/time-entries/{id}/clock-out': {
      needs: 'write',
      path: (a) => `/v1/crew/time-entries/${a.openTimeEntry}/clock-out`,
      body: () => ({ clock_out: '2026-02-03T14:00:00Z' }),
    },
    'GET /v1/time-entries': { needs: 'read', path: () => '/v1/time-entries' },
    'POST /v1/time-entries/{id}/void': {
      needs: 'write',
      path: (a) => `/v1/time-entries/${a.timeEntry}/void`,
      body: () => ({ reason: 'Read-only' }),
    },
    'GET /v1/jobs/{id}/labor': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/labor` },
    'GET /v1/jobs/{id}/costs': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/costs` },
    'POST /v1/jobs/{id}/costs': {
      needs: 'write',
      path: (a) => `/v1/jobs/${a.job}/costs`,
      body: () => ({ cost_type: 'other', amount: 1, date: '2026-02-02' }),
    },
    'GET /v1/jobs/{id}/allocation': { needs: 'read', path: (a) => `/v1/jobs/${a.job}/allocation` },
  },
};
