// GET /v1/reports/resource-utilization (docs/reports.md, "Resource utilization"), worked by hand. A
// Chicago workspace (CDT, UTC-5 in June), range Monday 1 June to Sunday 14 June 2026: 10 working
// days (Monday to Friday).
//
// | crew            | work orders (job, days)                                 | dates counted               |
// | Alpha           | WO1 (J1, 1-3 Jun, completed); WO2 (J2, 3 Jun);          | 1, 2, 3, 13 Jun: 4 days     |
// |                 | WO3 (J2, Sat 13 Jun); WO4 (J1, 8-9 Jun, cancelled: out) | WO1..WO3: 3; completed 3    |
// | Bravo           | WO5 (J3 paving division, 10-11 Jun)                     | 10, 11 Jun: 2 days; 1 WO    |
// | Idle            | none                                                    | 0                           |
// | Retired (off)   | none: not listed                                        |                             |
//
// Hours (clock_in's local date in the range; the crew's members or foreman on the crew's work):
//   Alpha foreman WO1 1 Jun 08:00-16:00 CDT             8
//   Alpha member  WO1 1 Jun 08:00-12:30                 4.5
//   Alpha foreman WO3 14 Jun 23:30 CDT (15 Jun UTC) 2h  2   (in: local 14 June)
//   Alpha foreman WO2 31 May 23:30 CDT (1 Jun UTC) 1h   out (local 31 May)
//   outsider (not on Alpha) on WO1 3h                   out
//   Alpha member void entry on WO1 5h                   out
//   Bravo foreman WO5 10 Jun 6h                         6
// Alpha 14.5 h, Bravo 6 h. Utilization: Alpha 4/10 = 40%, Bravo 2/10 = 20%, Idle 0.
// Total: working days 30, scheduled 6, 6/30 = 20%, work orders 4, hours 20.5, completed 3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
const jobs: Record<string, number> = {};

async function crew(name: string, memberIds: number[] = []) {
  const foreman = await t.user(w.firmId, { name: `${name} Foreman`, email: `${name}@crew.test`, role: 'crew' });
  const made = (
    await ok(
      w.api.post('/v1/crews', {
        name,
        foreman_user_id: foreman.id,
        ...(memberIds.length ? { member_user_ids: memberIds } : {}),
      }),
    )
  ).data;
  return { id: made.id as number, foreman };
}

async function workOrder(jobId: number, crewId: number, date: string, days = 1) {
  return (
    await ok(
      w.api.post('/v1/work-orders', {
        job_id: jobId,
        title: 'Work',
        crew_id: crewId,
        scheduled_date: date,
        estimated_days: days,
      }),
    )
  ).data.id as number;
}

const entry = async (userId: number, woId: number, clockIn: string, clockOut: string) =>
  (
    await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: userId,
        work_order_id: woId,
        clock_in: clockIn,
        clock_out: clockOut,
      }),
    )
  ).data.id as number;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    timezone: 'America/Chicago',
    settings: OPERATIONS_SETTINGS,
    divisions: [
      { key: 'paving', name: 'Paving' },
      { key: 'seal', name: 'Sealcoating' },
    ],
  });
  for (const n of ['J1', 'J2', 'J3'])
    jobs[n] = (await ok(w.api.post('/v1/jobs', { name: n, address: '1 Main St, Springfield' }))).data.id;
  await t.database.db.updateTable('jobs').set({ operations_division: 'paving' }).where('id', '=', jobs.J3).execute();
  const member = await t.user(w.firmId, { name: 'Alpha Member', email: 'am@crew.test', role: 'crew' });
  const outsider = await t.user(w.firmId, { name: 'Out Sider', email: 'out@crew.test', role: 'crew' });
  const alpha = await crew('Alpha', [member.id]);
  const bravo = await crew('Bravo');
  await crew('Idle');
  const retired = await crew('Retired');
  await ok(w.api.patch(`/v1/crews/${retired.id}`, { active: false }));

  const wo1 = await workOrder(jobs.J1, alpha.id, '2026-06-01', 3);
  const wo2 = await workOrder(jobs.J2, alpha.id, '2026-06-03');
  const wo3 = await workOrder(jobs.J2, alpha.id, '2026-06-13');
  const wo4 = await workOrder(jobs.J1, alpha.id, '2026-06-08', 2);
  const wo5 = await workOrder(jobs.J3, bravo.id, '2026-06-10', 2);
  await ok(w.api.post(`/v1/work-orders/${wo1}/complete`, {}));
  await ok(w.api.post(`/v1/work-orders/${wo4}/cancel`, {}));

  await entry(alpha.foreman.id, wo1, '2026-06-01T13:00:00Z', '2026-06-01T21:00:00Z');
  await entry(member.id, wo1, '2026-06-01T13:00:00Z', '2026-06-01T17:30:00Z');
  await entry(alpha.foreman.id, wo3, '2026-06-15T04:30:00Z', '2026-06-15T06:30:00Z');
  await entry(alpha.foreman.id, wo2, '2026-06-01T04:30:00Z', '2026-06-01T05:30:00Z');
  await entry(outsider.id, wo1, '2026-06-02T13:00:00Z', '2026-06-02T16:00:00Z');
  const voided = await entry(member.id, wo1, '2026-06-02T13:00:00Z', '2026-06-02T18:00:00Z');
  await t.database.db
    .updateTable('time_entries')
    .set({ voided_at: '2026-06-03T00:00:00.000000' })
    .where('id', '=', voided)
    .execute();
  await entry(bravo.foreman.id, wo5, '2026-06-10T14:00:00Z', '2026-06-10T20:00:00Z');
});
afterAll(() => t.close());

