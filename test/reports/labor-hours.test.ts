// GET /v1/reports/labor-hours (document 2, Owner reports; docs/reports.md, "Labor hours"): hours by
// worker, day, job and cost code with overtime per worker-week, across a week boundary and the
// daylight-saving change of 8 March 2026 in New York; pay only for users who may see pay; the access
// rules and the range limit. The expected figures are worked by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#platform/time-zone.ts';
import { weekStartOf } from '#engines/payroll/index.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let ann: Awaited<ReturnType<TestApp['user']>>;
let bo: Awaited<ReturnType<TestApp['user']>>;
let j1: number;
let j2: number;

/** A closed entry entered by the owner for `userId`; approved for payroll unless told otherwise. */
async function entry(
  userId: number,
  clockIn: string,
  clockOut: string,
  place: Record<string, unknown>,
  approved = true,
) {
  const made = await ok(
    w.api.post('/v1/crew/time-entries', { user_id: userId, clock_in: clockIn, clock_out: clockOut, ...place }),
  );
  // Payroll approval comes with the daily log's approval (operations); the report only reads it.
  if (approved)
    await t.database.db
      .updateTable('time_entries')
      .set({ approved_at: '2026-03-20T12:00:00.000000', approved_by_user_id: w.ownerId })
      .where('id', '=', made.data.id)
      .execute();
  return made.data.id;
}

beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t, { week_start: 'monday' });
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { timezone: 'America/New_York' }));
  ann = await t.user(w.firmId, { name: 'Ann Asphalt', email: 'ann@crew.test', role: 'crew', pay_rate: 20 });
  bo = await t.user(w.firmId, { name: 'Bo Broom', email: 'bo@crew.test', role: 'crew', pay_rate: 18 });
  j1 = (await scheduleJob(w, 'Lot repave')).id;
  j2 = (await scheduleJob(w, 'Church sealcoat')).id;
  const paving = { job_id: j1, cost_code: 'Paving' };
  // Week of Monday 2 March (EST, UTC-5): Mon-Fri 08:00-17:00 local, 9 hours each (Thursday not
  // approved), Saturday 10 hours, Sunday 8 March 00:30 EST to 07:30 EDT: 7 hours on the wall clock,
  // 6 real hours across the change.
  for (const day of ['02', '03', '04', '05', '06'])
    await entry(ann.id, `2026-03-${day}T13:00:00Z`, `2026-03-${day}T22:00:00Z`, paving, day !== '05');
  await entry(ann.id, '2026-03-07T13:00:00Z', '2026-03-07T23:00:00Z', { job_id: j2, cost_code: 'Sealcoat' });
  await entry(ann.id, '2026-03-08T05:30:00Z', '2026-03-08T11:30:00Z', { cost_code: 'Shop' });
  // Week of Monday 9 March (EDT, UTC-4): two entries on the same job and code make one line.
  await entry(ann.id, '2026-03-09T12:00:00Z', '2026-03-09T20:00:00Z', paving);
  await entry(ann.id, '2026-03-09T21:00:00Z', '2026-03-09T23:00:00Z', paving);
  // Bo's one entry is not approved.
  await entry(bo.id, '2026-03-03T13:00:00Z', '2026-03-03T15:00:00Z', { job_id: j2, cost_code: 'Sealcoat' }, false);
});
afterAll(() => t.close());

const line = (
  date: string,
  job_id: number | null,
  cost_code: string,
  r: number,
  o: number,
  d: number,
  pay?: number,
) => ({
  date,
  job_id,
  cost_code,
  regular_hours: r,
  overtime_hours: o,
  doubletime_hours: d,
  total_hours: r + o + d,
  ...(pay === undefined ? {} : { pay }),
});

