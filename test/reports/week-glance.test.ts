// GET /v1/reports/week-glance (docs/reports.md, "Week at a glance"), worked by hand. A Chicago
// workspace (CDT, UTC-5: local midnight is 05:00 UTC), weeks from Monday, operations on. end
// 2026-06-03 (Wednesday) covers Monday 1 June to Sunday 7 June. Records are made through the API,
// then the instants the API stamps with "now" are placed by hand.
//
// Jobs: J1 (owner, 10,000, won, decided Wed 3 Jun 10:00), J2 (Sam, 4,000, won, decided 8 Jun 04:30
// UTC = Sun 7 Jun 23:30 local: Sunday), J3 (owner, 900, won, decided 8 Jun 05:30 UTC = Mon 8 Jun
// 00:30 local: next week, out).
// Work orders (work_order_days are plain dates):
// W1 on J1 from Mon 1 Jun, 3 days: Mon, Tue, Wed. W2 on J2 Wed 3 Jun, 1 day, completed 4 Jun 04:30
// UTC = Wed 3 Jun 23:30 local: Wednesday. W3 on J1 Fri 5 Jun, cancelled: no crew-day. W4 on J1 from
// Sun 31 May, 2 days: Sun 31 May (out) and Mon 1 Jun; completed 1 Jun 04:30 UTC = Sun 31 May 23:30:
// not this week. A hold on J1 Thu 4 Jun: not a crew-day.
// Time (Ann): on J1 1 Jun 05:00-13:00 UTC = Mon 00:00-08:00: Monday 8 h; on J2 8 Jun 04:00-06:00
// UTC = Sun 23:00 to Mon 01:00: Sunday 2 h (its clock_in's day); on J1 1 Jun 03:00-04:00 UTC = Sun
// 31 May: out.
// Proposals (each on a job of its own, the owner's): P1 sent Tue 2 Jun 10:00; P2 sent 1 Jun 04:30
// UTC = Sun 31 May 23:30: out.
// Invoices: I1 on J1 1,000 issued Tue 2 Jun, paid Fri 5 Jun; I2 on J2 500 issued 1 Jun 04:30 UTC
// (Sun 31 May: out), paid 8 Jun 04:30 UTC (Sun 7 Jun 23:30: Sunday); I3 on J1 300 draft, Tue: never.
//
// | day | crew-days  | completed | hours | proposals | won (value)   | invoiced | collected |
// | Mon | 2 (W1, W4) | 0         | 8     | 0         | 0             | 0        | 0         |
// | Tue | 1 (W1)     | 0         | 0     | 1 (P1)    | 0             | 1,000    | 0         |
// | Wed | 2 (W1, W2) | 1 (W2)    | 0     | 0         | 1 (J1 10,000) | 0        | 0         |
// | Thu | 0          | 0         | 0     | 0         | 0             | 0        | 0         |
// | Fri | 0          | 0         | 0     | 0         | 0             | 0        | 1,000     |
// | Sat | 0          | 0         | 0     | 0         | 0             | 0        | 0         |
// | Sun | 0          | 0         | 2     | 0         | 1 (J2 4,000)  | 0        | 500       |
// | all | 5          | 1         | 10    | 1         | 2 (14,000)    | 1,000    | 1,500     |
//
// salesperson_ids=Sam (J2 only): Wed crew-day 1 and completed 1; Sun hours 2, won 1 (4,000),
// collected 500. Sam sees only his own jobs: his run with no filter is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

let t: TestApp;
let w: Workspace;
let sam: Awaited<ReturnType<TestApp['user']>>;

const db = () => t.database.db;
const at = (utc: string) => `${utc}.000000`;

async function job(name: string, o: { sam?: boolean; value: number; decided: string }) {
  const made = await ok(
    w.api.post('/v1/jobs', { name, estimated_value: o.value, ...(o.sam ? { assigned_to_user_id: sam.id } : {}) }),
  );
  await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status: 'won' }));
  await db()
    .updateTable('jobs')
    .set({ decided_at: at(o.decided) })
    .where('id', '=', made.data.id)
    .execute();
  return made.data.id as number;
}

async function workOrder(jobId: number, date: string, days: number, o: { completed?: string; cancel?: boolean } = {}) {
  const wo = (
    await ok(
      w.api.post('/v1/work-orders', {
        job_id: jobId,
        title: `Work ${date}`,
        scheduled_date: date,
        estimated_days: days,
      }),
    )
  ).data;
  if (o.completed) {
    await ok(w.api.post(`/v1/work-orders/${wo.id}/complete`, {}));
    await db()
      .updateTable('work_orders')
      .set({ completed_at: at(o.completed) })
      .where('id', '=', wo.id)
      .execute();
  }
  if (o.cancel) await ok(w.api.post(`/v1/work-orders/${wo.id}/cancel`, {}));
}

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };
async function invoice(jobId: number, amount: number, issued: string, o: { paid?: string; draft?: boolean } = {}) {
  const id = (
    await ok(w.api.post('/v1/invoices', { job_id: jobId, line_items: [{ description: 'Work', amount }], ...REMIT }))
  ).data.id;
  if (!o.draft) await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
  if (o.paid) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
  await db()
    .updateTable('invoices')
    .set({ issued_at: at(issued), created_at: at(issued), ...(o.paid ? { paid_at: at(o.paid) } : {}) })
    .where('id', '=', id)
    .execute();
}