const RANGE = 'start=2026-06-01&end=2026-06-14';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/resource-utilization?${query}`));

describe('GET /v1/reports/resource-utilization', () => {
  it('counts each crew’s scheduled days, work orders, hours and completed crew-days', async () => {
    const d = (await run(RANGE)).data;
    expect(d).toMatchObject({ key: 'resource-utilization', section: 'Operations', date_basis: 'all' });
    const table = d.tables[0];
    expect(table.rows).toEqual([
      {
        crew: 'Alpha',
        active: 'yes',
        working_days: 10,
        days_scheduled: 4,
        utilization: 0.4,
        work_orders: 3,
        hours: 14.5,
        crew_days_completed: 3,
      },
      {
        crew: 'Bravo',
        active: 'yes',
        working_days: 10,
        days_scheduled: 2,
        utilization: 0.2,
        work_orders: 1,
        hours: 6,
        crew_days_completed: 0,
      },
      {
        crew: 'Idle',
        active: 'yes',
        working_days: 10,
        days_scheduled: 0,
        utilization: 0,
        work_orders: 0,
        hours: 0,
        crew_days_completed: 0,
      },
    ]);
    expect(table.total).toEqual({
      crew: 'Total',
      active: null,
      working_days: 30,
      days_scheduled: 6,
      utilization: 0.2,
      work_orders: 4,
      hours: 20.5,
      crew_days_completed: 3,
    });
    expect(d.summary).toEqual([
      { label: 'Crews', value: '3' },
      { label: 'Working days', value: '10' },
      { label: 'Crew-days scheduled', value: '6' },
      { label: 'Utilization', value: '20%' },
      { label: 'Idle crews', value: '1' },
      { label: 'Hours worked', value: '20.5' },
    ]);
  });

  it('local-midnight edges: a range ending 13 June loses the 14 June entry, a range from 31 May gains its 1 hour', async () => {
    // 1-13 June: working days 10; Alpha's 23:30 CDT entry on 14 June is out: 12.5 h.
    const to13 = (await run('start=2026-06-01&end=2026-06-13')).data.tables[0];
    expect(to13.rows[0]).toMatchObject({ crew: 'Alpha', days_scheduled: 4, hours: 12.5 });
    // 31 May - 14 June: 31 May is a Sunday (no working day); WO2's entry clocked in 31 May 23:30 CDT counts: 15.5 h.
    const from31 = (await run('start=2026-05-31&end=2026-06-14')).data.tables[0];
    expect(from31.rows[0]).toMatchObject({ crew: 'Alpha', working_days: 10, hours: 15.5 });
  });

  it('division_ids keeps work on jobs of those divisions; every crew still shows', async () => {
    const paving = (await run(`${RANGE}&division_ids=paving`)).data.tables[0];
    expect(paving.rows.map((r: any) => [r.crew, r.days_scheduled, r.hours])).toEqual([
      ['Alpha', 0, 0],
      ['Bravo', 2, 6],
      ['Idle', 0, 0],
    ]);
    const bad = await w.api.get(`/v1/reports/resource-utilization?${RANGE}&division_ids=mowing`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown division_ids: mowing');
    const unused = await w.api.get(`/v1/reports/resource-utilization?${RANGE}&salesperson_ids=1`);
    expect(unused.status).toBe(400);
    expect(unused.body.error).toBe('The resource-utilization report does not use salesperson_ids');
  });

  it('a member who sees only their own jobs counts only the work on those', async () => {
    const own = await t.user(w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    await ok(w.api.patch(`/v1/jobs/${jobs.J3}`, { assigned_to_user_id: own.id }));
    const d = (await ok(own.api.get(`/v1/reports/resource-utilization?${RANGE}`))).data;
    expect(d.tables[0].rows.map((r: any) => [r.crew, r.days_scheduled, r.hours])).toEqual([
      ['Alpha', 0, 0],
      ['Bravo', 2, 6],
      ['Idle', 0, 0],
    ]);
  });
});