describe('GET /v1/reports/labor-hours', () => {
  it('splits overtime per worker-week across the week boundary and the daylight-saving change, with pay for the owner', async () => {
    const res = await ok(w.api.get('/v1/reports/labor-hours?start=2026-03-02&end=2026-03-09'));
    // Week of 2 March, in clock-in order: Mon-Thu 36 h regular (Thursday counts though it is not
    // approved, so it is not shown); Friday 9 h = 4 regular (to 40) + 5 overtime; Saturday 10 h
    // overtime (55); Sunday 6 real hours = 5 overtime (to 60) + 1 doubletime. The week of 9 March
    // starts again at 0: 8 + 2 = 10 h regular. Pay at $20: regular 20, overtime 30, doubletime 40.
    const lines = [
      line('2026-03-02', j1, 'Paving', 9, 0, 0, 180),
      line('2026-03-03', j1, 'Paving', 9, 0, 0, 180),
      line('2026-03-04', j1, 'Paving', 9, 0, 0, 180),
      line('2026-03-06', j1, 'Paving', 4, 5, 0, 230),
      line('2026-03-07', j2, 'Sealcoat', 0, 10, 0, 300),
      line('2026-03-08', null, 'Shop', 0, 5, 1, 190),
      line('2026-03-09', j1, 'Paving', 10, 0, 0, 200),
    ];
    expect(res.data).toEqual({
      start: '2026-03-02',
      end: '2026-03-09',
      approved_only: true,
      includes_pay: true,
      people: [
        {
          user_id: ann.id,
          name: 'Ann Asphalt',
          regular_hours: 41,
          overtime_hours: 20,
          doubletime_hours: 1,
          total_hours: 62,
          pay: 1460,
          lines,
        },
      ],
      totals: { people: 1, regular_hours: 41, overtime_hours: 20, doubletime_hours: 1, total_hours: 62, pay: 1460 },
    });
  });

  it('a range starting mid-week still counts the week’s earlier hours toward overtime', async () => {
    const res = await ok(w.api.get('/v1/reports/labor-hours?start=2026-03-06&end=2026-03-06'));
    expect(res.data.people[0]!.lines).toEqual([line('2026-03-06', j1, 'Paving', 4, 5, 0, 230)]);
  });

  it('approved_only=false adds unapproved time (Bo, and Ann’s Thursday)', async () => {
    const res = await ok(w.api.get('/v1/reports/labor-hours?start=2026-03-02&end=2026-03-08&approved_only=false'));
    expect(res.data.approved_only).toBe(false);
    expect(res.data.people.map((p) => [p.name, p.total_hours])).toEqual([
      ['Ann Asphalt', 61],
      ['Bo Broom', 2],
    ]);
    expect(res.data.people[0]!.lines[3]).toEqual(line('2026-03-05', j1, 'Paving', 9, 0, 0, 180));
    expect(res.data.people[1]!.lines).toEqual([line('2026-03-03', j2, 'Sealcoat', 2, 0, 0, 36)]);
    expect(res.data.totals).toEqual({
      people: 2,
      regular_hours: 42,
      overtime_hours: 20,
      doubletime_hours: 1,
      total_hours: 63,
      pay: 1476, // Ann 4 × 180 + 230 + 300 + 190 = 1440, Bo 2 × 18 = 36
    });
  });

  it('a payroll approver who may not see pay gets hours without pay', async () => {
    const clerk = await t.user(w.firmId, { name: 'Pat Payroll', role: 'member', payroll_approver: true });
    const res = await ok(clerk.api.get('/v1/reports/labor-hours?start=2026-03-09&end=2026-03-09'));
    expect(res.data.includes_pay).toBe(false);
    expect(res.data.people).toEqual([
      {
        user_id: ann.id,
        name: 'Ann Asphalt',
        regular_hours: 10,
        overtime_hours: 0,
        doubletime_hours: 0,
        total_hours: 10,
        lines: [line('2026-03-09', j1, 'Paving', 10, 0, 0)],
      },
    ]);
    expect(res.data.totals).not.toHaveProperty('pay');
  });

  it('job visibility applies: a user who sees only their jobs sees the time on them, split as for everyone', async () => {
    const own = await t.user(w.firmId, {
      name: 'Sid Sees-own',
      role: 'member',
      payroll_approver: true,
      sees_own_jobs_only: true,
    });
    await ok(w.api.patch(`/v1/jobs/${j2}`, { assigned_to_user_id: own.id }));
    const res = await ok(own.api.get('/v1/reports/labor-hours?start=2026-03-02&end=2026-03-09'));
    expect(res.data.people.map((p) => p.lines)).toEqual([[line('2026-03-07', j2, 'Sealcoat', 0, 10, 0)]]);
  });

  it('defaults to this week in the workspace’s time zone', async () => {
    const start = weekStartOf(todayIn('America/New_York'), 'monday');
    const res = await ok(w.api.get('/v1/reports/labor-hours'));
    expect(res.data.start).toBe(start);
    const end = new Date(`${start}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 6);
    expect(res.data.end).toBe(end.toISOString().slice(0, 10));
    // One date alone makes a week with it.
    const fromStart = await ok(w.api.get('/v1/reports/labor-hours?start=2026-03-02'));
    expect([fromStart.data.start, fromStart.data.end]).toEqual(['2026-03-02', '2026-03-08']);
    const toEnd = await ok(w.api.get('/v1/reports/labor-hours?end=2026-03-08'));
    expect([toEnd.data.start, toEnd.data.end]).toEqual(['2026-03-02', '2026-03-08']);
  });

  it('93 days is the longest range; 94 days, an end before start and bad values are 400 with a clear body', async () => {
    expect((await w.api.get('/v1/reports/labor-hours?start=2026-01-01&end=2026-04-03')).status).toBe(200);
    const long = await w.api.get('/v1/reports/labor-hours?start=2026-01-01&end=2026-04-04');
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      error: 'The labor-hours range is at most 93 days',
      code: 'invalid_request',
      field: 'end',
      max_days: 93,
    });
    expect(long.body.message).toContain('94 days');
    const backwards = await w.api.get('/v1/reports/labor-hours?start=2026-03-09&end=2026-03-02');
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ error: 'end must not be before start', field: 'end' });
    const ancient = await w.api.get('/v1/reports/labor-hours?end=0001-01-07');
    expect(ancient.status).toBe(400);
    expect(ancient.body).toMatchObject({ error: 'end must be between 1900-01-01 and 9998-12-31', field: 'end' });
    for (const query of ['start=2026-02-30', 'end=March', 'approved_only=maybe', 'colour=red', 'start=9999-12-25']) {
      const res = await w.api.raw.get(`/v1/reports/labor-hours?${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(query.split('=')[0]!);
    }
  });

  it('403 without Approve payroll, with crew scheduling off, and for a key without read_jobs', async () => {
    const member = await t.user(w.firmId, { name: 'Mo Member', role: 'member' });
    const refused = await member.api.get('/v1/reports/labor-hours');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Payroll approver required', code: 'payroll_approver_required' });
    const writeOnly = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    const noRead = await t.as(writeOnly).get('/v1/reports/labor-hours');
    expect(noRead.status).toBe(403);
    expect(noRead.body.error).toBe('API key lacks job read permission');
    const off = await t.workspace();
    const disabled = await off.api.get('/v1/reports/labor-hours');
    expect(disabled.status).toBe(403);
    expect(disabled.body).toMatchObject({ error: 'Crew scheduling not enabled', code: 'crew_scheduling_disabled' });
  });

  it('another workspace sees none of this one’s time', async () => {
    const other = await scheduleWorkspace(t);
    const res = await ok(other.api.get('/v1/reports/labor-hours?start=2026-03-02&end=2026-03-09&approved_only=false'));
    expect(res.data.people).toEqual([]);
    expect(res.data.totals).toEqual({
      people: 0,
      regular_hours: 0,
      overtime_hours: 0,
      doubletime_hours: 0,
      total_hours: 0,
      pay: 0,
    });
  });
});
