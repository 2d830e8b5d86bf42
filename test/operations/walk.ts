// The operations part of the isolation and permission walk (test/helpers/walk/kit.ts): crews and
// the work scheduled on the CRM walk's jobs. Each resource of the area adds its records and
// routes here.
import { ok } from '#test/helpers/records.ts';
import type { AreaWalk } from '#test/helpers/walk/kit.ts';

export const operationsWalk: AreaWalk = {
  area: 'operations',
  workspace: { settings: { operations_enabled: true, crew_scheduling_enabled: true } },
  async provision({ w, label, ids }) {
    const crew = (await ok(w.api.post('/v1/crews', { name: `Walk crew ${label}`, member_user_ids: [w.ownerId] }))).data;
    const workOrder = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: ids.job,
          title: `Walk work ${label}`,
          crew_id: crew.id,
          scheduled_date: '2027-03-01',
        }),
      )
    ).data;
    const toFinish = (await ok(w.api.post('/v1/work-orders', { job_id: ids.job, title: 'Walk finish' }))).data;
    const hold = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: ids.job, scheduled_date: '2027-03-08', crew_id: crew.id }))
    ).data;
    const holdToGo = (
      await ok(w.api.post('/v1/schedule/holds', { name: `Walk hold ${label}`, scheduled_date: '2027-03-09' }))
    ).data;
    return {
      crew: crew.id,
      workOrder: workOrder.id,
      openWorkOrder: toFinish.id,
      hold: hold.id,
      holdToGo: holdToGo.id,
    };
  },
  snapshot: (ids) => [
    '/v1/crews',
    `/v1/crews/${ids.crew}`,
    '/v1/work-orders',
    `/v1/work-orders/${ids.workOrder}`,
    `/v1/work-orders/${ids.openWorkOrder}`,
    '/v1/exports/work_orders.jsonl',
    '/v1/schedule/holds',
    `/v1/schedule/holds/${ids.hold}`,
    `/v1/schedule/holds/${ids.holdToGo}`,
  ],
  foreignIds: (a, b) => [
    { method: 'GET', path: `/v1/crews/${a.crew}`, error: 'Crew not found' },
    { method: 'PATCH', path: `/v1/crews/${a.crew}`, body: { name: 'Hijack' }, error: 'Crew not found' },
    { method: 'POST', path: '/v1/work-orders', body: { job_id: a.job, title: 'Hijack' }, error: 'Job not found' },
    {
      method: 'POST',
      path: '/v1/work-orders',
      body: { job_id: b.job, title: 'Hijack', crew_id: a.crew },
      error: 'Crew not found',
    },
    { method: 'GET', path: `/v1/work-orders/${a.workOrder}`, error: 'Work order not found' },
    {
      method: 'PATCH',
      path: `/v1/work-orders/${a.workOrder}`,
      body: { title: 'Hijack' },
      error: 'Work order not found',
    },
    { method: 'POST', path: `/v1/work-orders/${a.openWorkOrder}/complete`, error: 'Work order not found' },
    { method: 'POST', path: `/v1/work-orders/${a.openWorkOrder}/cancel`, error: 'Work order not found' },
    {
      method: 'POST',
      path: '/v1/schedule/holds',
      body: { job_id: a.job, scheduled_date: '2027-04-01' },
      error: 'Job not found',
    },
    {
      method: 'POST',
      path: '/v1/schedule/holds',
      body: { job_id: b.job, scheduled_date: '2027-04-01', crew_id: a.crew },
      error: 'Crew not found',
    },
    { method: 'GET', path: `/v1/schedule/holds/${a.hold}`, error: 'Hold not found' },
    {
      method: 'PATCH',
      path: `/v1/schedule/holds/${a.hold}`,
      body: { title: 'Hijack' },
      error: 'Hold not found',
    },
    { method: 'POST', path: `/v1/schedule/holds/${a.hold}/convert`, error: 'Hold not found' },
    { method: 'POST', path: `/v1/schedule/holds/${a.hold}/link`, body: { job_id: b.job }, error: 'Hold not found' },
    { method: 'POST', path: `/v1/schedule/holds/${b.hold}/link`, body: { job_id: a.job }, error: 'Job not found' },
    { method: 'DELETE', path: `/v1/schedule/holds/${a.holdToGo}`, error: 'Hold not found' },
  ],
  async lookups({ A, B }) {
    // A's users are not B's: naming A's owner as a member of B's crew is 404.
    const res = await B.w.api.post('/v1/crews', { name: 'Borrowed', member_user_ids: [A.w.ownerId] });
    if (res.status !== 404) throw new Error(`A's user on B's crew answered ${res.status}`);
  },
  routes: {
    'GET /v1/crews': { needs: 'read', path: () => '/v1/crews' },
    'POST /v1/crews': { needs: 'write', path: () => '/v1/crews', body: () => ({ name: 'Read-only crew' }) },
    'GET /v1/crews/{id}': { needs: 'read', path: (a) => `/v1/crews/${a.crew}` },
    'PATCH /v1/crews/{id}': { needs: 'write', path: (a) => `/v1/crews/${a.crew}`, body: () => ({ color: '#000000' }) },
    'GET /v1/work-orders': { needs: 'read', path: () => '/v1/work-orders' },
    'POST /v1/work-orders': {
      needs: 'write',
      path: () => '/v1/work-orders',
      body: (a) => ({ job_id: a.job, title: 'Read-only' }),
    },
    'GET /v1/work-orders/{id}': { needs: 'read', path: (a) => `/v1/work-orders/${a.workOrder}` },
    'PATCH /v1/work-orders/{id}': {
      needs: 'write',
      path: (a) => `/v1/work-orders/${a.workOrder}`,
      body: () => ({ title: 'Read-only' }),
    },
    'POST /v1/work-orders/{id}/complete': {
      needs: 'write',
      path: (a) => `/v1/work-orders/${a.openWorkOrder}/complete`,
    },
    'POST /v1/work-orders/{id}/cancel': { needs: 'write', path: (a) => `/v1/work-orders/${a.openWorkOrder}/cancel` },
    'GET /v1/schedule/holds': { needs: 'read', path: () => '/v1/schedule/holds' },
    'POST /v1/schedule/holds': {
      needs: 'write',
      path: () => '/v1/schedule/holds',
      body: (a) => ({ job_id: a.job, scheduled_date: '2027-04-01' }),
    },
    'GET /v1/schedule/holds/{id}': { needs: 'read', path: (a) => `/v1/schedule/holds/${a.hold}` },
    'PATCH /v1/schedule/holds/{id}': {
      needs: 'write',
      path: (a) => `/v1/schedule/holds/${a.hold}`,
      body: () => ({ title: 'Read-only' }),
    },
    'POST /v1/schedule/holds/{id}/convert': { needs: 'write', path: (a) => `/v1/schedule/holds/${a.holdToGo}/convert` },
    'POST /v1/schedule/holds/{id}/link': {
      needs: 'write',
      path: (a) => `/v1/schedule/holds/${a.hold}/link`,
      body: (a) => ({ job_id: a.job2 }),
    },
    'DELETE /v1/schedule/holds/{id}': { needs: 'delete', path: (a) => `/v1/schedule/holds/${a.holdToGo}` },
    'POST /v1/schedule/publish': {
      needs: 'write',
      path: () => '/v1/schedule/publish',
      body: () => ({ start_date: '2027-03-01', end_date: '2027-03-07' }),
    },
  },
};
