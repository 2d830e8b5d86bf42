// Work orders over HTTP (docs/api-decisions.md, "Operations: work orders"): make, read, list by
// the days they cover, change, complete, cancel and publish; job_scheduled and
// work_order_completed in the feed and by webhook with their data fields (document 1); the gates
// (403 Operations not enabled, 403 view_only, owners-only override_lock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { feedOf } from '#test/helpers/scenarios/change-order.ts';
import { crewWithForeman, scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';
import { perTest, subscribe } from '#test/integrations/webhooks/kit.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());
const { receiver, worker } = perTest(() => t);

describe('POST /v1/work-orders', () => {
  it('makes a draft work order for the job, its address the job’s; a date fires job_scheduled', async () => {
    const job = await scheduleJob(w, 'Maple Plaza');
    const { crew } = await crewWithForeman(t, w);
    const res = await w.api.post('/v1/work-orders', {
      job_id: job.id,
      title: 'Sealcoat lot',
      crew_id: crew.id,
      scheduled_date: '2027-05-03',
      estimated_days: 2.5,
      start_time: '22:00',
      end_time: '04:00',
      phase: 'Sealcoat',
      display_qty: 12000,
      display_unit: 'SF',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      job_id: job.id,
      title: 'Sealcoat lot',
      status: 'scheduled',
      phase: 'Sealcoat',
      crew_id: crew.id,
      display_qty: 12000,
      display_unit: 'SF',
      completed_qty: null,
      completed_unit: null,
      estimated_days: 2.5,
      scheduled_date: '2027-05-03',
      end_date: '2027-05-05',
      start_time: '22:00',
      end_time: '04:00',
      is_hold: false,
      published: false,
      locked_days: [],
      skipped_dates: [],
      estimate_service_id: null,
      scope: null,
      address: job.address,
      dispatch_notes: null,
      job_is_placeholder: false,
      dispatched_at: null,
      completed_at: null,
      cancelled_at: null,
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    const events = (await feedOf(w, 'job_scheduled')).filter((e) => e.entity.id === res.body.data.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity: { type: 'work_order', id: res.body.data.id },
      job_id: job.id,
      data: {
        work_order_id: res.body.data.id,
        scheduled_date: '2027-05-03',
        previous_scheduled_date: null,
        crew_id: crew.id,
      },
    });
    expect((await ok(w.api.get(`/v1/work-orders/${res.body.data.id}`))).data).toEqual(res.body.data);
  });

  it('without a date it is unscheduled and records no event; bad references answer 404 and 400', async () => {
    const job = await scheduleJob(w);
    const wo = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Crack seal' }))).data;
    expect(wo).toMatchObject({ status: 'unscheduled', scheduled_date: null, end_date: null, estimated_days: 1 });
    expect((await feedOf(w, 'job_scheduled')).some((e) => e.entity.id === wo.id)).toBe(false);
    const other = await scheduleWorkspace(t);
    const foreignJob = await scheduleJob(other);
    expect((await w.api.post('/v1/work-orders', { job_id: foreignJob.id, title: 'x' })).body).toMatchObject({
      error: 'Job not found',
    });
    const crewMissing = await w.api.post('/v1/work-orders', { job_id: job.id, title: 'x', crew_id: 999999 });
    expect(crewMissing.status).toBe(404);
    expect(crewMissing.body.error).toBe('Crew not found');
    const line = await w.api.post('/v1/work-orders', { job_id: job.id, title: 'x', estimate_service_id: 999999 });
    expect(line.status).toBe(400);
    expect(line.body.field).toBe('estimate_service_id');
    const days = await w.api.raw.post('/v1/work-orders', { job_id: job.id, title: 'x', estimated_days: 0.25 });
    expect(days.status).toBe(400);
    const time = await w.api.raw.post('/v1/work-orders', { job_id: job.id, title: 'x', start_time: '24:00' });
    expect(time.status).toBe(400);
    const unknown = await w.api.raw.post('/v1/work-orders', { job_id: job.id, title: 'x', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect((await ok(w.api.get(`/v1/work-orders?job_id=${job.id}`))).data.map((x) => x.id)).toEqual([wo.id]);
  });

  it('an estimate line sets the quantity shown and makes the allocation', async () => {
    const job = await scheduleJob(w);
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
    const line = await ok(
      w.api.post(`/v1/estimates/${estimate.id}/line-items`, {
        name: 'Sealcoat',
        unit: 'SF',
        quantity: 8000,
        unit_cost: 0.2,
      }),
    );
    const lineId = (line as any).data?.id ?? (line as any).line_item_id;
    const wo = (
      await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Sealcoat', estimate_service_id: lineId }))
    ).data;
    expect(wo).toMatchObject({ estimate_service_id: lineId, display_qty: 8000, display_unit: 'SF' });
    const allocation = await t.database.db
      .selectFrom('allocations')
      .select(['work_order_id', 'job_id', 'estimate_service_id', 'planned_quantity', 'unit'])
      .where('work_order_id', '=', wo.id)
      .execute();
    expect(allocation).toEqual([
      { work_order_id: wo.id, job_id: job.id, estimate_service_id: lineId, planned_quantity: 8000, unit: 'SF' },
    ]);
  });
});

describe('PATCH, complete, cancel', () => {
  it('moving the date fires job_scheduled with previous_scheduled_date; the same date fires nothing', async () => {
    const job = await scheduleJob(w);
    const wo = (
      await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Stripe', scheduled_date: '2027-06-01' }))
    ).data;
    const same = await ok(w.api.patch(`/v1/work-orders/${wo.id}`, { scheduled_date: '2027-06-01' }));
    expect(same.data).toEqual(wo);
    const moved = (
      await ok(w.api.patch(`/v1/work-orders/${wo.id}`, { scheduled_date: '2027-06-08', estimated_days: 2 }))
    ).data;
    expect(moved).toMatchObject({ scheduled_date: '2027-06-08', end_date: '2027-06-09', status: 'scheduled' });
    const events = (await feedOf(w, 'job_scheduled')).filter((e) => e.entity.id === wo.id);
    expect(events.map((e) => [e.data.previous_scheduled_date, e.data.scheduled_date])).toEqual([
      [null, '2027-06-01'],
      ['2027-06-01', '2027-06-08'],
    ]);
    const unscheduled = (await ok(w.api.patch(`/v1/work-orders/${wo.id}`, { scheduled_date: null }))).data;
    expect(unscheduled).toMatchObject({ status: 'unscheduled', end_date: null, published: false });
    expect((await feedOf(w, 'job_scheduled')).filter((e) => e.entity.id === wo.id)).toHaveLength(2);
  });

  it('complete fires work_order_completed once; closed work takes no changes (409)', async () => {
    const job = await scheduleJob(w);
    const wo = (
      await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Patch', display_qty: 40, display_unit: 'SF' }))
    ).data;
    const done = await Promise.all([1, 2, 3].map(() => w.api.post(`/v1/work-orders/${wo.id}/complete`, {})));
    expect(done.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const completed = done.find((r) => r.status === 200)!.body.data;
    expect(completed).toMatchObject({ status: 'completed', completed_qty: 40, completed_unit: 'SF' });
    expect(completed.completed_at).toMatch(Z_SECONDS);
    const events = (await feedOf(w, 'work_order_completed')).filter((e) => e.entity.id === wo.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({ work_order_id: wo.id, completed_at: completed.completed_at });
    const again = await w.api.patch(`/v1/work-orders/${wo.id}`, { title: 'Late' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'work_order_closed', status: 'completed' });
    expect((await w.api.post(`/v1/work-orders/${wo.id}/cancel`)).status).toBe(409);
  });

  it('complete takes the quantity done; cancel takes the work off the calendar', async () => {
    const job = await scheduleJob(w);
    const a = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'A', scheduled_date: '2027-07-01' })))
      .data;
    const doneA = (
      await ok(w.api.post(`/v1/work-orders/${a.id}/complete`, { completed_qty: 12.5, completed_unit: 'LF' }))
    ).data;
    expect(doneA).toMatchObject({ completed_qty: 12.5, completed_unit: 'LF' });
    const b = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'B', scheduled_date: '2027-07-02' })))
      .data;
    const cancelled = (await ok(w.api.post(`/v1/work-orders/${b.id}/cancel`))).data;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: expect.stringMatching(Z_SECONDS) });
    const july = await ok(w.api.get('/v1/work-orders?start_date=2027-07-01&end_date=2027-07-31'));
    expect(july.data.map((x) => x.id)).toEqual([a.id]);
  });
});

