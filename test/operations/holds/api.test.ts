// Holds over HTTP (document 2: Hold, Holds endpoints, Hold state table, 409 crew day held or
// locked with locks): make one for a job or a name, the crew-day locks it keeps, moving it,
// converting it to a draft visit, linking it to the real job, deleting it; how work orders and
// publishing meet it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { feedOf } from '#test/helpers/scenarios/change-order.ts';
import { crewWithForeman, scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

describe('POST /v1/schedule/holds', () => {
  it('holds a crew’s days for a job: locked_days, the scope’s first line as title, no event', async () => {
    const job = await scheduleJob(w, 'Oak Court');
    const { crew } = await crewWithForeman(t, w);
    const res = await w.api.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-04-05',
      estimated_days: 2,
      scope: '\n  Mill and pave entrance \nthen stripe',
      crew_id: crew.id,
      start_time: '06:00',
      end_time: '14:30',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ job_created: false, same_day_work_order_ids: [] });
    expect(res.body.data).toMatchObject({
      job_id: job.id,
      title: 'Mill and pave entrance',
      is_hold: true,
      published: false,
      status: 'scheduled',
      crew_id: crew.id,
      scheduled_date: '2027-04-05',
      end_date: '2027-04-06',
      locked_days: ['2027-04-05', '2027-04-06'],
      job_is_placeholder: false,
      address: job.address,
    });
    expect((await feedOf(w, 'job_scheduled')).some((e) => e.entity.id === res.body.data.id)).toBe(false);
    expect((await ok(w.api.get(`/v1/work-orders/${res.body.data.id}`))).data).toEqual(res.body.data);
    expect((await ok(w.api.get(`/v1/schedule/holds/${res.body.data.id}`))).data).toEqual(res.body.data);
  });

  it('a name makes a placeholder job in the first stage; job_id or name, one of them', async () => {
    const res = await w.api.post('/v1/schedule/holds', { name: 'Smith driveway', scheduled_date: '2027-04-12' });
    expect(res.status).toBe(201);
    expect(res.body.job_created).toBe(true);
    expect(res.body.data).toMatchObject({ job_is_placeholder: true, title: 'Smith driveway', locked_days: [] });
    const job = (await ok(w.api.get(`/v1/jobs/${res.body.data.job_id}`))).data;
    expect(job).toMatchObject({ name: 'Smith driveway', status: 'lead' });
    const neither = await w.api.post('/v1/schedule/holds', { scheduled_date: '2027-04-12' });
    expect(neither.status).toBe(400);
    const both = await w.api.post('/v1/schedule/holds', { scheduled_date: '2027-04-12', job_id: job.id, name: 'x' });
    expect(both.status).toBe(400);
    const connected = await scheduleWorkspace(t, { jobs_from_connected_system: true });
    const refused = await connected.api.post('/v1/schedule/holds', { name: 'x', scheduled_date: '2027-04-12' });
    expect(refused.status).toBe(403);
    const missingDate = await w.api.raw.post('/v1/schedule/holds', { job_id: job.id });
    expect(missingDate.status).toBe(400);
    const days = await w.api.raw.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-04-12',
      estimated_days: 366,
    });
    expect(days.status).toBe(400);
  });

  it('a held crew day, or locked work’s, is 409 with locks; drafts only get a heads-up; owners may override', async () => {
    const job = await scheduleJob(w);
    const { crew } = await crewWithForeman(t, w);
    const first = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-05-10', crew_id: crew.id }))
    ).data;
    const clash = await w.api.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-05-09',
      estimated_days: 3,
      crew_id: crew.id,
    });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      error: 'Crew day held or locked',
      code: 'crew_day_locked',
      message: expect.any(String),
      locks: [
        {
          crew_id: crew.id,
          date: '2027-05-10',
          work_order_id: first.id,
          job_id: job.id,
          title: first.title,
          kind: 'hold',
        },
      ],
    });
    // Published work locks its days for holds; a draft does not, and is named as a heads-up.
    const published = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Paving',
          crew_id: crew.id,
          scheduled_date: '2027-05-20',
        }),
      )
    ).data;
    await ok(w.api.post('/v1/schedule/publish', { start_date: '2027-05-20', end_date: '2027-05-20' }));
    const onLocked = await w.api.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-05-20',
      crew_id: crew.id,
    });
    expect(onLocked.status).toBe(409);
    expect(onLocked.body.locks).toMatchObject([{ work_order_id: published.id, kind: 'locked_work' }]);
    const draft = (
      await ok(
        w.api.post('/v1/work-orders', {
          job_id: job.id,
          title: 'Draft',
          crew_id: crew.id,
          scheduled_date: '2027-05-25',
        }),
      )
    ).data;
    const beside = await ok(
      w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-05-25', crew_id: crew.id }),
    );
    expect(beside.same_day_work_order_ids).toEqual([draft.id]);
    // The draft cannot be published while the hold is there.
    const pub = await ok(w.api.post('/v1/schedule/publish', { start_date: '2027-05-25', end_date: '2027-05-25' }));
    expect(pub.data).toMatchObject({ published: 0, held_back: [{ work_order_id: draft.id }] });
    // Work cannot be placed on a held day either.
    const work = await w.api.post('/v1/work-orders', {
      job_id: job.id,
      title: 'x',
      crew_id: crew.id,
      scheduled_date: '2027-05-10',
    });
    expect(work.status).toBe(409);
    // Owners may override; a member schedule editor may not.
    const editor = await t.user(w.firmId, {
      name: 'Sched Sue',
      email: 'sue@office.test',
      role: 'member',
      schedule_editor: true,
    });
    const denied = await editor.api.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-05-10',
      crew_id: crew.id,
      override_lock: true,
    });
    expect(denied.status).toBe(403);
    const overridden = await w.api.post('/v1/schedule/holds', {
      job_id: job.id,
      scheduled_date: '2027-05-10',
      crew_id: crew.id,
      override_lock: true,
    });
    expect(overridden.status).toBe(201);
  });
});

