// Time entries over HTTP (docs/api-decisions.md, "Operations: time and job costs"): the crew app's
// clock (shop time, job time, clock-out), the office's void, the list and GET /v1/jobs/{id}/labor,
// hours split by the overtime rule, pay only for users who may see pay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let worker: Awaited<ReturnType<TestApp['user']>>;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t, {});
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { timezone: 'America/New_York' }));
  worker = await t.user(w.firmId, { name: 'Wes Worker', email: 'wes@crew.test', role: 'crew', pay_rate: 30 });
});
afterAll(() => t.close());

describe('POST /v1/crew/time-entries', () => {
  it('a crew user records shop time for themself: 201 with hours, pay rate snapshot shown to the owner only', async () => {
    const res = await worker.api.post('/v1/crew/time-entries', {
      clock_in: '2026-01-05T13:00:00Z',
      clock_out: '2026-01-05T21:30:00Z',
      cost_code: 'Shop',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      user_id: worker.id,
      user: { id: worker.id, name: 'Wes Worker' },
      job_id: null,
      work_order_id: null,
      cost_code: 'Shop',
      clock_in: '2026-01-05T13:00:00Z',
      clock_out: '2026-01-05T21:30:00Z',
      date: '2026-01-05',
      regular_hours: 8.5,
      overtime_hours: 0,
      doubletime_hours: 0,
      total_hours: 8.5,
      approved_at: null,
      voided_at: null,
      void_reason: null,
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    // The crew user may not see pay; the owner sees the snapshot rate and the pay.
    const listed = await ok(w.api.get(`/v1/time-entries?user_id=${worker.id}`));
    expect(listed.data[0]).toMatchObject({ id: res.body.data.id, pay_rate: 30, pay: 255 });
    // A later rate change does not change the entry's snapshot.
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${worker.id}`, { pay_rate: 40 }));
    const again = await ok(w.api.get(`/v1/time-entries?user_id=${worker.id}`));
    expect(again.data[0]).toMatchObject({ pay_rate: 30, pay: 255 });
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${worker.id}`, { pay_rate: 30 }));
  });

  it('job time on a job the worker sees; a job they do not see is 404; an office user names user_id', async () => {
    const seen = await scheduleJob(w);
    await ok(w.api.patch(`/v1/jobs/${seen.id}`, { assigned_to_user_id: worker.id }));
    const unseen = await scheduleJob(w);
    const res = await worker.api.post('/v1/crew/time-entries', {
      job_id: seen.id,
      clock_in: '2026-01-06T13:00:00Z',
      clock_out: '2026-01-06T14:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ job_id: seen.id, total_hours: 1 });
    const hidden = await worker.api.post('/v1/crew/time-entries', {
      job_id: unseen.id,
      clock_in: '2026-01-06T15:00:00Z',
      clock_out: '2026-01-06T16:00:00Z',
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('Job not found');
    const office = await w.api.post('/v1/crew/time-entries', {
      job_id: unseen.id,
      user_id: worker.id,
      clock_in: '2026-01-06T15:00:00Z',
      clock_out: '2026-01-06T16:00:00Z',
    });
    expect(office.status).toBe(201);
    expect(office.body.data).toMatchObject({ user_id: worker.id, job_id: unseen.id, pay_rate: 30, pay: 30 });
    // A crew user may not enter another worker's time.
    const other = await t.user(w.firmId, { name: 'Olly Other', email: 'olly@crew.test', role: 'crew' });
    const forbidden = await worker.api.post('/v1/crew/time-entries', {
      user_id: other.id,
      clock_in: '2026-01-06T17:00:00Z',
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('office_user_required');
    // Unknown users, and another workspace's, are 404.
    const ghost = await w.api.post('/v1/crew/time-entries', { user_id: 999999, clock_in: '2026-01-06T17:00:00Z' });
    expect(ghost.status).toBe(404);
    expect(ghost.body.error).toBe('User not found');
  });

  it('refuses bad times: no Z, clock_out not after clock_in, over 24 hours, the future', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ clock_in: '2026-01-07T13:00:00' }, 400, 'clock_in'],
      [{ clock_in: '2026-01-07T13:00:00+01:00' }, 400, 'clock_in'],
      [
        { clock_in: '2026-01-07T13:00:00Z', clock_out: '2026-01-07T13:00:00Z' },
        400,
        'clock_out must be after clock_in',
      ],
      [
        { clock_in: '2026-01-07T13:00:00Z', clock_out: '2026-01-08T13:00:01Z' },
        400,
        'A time entry is at most 24 hours',
      ],
      [{ clock_in: '2099-01-07T13:00:00Z' }, 400, 'clock_in cannot be in the future'],
      [{ clock_in: '2026-01-07T13:00:00Z', colour: 'red' }, 400, 'colour'],
      [{ clock_out: '2026-01-07T13:00:00Z' }, 400, 'clock_in'],
    ];
    for (const [body, status, text] of cases) {
      const res = await worker.api.raw.post('/v1/crew/time-entries', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(text);
    }
  });

  it('one clock at a time: an overlapping entry is 409; clock-out closes an open entry once', async () => {
    const open = await ok(worker.api.post('/v1/crew/time-entries', { clock_in: '2026-01-08T13:00:00Z' }));
    expect(open.data).toMatchObject({ clock_out: null, regular_hours: null, total_hours: null });
    const overlap = await worker.api.post('/v1/crew/time-entries', {
      clock_in: '2026-01-08T15:00:00Z',
      clock_out: '2026-01-08T16:00:00Z',
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body).toMatchObject({ code: 'time_entry_overlap', time_entry_id: open.data.id });
    const early = await worker.api.post(`/v1/crew/time-entries/${open.data.id}/clock-out`, {
      clock_out: '2026-01-08T12:00:00Z',
    });
    expect(early.status).toBe(400);
    const closed = await ok(
      worker.api.post(`/v1/crew/time-entries/${open.data.id}/clock-out`, { clock_out: '2026-01-08T21:00:00Z' }),
    );
    expect(closed.data).toMatchObject({ clock_out: '2026-01-08T21:00:00Z', total_hours: 8 });
    const twice = await worker.api.post(`/v1/crew/time-entries/${open.data.id}/clock-out`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('already_clocked_out');
    expect((await worker.api.post('/v1/crew/time-entries/999999/clock-out', {})).status).toBe(404);
    // Another crew user cannot clock this worker out.
    const other = await t.user(w.firmId, { name: 'Pat Other', email: 'pat@crew.test', role: 'crew' });
    const theirs = await ok(other.api.post('/v1/crew/time-entries', { clock_in: '2026-01-08T13:00:00Z' }));
    expect((await worker.api.post(`/v1/crew/time-entries/${theirs.data.id}/clock-out`, {})).status).toBe(404);
    // Without a body, clock-out is now; an office user may do it for them.
    const now = await w.api.raw.post(`/v1/crew/time-entries/${theirs.data.id}/clock-out`);
    expect(now.status).toBe(400); // open since January: longer than 24 hours
    expect(now.body.error).toBe('A time entry is at most 24 hours');
  });

  it('needs crew scheduling on', async () => {
    const off = await t.workspace();
    const res = await off.api.post('/v1/crew/time-entries', { clock_in: '2026-01-05T13:00:00Z' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('crew_scheduling_disabled');
  });
});

describe('overtime in the labor rows', () => {
  it('past 40 hours of the worker-week (New York, weeks from Monday) is overtime; a new week starts again', async () => {
    const job = await scheduleJob(w);
    const ot = await t.user(w.firmId, { name: 'Ova Time', email: 'ova@crew.test', role: 'crew', pay_rate: 20 });
    // Mon 2026-03-02 .. Fri 03-06, 09:00-18:00 EST: 45 hours; then Monday 03-09 (EDT since 03-08).
    const days = ['02', '03', '04', '05', '06'];
    for (const d of days)
      await ok(
        w.api.post('/v1/crew/time-entries', {
          user_id: ot.id,
          job_id: job.id,
          clock_in: `2026-03-${d}T14:00:00Z`,
          clock_out: `2026-03-${d}T23:00:00Z`,
        }),
      );
    await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: ot.id,
        job_id: job.id,
        clock_in: '2026-03-09T13:00:00Z',
        clock_out: '2026-03-09T21:00:00Z',
      }),
    );
    const labor = (await ok(w.api.get(`/v1/jobs/${job.id}/labor`))).data;
    expect(labor.map((r) => [r.date, r.regular_hours, r.overtime_hours, r.pay])).toEqual([
      ['2026-03-02', 9, 0, 180],
      ['2026-03-03', 9, 0, 180],
      ['2026-03-04', 9, 0, 180],
      ['2026-03-05', 9, 0, 180],
      ['2026-03-06', 4, 5, 80 + 150],
      ['2026-03-09', 8, 0, 160],
    ]);
    // A member (office user without can_see_pay) gets the hours but no pay fields.
    const member = await t.user(w.firmId, { name: 'Mia Member', email: 'mia@office.test', role: 'member' });
    const seen = (await ok(member.api.get(`/v1/jobs/${job.id}/labor`))).data;
    expect(seen[4]).toMatchObject({ regular_hours: 4, overtime_hours: 5 });
    expect(seen[4]).not.toHaveProperty('pay');
    expect(seen[4]).not.toHaveProperty('pay_rate');
    // Voiding Monday's entry gives Friday's hours back to regular; the void entry counts nothing.
    const voided = await ok(w.api.post(`/v1/time-entries/${labor[0]!.id}/void`, { reason: 'Entered twice' }));
    expect(voided.data).toMatchObject({
      voided_at: expect.stringMatching(Z_SECONDS),
      void_reason: 'Entered twice',
      total_hours: 0,
      pay: 0,
    });
    const after = (await ok(w.api.get(`/v1/jobs/${job.id}/labor`))).data;
    expect(after[4]).toMatchObject({ regular_hours: 9, overtime_hours: 0 });
    const again = await w.api.post(`/v1/time-entries/${labor[0]!.id}/void`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('time_entry_void');
    // Only an office user voids, not even the worker.
    const own = await ot.api.post(`/v1/time-entries/${labor[1]!.id}/void`, {});
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('office_user_required');
    const crewSees = await t.user(w.firmId, { name: 'Cal Crew', email: 'cal@crew.test', role: 'crew' });
    await ok(w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: crewSees.id }));
    const refused = await crewSees.api.post(`/v1/time-entries/${labor[1]!.id}/void`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('office_user_required');
  });

  it('weeks start on sunday when the workspace says so', async () => {
    const sunday = await scheduleWorkspace(t, { week_start: 'sunday' });
    const u = await t.user(sunday.firmId, { name: 'Sid Sunday', email: 'sid@crew.test', role: 'crew' });
    // Sat 2026-03-07 then Sun 2026-03-08, 30 hours each (as 15 + 15): Sunday is a new week.
    const stretches = [
      ['2026-03-06T00:00:00Z', '2026-03-06T15:00:00Z'],
      ['2026-03-06T15:00:00Z', '2026-03-07T06:00:00Z'],
      ['2026-03-07T06:00:00Z', '2026-03-07T21:00:00Z'],
      ['2026-03-08T12:00:00Z', '2026-03-08T20:00:00Z'],
    ];
    for (const [clock_in, clock_out] of stretches)
      await ok(sunday.api.post('/v1/crew/time-entries', { user_id: u.id, clock_in: clock_in!, clock_out: clock_out! }));
    const rows = (await ok(sunday.api.get(`/v1/time-entries?user_id=${u.id}`))).data;
    // Newest first: Sunday's 8 hours are regular; the third stretch passes 40 hours.
    expect(rows.map((r) => [r.date, r.regular_hours, r.overtime_hours])).toEqual([
      ['2026-03-08', 8, 0],
      ['2026-03-07', 10, 5],
      ['2026-03-06', 15, 0],
      ['2026-03-06', 15, 0],
    ]);
  });
});

describe('GET /v1/time-entries', () => {
  it('filters by user, job and local dates; updated_after lists oldest change first', async () => {
    const ws = await scheduleWorkspace(t);
    await ok(t.admin.patch(`/admin/v1/workspaces/${ws.firmId}`, { timezone: 'America/New_York' }));
    const job = await scheduleJob(ws);
    const a = await ok(
      ws.api.post('/v1/crew/time-entries', {
        job_id: job.id,
        clock_in: '2026-02-02T14:00:00Z',
        clock_out: '2026-02-02T15:00:00Z',
      }),
    );
    // 02:00Z on the 4th is the evening of the 3rd in New York.
    const b = await ok(
      ws.api.post('/v1/crew/time-entries', { clock_in: '2026-02-04T02:00:00Z', clock_out: '2026-02-04T03:00:00Z' }),
    );
    const all = await ok(ws.api.get('/v1/time-entries'));
    expect(all.data.map((r) => r.id)).toEqual([b.data.id, a.data.id]);
    expect(all.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
    expect((await ok(ws.api.get(`/v1/time-entries?job_id=${job.id}`))).data.map((r) => r.id)).toEqual([a.data.id]);
    const day = await ok(ws.api.get('/v1/time-entries?start_date=2026-02-03&end_date=2026-02-03'));
    expect(day.data.map((r) => [r.id, r.date])).toEqual([[b.data.id, '2026-02-03']]);
    expect((await ok(ws.api.get(`/v1/time-entries?user_id=${ws.ownerId}`))).pagination.total).toBe(2);
    // updated_after holds back the running second: let it end.
    pauseClock();
    try {
      advanceClock(1000);
      const since = await ok(ws.api.get('/v1/time-entries?updated_after=2020-01-01T00:00:00Z'));
      expect(since.data.map((r) => r.id)).toEqual([a.data.id, b.data.id]);
    } finally {
      resumeClock();
    }
    const bad = await ws.api.get('/v1/time-entries?updated_after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_updated_after');
    const backwards = await ws.api.get('/v1/time-entries?start_date=2026-02-05&end_date=2026-02-01');
    expect(backwards.status).toBe(400);
  });

  it('a crew user sees time on jobs they see and their own time only', async () => {
    const mine = await ok(worker.api.get('/v1/time-entries?limit=200'));
    expect(mine.data.length).toBeGreaterThan(0);
    for (const r of mine.data) if (r.job_id === null) expect(r.user_id).toBe(worker.id);
    // The worker's own time on a job they do not see is theirs to read (the office entered it).
    expect(mine.data.some((r) => r.job_id !== null && r.user_id === worker.id)).toBe(true);
    const ownerShop = await ok(
      w.api.post('/v1/crew/time-entries', { clock_in: '2026-01-20T13:00:00Z', clock_out: '2026-01-20T14:00:00Z' }),
    );
    expect((await ok(worker.api.get('/v1/time-entries?limit=200'))).data.map((r) => r.id)).not.toContain(
      ownerShop.data.id,
    );
    expect((await worker.api.post(`/v1/crew/time-entries/${ownerShop.data.id}/clock-out`, {})).status).toBe(404);
  });

  it("GET /v1/jobs/{id}/labor of an unknown or another workspace's job is 404", async () => {
    const other = await t.workspace();
    const theirs = await scheduleJob(other);
    expect((await w.api.get(`/v1/jobs/${theirs.id}/labor`)).status).toBe(404);
    expect((await w.api.get('/v1/jobs/999999/labor')).status).toBe(404);
  });
});

describe('users pay_rate', () => {
  it('the operator sets it; GET /v1/users shows it only to users who may see pay', async () => {
    const admin = await t.admin.get(`/admin/v1/workspaces/${w.firmId}/users`);
    const row = (admin.body.data as { id: number; pay_rate: number | null }[]).find((u) => u.id === worker.id);
    expect(row?.pay_rate).toBe(30);
    const owner = await ok(w.api.get('/v1/users?limit=200'));
    expect(owner.data.find((u) => u.id === worker.id)?.pay_rate).toBe(30);
    expect(owner.data.find((u) => u.id === w.ownerId)?.pay_rate).toBeNull();
    const listed = await ok(worker.api.get('/v1/users?limit=200'));
    for (const u of listed.data) expect(u).not.toHaveProperty('pay_rate');
    const bad = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${worker.id}`, { pay_rate: -1 });
    expect(bad.status).toBe(400);
  });
});
