// Schedule requests over HTTP (document 2: Schedule request, its state table, Schedule requests
// endpoints and errors): date, move and skip requests with their required fields, the queue of
// requestable lines, approval under the crew-day lock rules, decline, 409 once decided, and the
// in-app notifications to schedule editors and to the requester.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A won job whose awarded estimate has two lines. */
async function wonJobWithLines(v: Workspace) {
  const job = await scheduleJob(v);
  const estimate = (await ok(v.api.post('/v1/estimates', { job_id: job.id }))).data;
  const ids: number[] = [];
  for (const [name, quantity] of [
    ['Sealcoat', 9000],
    ['Stripe stalls', 40],
  ] as const) {
    const res = await v.api.post(`/v1/estimates/${estimate.id}/line-items`, {
      name,
      unit: 'EA',
      quantity,
      unit_cost: 1,
    });
    expect(res.status).toBe(201);
    ids.push(res.body.line_item_id);
  }
  await ok(v.api.post(`/v1/estimates/${estimate.id}/issue`, {}));
  await ok(v.api.post(`/v1/estimates/${estimate.id}/mark-won`, {}));
  await ok(v.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' }));
  return { job, estimate, lines: ids };
}

describe('date requests', () => {
  it('the queue lists won jobs’ unscheduled lines; a request on one notifies editors; approval schedules it', async () => {
    const { job, lines } = await wonJobWithLines(w);
    const queue = await ok(w.api.get(`/v1/schedule/queue?job_id=${job.id}`));
    expect(queue.data.map((l) => [l.estimate_service_id, l.service_name, l.quantity])).toEqual([
      [lines[0], 'Sealcoat', 9000],
      [lines[1], 'Stripe stalls', 40],
    ]);
    const foreman = await t.user(w.firmId, { name: 'Frank Foreman', email: 'frank@crew.test', role: 'crew' });
    // A crew login sees only its own jobs: those of published work on its crew.
    const { crew } = await crewWithForeman(t, w);
    await ok(w.api.patch(`/v1/crews/${crew.id}`, { member_user_ids: [foreman.id] }));
    await ok(
      w.api.post('/v1/work-orders', { job_id: job.id, title: 'Prep', crew_id: crew.id, scheduled_date: '2027-06-01' }),
    );
    const early = await foreman.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: job.id,
      requested_date: '2027-06-14',
    });
    expect(early.status).toBe(404);
    await ok(w.api.post('/v1/schedule/publish', { start_date: '2027-06-01', end_date: '2027-06-01' }));
    const made = await foreman.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: job.id,
      requested_date: '2027-06-14',
      estimate_service_id: lines[0],
      note: 'Customer asked for Monday',
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      kind: 'date',
      status: 'pending',
      summary: 'Schedule Sealcoat on 2027-06-14',
      job: { id: job.id, name: job.name },
      service_name: 'Sealcoat',
      requested_by: { id: foreman.id, name: 'Frank Foreman' },
      decided_by: null,
    });
    const notes = await ok(w.api.get('/v1/notifications?unread=true'));
    const mine = notes.data.find((n) => n.schedule_request_id === made.body.data.id)!;
    expect(mine).toMatchObject({ kind: 'schedule_request', read_at: null });
    expect(mine.title).toContain('Schedule Sealcoat on 2027-06-14');
    const again = await foreman.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: job.id,
      requested_date: '2027-06-14',
      estimate_service_id: lines[0],
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('identical request already waiting');
    // The foreman cannot decide it.
    expect((await foreman.api.post(`/v1/schedule/date-requests/${made.body.data.id}/approve`)).status).toBe(403);
    const approved = await ok(
      w.api.post(`/v1/schedule/date-requests/${made.body.data.id}/approve`, { note: 'See you Monday' }),
    );
    expect(approved.data).toMatchObject({
      status: 'approved',
      decided_by: { id: w.ownerId },
      decision_note: 'See you Monday',
    });
    expect(approved.work_order).toMatchObject({
      job_id: job.id,
      scheduled_date: '2027-06-14',
      estimate_service_id: lines[0],
      published: false,
      dispatch_notes: 'Customer asked for Monday',
    });
    expect((await ok(w.api.get(`/v1/schedule/queue?job_id=${job.id}`))).data.map((l) => l.estimate_service_id)).toEqual(
      [lines[1]],
    );
    const onCalendar = await w.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: job.id,
      requested_date: '2027-06-20',
      estimate_service_id: lines[0],
    });
    expect(onCalendar.status).toBe(400);
    expect(onCalendar.body.error).toBe('That line is already on the calendar');
    const decided = await w.api.post(`/v1/schedule/date-requests/${made.body.data.id}/decline`);
    expect(decided.status).toBe(409);
    expect(decided.body.error).toBe('request already decided');
    const told = await ok(foreman.api.get('/v1/notifications'));
    expect(told.data[0]).toMatchObject({ kind: 'schedule_request_decided', schedule_request_id: made.body.data.id });
    const read = await ok(foreman.api.post(`/v1/notifications/${told.data[0]!.id}/read`));
    expect(read.data.read_at).not.toBeNull();
    expect((await w.api.post(`/v1/notifications/${told.data[0]!.id}/read`)).status).toBe(404);
  });

  it('required fields per kind are 400; another workspace’s job is 404; operations off is 403', async () => {
    const job = await scheduleJob(w);
    for (const body of [
      { kind: 'date', requested_date: '2027-01-01' },
      { kind: 'date', job_id: job.id },
      { kind: 'move', requested_date: '2027-01-01' },
      { kind: 'skip', skip_date: '2027-01-01' },
    ]) {
      const res = await w.api.raw.post('/v1/schedule/date-requests', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const other = await scheduleWorkspace(t);
    const foreign = await other.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: job.id,
      requested_date: '2027-01-01',
    });
    expect(foreign.status).toBe(404);
    const off = await t.workspace();
    const offJob = await scheduleJob(off);
    const refused = await off.api.post('/v1/schedule/date-requests', {
      kind: 'date',
      job_id: offJob.id,
      requested_date: '2027-01-01',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Operations not enabled');
  });
});