describe('GET /v1/work-orders', () => {
  it('takes work with any day in the range, by date, unscheduled last; filters by crew, job and status', async () => {
    const v = await scheduleWorkspace(t);
    const job = await scheduleJob(v);
    const { crew } = await crewWithForeman(t, v);
    const long = (
      await ok(
        v.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Long',
          scheduled_date: '2027-02-26',
          estimated_days: 5,
        }),
      )
    ).data;
    const inside = (
      await ok(
        v.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Inside',
          scheduled_date: '2027-03-10',
          crew_id: crew.id,
        }),
      )
    ).data;
    await ok(v.api.post('/v1/work-orders', { job_id: job.id, title: 'After', scheduled_date: '2027-04-01' }));
    const loose = (await ok(v.api.post('/v1/work-orders', { job_id: job.id, title: 'Loose' }))).data;
    const march = await ok(v.api.get('/v1/work-orders?start_date=2027-03-01&end_date=2027-03-31'));
    expect(march.data.map((x) => x.title)).toEqual(['Long', 'Inside']);
    expect(march.pagination.total).toBe(2);
    expect((await ok(v.api.get(`/v1/work-orders?crew_id=${crew.id}`))).data.map((x) => x.id)).toEqual([inside.id]);
    const all = await ok(v.api.get('/v1/work-orders'));
    expect(all.data.map((x) => x.title)).toEqual(['Long', 'Inside', 'After', 'Loose']);
    expect((await ok(v.api.get('/v1/work-orders?status=unscheduled'))).data.map((x) => x.id)).toEqual([loose.id]);
    const bad = await v.api.get('/v1/work-orders?start_date=2027-03-31&end_date=2027-03-01');
    expect(bad.status).toBe(400);
    // With updated_after: oldest updated first, whatever the dates.
    await ok(v.api.patch(`/v1/work-orders/${long.id}`, { title: 'Long (moved last)' }));
    const after = await ok(v.api.get('/v1/work-orders?updated_after=2020-01-01T00:00:00Z'));
    expect(after.data.map((x) => x.title)).toEqual(['Inside', 'After', 'Loose', 'Long (moved last)']);
    expect((await v.api.get('/v1/work-orders?updated_after=yesterday')).status).toBe(400);
  });
});