describe('changing a hold', () => {
  it('PATCH re-checks and moves its locks; work-order PATCH refuses a hold', async () => {
    const job = await scheduleJob(w);
    const { crew } = await crewWithForeman(t, w);
    const a = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-06-01', crew_id: crew.id }))
    ).data;
    const b = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-06-03', crew_id: crew.id }))
    ).data;
    const onto = await w.api.patch(`/v1/schedule/holds/${b.id}`, { scheduled_date: '2027-06-01' });
    expect(onto.status).toBe(409);
    expect((await ok(w.api.get(`/v1/schedule/holds/${b.id}`))).data.scheduled_date).toBe('2027-06-03');
    const moved = (
      await ok(w.api.patch(`/v1/schedule/holds/${a.id}`, { scheduled_date: '2027-06-02', title: 'Moved' }))
    ).data;
    expect(moved).toMatchObject({ title: 'Moved', locked_days: ['2027-06-02'] });
    const crewless = (await ok(w.api.patch(`/v1/schedule/holds/${a.id}`, { crew_id: null }))).data;
    expect(crewless.locked_days).toEqual([]);
    expect(
      (await ok(w.api.patch(`/v1/schedule/holds/${b.id}`, { scheduled_date: '2027-06-02' }))).data.locked_days,
    ).toEqual(['2027-06-02']);
    const viaWork = await w.api.patch(`/v1/work-orders/${a.id}`, { title: 'x' });
    expect(viaWork.status).toBe(409);
    expect(viaWork.body.code).toBe('hold_only_through_holds');
    const list = await ok(w.api.get(`/v1/schedule/holds?job_id=${job.id}&start_date=2027-06-01&end_date=2027-06-02`));
    expect(list.data.map((h) => h.id)).toEqual([a.id, b.id]);
    expect((await ok(w.api.get(`/v1/work-orders?job_id=${job.id}`))).data).toEqual([]);
    expect((await ok(w.api.get(`/v1/work-orders?job_id=${job.id}&include_holds=true`))).data).toHaveLength(2);
  });

  it('convert: a draft visit on the same day and crew, locks released, job_scheduled recorded', async () => {
    const job = await scheduleJob(w);
    const { crew } = await crewWithForeman(t, w);
    const hold = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-07-06', crew_id: crew.id }))
    ).data;
    const work = (await ok(w.api.post(`/v1/schedule/holds/${hold.id}/convert`))).data;
    expect(work).toMatchObject({
      id: hold.id,
      is_hold: false,
      published: false,
      crew_id: crew.id,
      scheduled_date: '2027-07-06',
      locked_days: [],
    });
    const events = (await feedOf(w, 'job_scheduled')).filter((e) => e.entity.id === hold.id);
    expect(events.map((e) => e.data)).toEqual([
      { work_order_id: hold.id, scheduled_date: '2027-07-06', previous_scheduled_date: null, crew_id: crew.id },
    ]);
    expect((await w.api.post(`/v1/schedule/holds/${hold.id}/convert`)).status).toBe(404);
    // Its day is free for a new hold now that it is a draft: the draft is the heads-up.
    const next = await ok(
      w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-07-06', crew_id: crew.id }),
    );
    expect(next.same_day_work_order_ids).toEqual([hold.id]);
  });

  it('link: onto the real job with its locks; an untouched placeholder job is merged away', async () => {
    const real = await scheduleJob(w, 'Real Smith job');
    const { crew } = await crewWithForeman(t, w);
    const hold = await ok(
      w.api.post('/v1/schedule/holds', { name: 'Smith placeholder', scheduled_date: '2027-08-02', crew_id: crew.id }),
    );
    const linked = await ok(w.api.post(`/v1/schedule/holds/${hold.data.id}/link`, { job_id: real.id }));
    expect(linked.merged_placeholder_job).toEqual({ id: hold.data.job_id, name: 'Smith placeholder' });
    expect(linked.data).toMatchObject({
      job_id: real.id,
      job_is_placeholder: false,
      scheduled_date: '2027-08-02',
      locked_days: ['2027-08-02'],
    });
    expect((await w.api.get(`/v1/jobs/${hold.data.job_id}`)).status).toBe(404);
    // A placeholder that also carries other work stays.
    const h2 = await ok(w.api.post('/v1/schedule/holds', { name: 'Busy placeholder', scheduled_date: '2027-08-09' }));
    await ok(w.api.post('/v1/work-orders', { job_id: h2.data.job_id, title: 'Other work' }));
    const kept = await ok(w.api.post(`/v1/schedule/holds/${h2.data.id}/link`, { job_id: real.id }));
    expect(kept.merged_placeholder_job).toBeNull();
    expect((await w.api.get(`/v1/jobs/${h2.data.job_id}`)).status).toBe(200);
    expect((await w.api.post(`/v1/schedule/holds/${h2.data.id}/link`, { job_id: 999999 })).status).toBe(404);
  });

  it('DELETE removes the hold and its locks; the job stays; deletion lock and permissions apply', async () => {
    const job = await scheduleJob(w);
    const { crew } = await crewWithForeman(t, w);
    const hold = (
      await ok(w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-09-01', crew_id: crew.id }))
    ).data;
    expect((await w.api.delete(`/v1/schedule/holds/${hold.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/schedule/holds/${hold.id}`)).status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
    expect(
      (await w.api.post('/v1/schedule/holds', { job_id: job.id, scheduled_date: '2027-09-01', crew_id: crew.id }))
        .status,
    ).toBe(201);
    const work = (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Not a hold' }))).data;
    expect((await w.api.delete(`/v1/schedule/holds/${work.id}`)).status).toBe(404);
    const locked = await scheduleWorkspace(t, { deletion_locked: true });
    const lockedJob = await scheduleJob(locked);
    const h = (await ok(locked.api.post('/v1/schedule/holds', { job_id: lockedJob.id, scheduled_date: '2027-09-01' })))
      .data;
    expect((await locked.api.delete(`/v1/schedule/holds/${h.id}`)).status).toBe(403);
  });
});