async function proposalSent(sent: string) {
  const made = await proposalOnJob(w);
  await db()
    .updateTable('proposals')
    .set({ sent_at: at(sent) })
    .where('id', '=', made.proposal.id)
    .execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { ...OPERATIONS_SETTINGS, week_start: 'monday' } });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const j1 = await job('J1', { value: 10000, decided: '2026-06-03T15:00:00' });
  const j2 = await job('J2', { sam: true, value: 4000, decided: '2026-06-08T04:30:00' });
  await job('J3', { value: 900, decided: '2026-06-08T05:30:00' });
  await workOrder(j1, '2026-06-01', 3);
  await workOrder(j2, '2026-06-03', 1, { completed: '2026-06-04T04:30:00' });
  await workOrder(j1, '2026-06-05', 1, { cancel: true });
  await workOrder(j1, '2026-05-31', 2, { completed: '2026-06-01T04:30:00' });
  await ok(w.api.post('/v1/schedule/holds', { job_id: j1, scheduled_date: '2026-06-04' }));
  const ann = await t.user(w.firmId, { name: 'Ann Asphalt', email: 'ann@crew.test', role: 'crew' });
  for (const [jobId, clockIn, clockOut] of [
    [j1, '2026-06-01T05:00:00Z', '2026-06-01T13:00:00Z'],
    [j2, '2026-06-08T04:00:00Z', '2026-06-08T06:00:00Z'],
    [j1, '2026-06-01T03:00:00Z', '2026-06-01T04:00:00Z'],
  ] as const)
    await ok(
      w.api.post('/v1/crew/time-entries', { user_id: ann.id, job_id: jobId, clock_in: clockIn, clock_out: clockOut }),
    );
  await proposalSent('2026-06-02T15:00:00');
  await proposalSent('2026-06-01T04:30:00');
  await invoice(j1, 1000, '2026-06-02T15:00:00', { paid: '2026-06-05T15:00:00' });
  await invoice(j2, 500, '2026-06-01T04:30:00', { paid: '2026-06-08T04:30:00' });
  await invoice(j1, 300, '2026-06-02T15:00:00', { draft: true });
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> =>
  (await ok(api.get(`/v1/reports/week-glance?${query}`))).data;

const ZERO = {
  crew_days: 0,
  work_orders_completed: 0,
  hours_worked: 0,
  proposals_sent: 0,
  jobs_won: 0,
  won_value: 0,
  invoiced: 0,
  collected: 0,
};
const day = (date: string, name: string, o: Partial<typeof ZERO> = {}) => ({ date, day: name, ...ZERO, ...o });

describe('GET /v1/reports/week-glance', () => {
  it('one row per local day of the week holding end, with a total row', async () => {
    const d = await run('end=2026-06-03');
    expect(d).toMatchObject({
      key: 'week-glance',
      section: 'Operations',
      date_basis: 'all',
      start: '2026-06-01',
      end: '2026-06-07',
    });
    const [table] = d.tables;
    expect(table.rows).toEqual([
      day('2026-06-01', 'Mon', { crew_days: 2, hours_worked: 8 }),
      day('2026-06-02', 'Tue', { crew_days: 1, proposals_sent: 1, invoiced: 1000 }),
      day('2026-06-03', 'Wed', { crew_days: 2, work_orders_completed: 1, jobs_won: 1, won_value: 10000 }),
      day('2026-06-04', 'Thu'),
      day('2026-06-05', 'Fri', { collected: 1000 }),
      day('2026-06-06', 'Sat'),
      day('2026-06-07', 'Sun', { hours_worked: 2, jobs_won: 1, won_value: 4000, collected: 500 }),
    ]);
    expect(table.total).toEqual({
      date: null,
      day: 'Total',
      crew_days: 5,
      work_orders_completed: 1,
      hours_worked: 10,
      proposals_sent: 1,
      jobs_won: 2,
      won_value: 14000,
      invoiced: 1000,
      collected: 1500,
    });
    expect(d.summary).toEqual([
      { label: 'Week', value: '2026-06-01 to 2026-06-07' },
      { label: 'Crew-days scheduled', value: '5' },
      { label: 'Hours worked', value: '10' },
      { label: 'Jobs won', value: '2 ($14,000.00)' },
      { label: 'Invoiced', value: '$1,000.00' },
      { label: 'Collected', value: '$1,500.00' },
    ]);
  });

  it('a salesperson filter keeps what hangs on their jobs; a member who sees only their jobs gets the same', async () => {
    const expected = [
      day('2026-06-01', 'Mon'),
      day('2026-06-02', 'Tue'),
      day('2026-06-03', 'Wed', { crew_days: 1, work_orders_completed: 1 }),
      day('2026-06-04', 'Thu'),
      day('2026-06-05', 'Fri'),
      day('2026-06-06', 'Sat'),
      day('2026-06-07', 'Sun', { hours_worked: 2, jobs_won: 1, won_value: 4000, collected: 500 }),
    ];
    expect((await run(`end=2026-06-03&salesperson_ids=${sam.id}`)).tables[0].rows).toEqual(expected);
    expect((await run('end=2026-06-03', sam.api)).tables[0].rows).toEqual(expected);
  });

  it('refuses start and parameters it does not use', async () => {
    for (const [query, error] of [
      ['start=2026-06-01&end=2026-06-07', 'The week-glance report does not use start'],
      ['end=2026-06-03&weeks=4', 'The week-glance report does not use weeks'],
    ]) {
      const res = await w.api.get(`/v1/reports/week-glance?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});