describe('POST /v1/schedule/publish', () => {
  it('publishes the drafts with a day in range: dispatched_at set, crew days locked; others stay drafts', async () => {
    const v = await scheduleWorkspace(t);
    const job = await scheduleJob(v);
    const { crew } = await crewWithForeman(t, v);
    const mon = (
      await ok(
        v.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Mon',
          crew_id: crew.id,
          scheduled_date: '2027-08-02',
          estimated_days: 2,
        }),
      )
    ).data;
    const later = (
      await ok(v.api.post('/v1/work-orders', { job_id: job.id, title: 'Later', scheduled_date: '2027-09-01' }))
    ).data;
    const res = await ok(v.api.post('/v1/schedule/publish', { start_date: '2027-08-01', end_date: '2027-08-07' }));
    expect(res.data).toEqual({
      start_date: '2027-08-01',
      end_date: '2027-08-07',
      published: 1,
      work_order_ids: [mon.id],
      held_back: [],
    });
    const read = (await ok(v.api.get(`/v1/work-orders/${mon.id}`))).data;
    expect(read).toMatchObject({ published: true, locked_days: ['2027-08-02', '2027-08-03'] });
    expect(read.dispatched_at).toMatch(Z_SECONDS);
    expect((await ok(v.api.get(`/v1/work-orders/${later.id}`))).data.published).toBe(false);
    const again = await ok(v.api.post('/v1/schedule/publish', { start_date: '2027-08-01', end_date: '2027-08-07' }));
    expect(again.data.published).toBe(0);
    const tooLong = await v.api.post('/v1/schedule/publish', { start_date: '2027-01-01', end_date: '2027-12-31' });
    expect(tooLong.status).toBe(400);
  });
});

describe('who may write', () => {
  it('operations off is 403 Operations not enabled; a member who is not a schedule editor is 403 view_only', async () => {
    const off = await t.workspace();
    const job = await scheduleJob(off);
    const res = await off.api.post('/v1/work-orders', { job_id: job.id, title: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Operations not enabled', code: 'operations_disabled' });
    expect((await off.api.get('/v1/work-orders')).status).toBe(200);
    const member = await t.user(w.firmId, { name: 'Viewer Vic', email: 'vic@office.test', role: 'member' });
    const job2 = await scheduleJob(w);
    const denied = await member.api.post('/v1/work-orders', { job_id: job2.id, title: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('view_only');
    const editor = await t.user(w.firmId, {
      name: 'Editor Ed',
      email: 'ed@office.test',
      role: 'member',
      schedule_editor: true,
    });
    const made = await editor.api.post('/v1/work-orders', { job_id: job2.id, title: 'Editor made' });
    expect(made.status).toBe(201);
    const override = await editor.api.post('/v1/work-orders', { job_id: job2.id, title: 'x', override_lock: true });
    expect(override.status).toBe(403);
    expect(override.body.code).toBe('not_owner');
  });
});

describe('webhooks', () => {
  it('job_scheduled and work_order_completed are delivered with their data and the job', async () => {
    const v = await scheduleWorkspace(t);
    const r = await receiver();
    const wk = worker();
    await subscribe(v, { target_url: r.url, event_type: 'job.scheduled' });
    await subscribe(v, { target_url: r.url, event_type: 'work_order_completed' });
    const job = await scheduleJob(v);
    const wo = (
      await ok(v.api.post('/v1/work-orders', { job_id: job.id, title: 'Hook', scheduled_date: '2027-10-04' }))
    ).data;
    const done = (await ok(v.api.post(`/v1/work-orders/${wo.id}/complete`))).data;
    await wk.drain();
    const bodies = r.received.map((x) => x.body).sort((a, b) => a.event_type.localeCompare(b.event_type));
    expect(bodies.map((b) => b.event_type)).toEqual(['job_scheduled', 'work_order_completed']);
    expect(bodies[0]).toMatchObject({
      entity: { type: 'work_order', id: wo.id },
      data: { work_order_id: wo.id, scheduled_date: '2027-10-04', previous_scheduled_date: null, crew_id: null },
      job: { id: job.id },
    });
    expect(bodies[1]).toMatchObject({
      entity: { type: 'work_order', id: wo.id },
      data: { work_order_id: wo.id, completed_at: done.completed_at },
      job: { id: job.id },
    });
  });
});
