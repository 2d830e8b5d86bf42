// Time on a work order (docs/api-decisions.md, "Operations: time and job costs"): the work order
// fixes the job; a crew user logs their own time on their crew's work orders; an office user on any.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { crewWithForeman, scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

it("a crew member logs time on their crew's work order: its job is the entry's job", async () => {
  const { crew, foreman } = await crewWithForeman(t, w);
  const job = await scheduleJob(w);
  const other = await scheduleJob(w);
  const wo = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Patch', crew_id: crew.id }))).data;
  const foremanApi = t.as(await t.key(w.firmId, foreman.id));
  const res = await foremanApi.post('/v1/crew/time-entries', {
    work_order_id: wo.id,
    cost_code: 'Patching',
    clock_in: '2026-04-06T12:00:00Z',
    clock_out: '2026-04-06T20:00:00Z',
  });
  expect(res.status).toBe(201);
  expect(res.body.data).toMatchObject({ user_id: foreman.id, work_order_id: wo.id, job_id: job.id, total_hours: 8 });
  // Naming the same job is fine; another job is 400.
  const same = await foremanApi.post('/v1/crew/time-entries', {
    work_order_id: wo.id,
    job_id: job.id,
    clock_in: '2026-04-07T12:00:00Z',
    clock_out: '2026-04-07T13:00:00Z',
  });
  expect(same.status).toBe(201);
  const mismatch = await w.api.post('/v1/crew/time-entries', {
    work_order_id: wo.id,
    job_id: other.id,
    clock_in: '2026-04-07T12:00:00Z',
  });
  expect(mismatch.status).toBe(400);
  expect(mismatch.body.field).toBe('job_id');
  // The job's labor shows the work order's time.
  const labor = (await ok(w.api.get(`/v1/jobs/${job.id}/labor`))).data;
  expect(labor.map((r) => r.work_order_id)).toEqual([wo.id, wo.id]);
});

it('a crew user off the crew: 404 when they cannot see the job, 403 not_on_crew when they can; an office user may', async () => {
  const { crew } = await crewWithForeman(t, w);
  const job = await scheduleJob(w);
  const wo = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Seal', crew_id: crew.id }))).data;
  const outsider = await t.user(w.firmId, { name: 'Out Sider', email: 'out@crew.test', role: 'crew' });
  const body = { work_order_id: wo.id, clock_in: '2026-04-08T12:00:00Z', clock_out: '2026-04-08T13:00:00Z' };
  const hidden = await outsider.api.post('/v1/crew/time-entries', body);
  expect(hidden.status).toBe(404);
  expect(hidden.body.error).toBe('Work order not found');
  await ok(w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: outsider.id }));
  const offCrew = await outsider.api.post('/v1/crew/time-entries', body);
  expect(offCrew.status).toBe(403);
  expect(offCrew.body.code).toBe('not_on_crew');
  const office = await w.api.post('/v1/crew/time-entries', { ...body, user_id: outsider.id });
  expect(office.status).toBe(201);
  expect(office.body.data).toMatchObject({ user_id: outsider.id, work_order_id: wo.id, job_id: job.id });
  // Unknown and another workspace's work orders are 404.
  expect((await w.api.post('/v1/crew/time-entries', { ...body, work_order_id: 999999 })).status).toBe(404);
  const ws2 = await scheduleWorkspace(t);
  const theirs = (await ok(ws2.api.post('/v1/work-orders', { job_id: (await scheduleJob(ws2)).id, title: 'X' }))).data;
  const foreign = await w.api.post('/v1/crew/time-entries', { ...body, work_order_id: theirs.id });
  expect(foreign.status).toBe(404);
  expect(foreign.body.error).toBe('Work order not found');
});