describe('move and skip requests', () => {
  it('a move onto a held crew day is 409 on approval and stays pending; decline leaves the schedule', async () => {
    const job = await scheduleJob(w);
    const { crew } = await crewWithForeman(t, w);
    const wo = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Overlay',
          crew_id: crew.id,
          scheduled_date: '2027-07-05',
        }),
      )
    ).data;
    await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-07-07', crew_id: crew.id }));
    const move = (
      await ok(
        w.api.post('/v1/schedule/date-requests', { kind: 'move', work_order_id: wo.id, requested_date: '2027-07-07' }),
      )
    ).data;
    expect(move.summary).toBe('Move Overlay to 2027-07-07');
    const blocked = await w.api.post(`/v1/schedule/date-requests/${move.id}/approve`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('crew_day_locked');
    expect((await ok(w.api.get(`/v1/schedule/date-requests/${move.id}`))).data.status).toBe('pending');
    expect((await ok(w.api.get(`/v1/work-orders/${wo.id}`))).data.scheduled_date).toBe('2027-07-05');
    const declined = await ok(w.api.post(`/v1/schedule/date-requests/${move.id}/decline`, { note: 'Crew is held' }));
    expect(declined.data).toMatchObject({ status: 'declined', decision_note: 'Crew is held' });
    const move2 = (
      await ok(
        w.api.post('/v1/schedule/date-requests', {
          kind: 'move',
          work_order_id: wo.id,
          requested_date: '2027-07-12',
          note: 'Gate code 4411',
        }),
      )
    ).data;
    const approved = await ok(w.api.post(`/v1/schedule/date-requests/${move2.id}/approve`));
    expect(approved.work_order).toMatchObject({ scheduled_date: '2027-07-12', dispatch_notes: 'Gate code 4411' });
    const same = await w.api.post('/v1/schedule/date-requests', {
      kind: 'move',
      work_order_id: wo.id,
      requested_date: '2027-07-12',
    });
    expect(same.status).toBe(400);
  });

  it('skip takes one day off a multi-day visit (not its first), which then runs a day longer', async () => {
    const job = await scheduleJob(w);
    const wo = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Big lot',
          scheduled_date: '2027-08-02',
          estimated_days: 3,
        }),
      )
    ).data;
    const first = await w.api.post('/v1/schedule/date-requests', {
      kind: 'skip',
      work_order_id: wo.id,
      skip_date: '2027-08-02',
    });
    expect(first.status).toBe(400);
    const outside = await w.api.post('/v1/schedule/date-requests', {
      kind: 'skip',
      work_order_id: wo.id,
      skip_date: '2027-08-09',
    });
    expect(outside.status).toBe(400);
    const skip = (
      await ok(
        w.api.post('/v1/schedule/date-requests', { kind: 'skip', work_order_id: wo.id, skip_date: '2027-08-03' }),
      )
    ).data;
    expect(skip.summary).toBe('Skip 2027-08-03 of Big lot');
    const approved = await ok(w.api.post(`/v1/schedule/date-requests/${skip.id}/approve`));
    expect(approved.work_order).toMatchObject({ skipped_dates: ['2027-08-03'], end_date: '2027-08-05' });
    const list = await ok(w.api.get(`/v1/schedule/date-requests?work_order_id=${wo.id}&status=approved`));
    expect(list.data.map((r) => r.id)).toEqual([skip.id]);
    const aug3 = await ok(w.api.get('/v1/work-orders?start_date=2027-08-03&end_date=2027-08-03'));
    expect(aug3.data.map((x) => x.id)).not.toContain(wo.id);
  });
});
