// GET /v1/reports/cash-forecast (docs/reports.md, "Cash forecast"), worked by hand. A Chicago
// workspace, weeks from Monday, operations on. end 2026-06-03 (Wednesday): the first week is 1-7 June
// and "now" is its end (local midnight of 8 June, 05:00 UTC). weeks=4: W0 1 Jun, W1 8 Jun, W2 15 Jun,
// W3 22 Jun; the horizon ends 28 June (29 June is after it).
//
// Jobs: X (owner, won, 10,000), Y (Sam, won, 4,000), Z (owner, won, 3,000), Q (owner, open, 5,000).
// Invoices (all issued 1 May, so open "now" unless paid; due dates set by hand):
// | inv | job | amount | due        | state       | counted                                 |
// | I1  | X   | 1,000  | 2026-05-20 | sent        | past due: W0, past_due column           |
// | I2  | X   |   500  | 2026-06-05 | sent        | W0 invoices_due                         |
// | I3  | Y   |   300  | 2026-06-16 | sent        | W2                                      |
// | I4  | X   |   700  | 2026-06-29 | sent        | after the horizon: not shown            |
// | I5  | X   |   200  | 2026-06-28 | sent        | W3 (the horizon's last day)             |
// | I6  | X   |   400  | 2026-06-10 | paid 2 Jun  | not open                                |
// | I7  | X   |   900  | 2026-06-10 | draft       | never                                   |
// Work (work_order_days, not holds, work orders not cancelled):
// X: 9-10 Jun and 17 Jun: last day 17 Jun, W2; invoiced 1,000 + 500 + 700 + 200 + 400 = 2,800 (not the
//    draft): remaining 10,000 - 2,800 = 7,200 in W2.
// Y: 4 Jun (a cancelled work order on 25 Jun does not count): W0; invoiced 300: remaining 3,700.
// Z: 6 Jul, after the horizon: not shown. Q: 5 Jun but not won: not shown.
//
// | week | past due | invoices due | scheduled | total | running |
// | W0   | 1,000    | 500          | 3,700     | 5,200 | 5,200   |
// | W1   | 0        | 0            | 0         | 0     | 5,200   |
// | W2   | 0        | 300          | 7,200     | 7,500 | 12,700  |
// | W3   | 0        | 200          | 0         | 200   | 12,900  |
// | all  | 1,000    | 1,000        | 10,900    | 12,900|         |
// salesperson_ids=Sam (Y): W0 scheduled 3,700; W2 due 300: running 3,700, 3,700, 4,000, 4,000. Sam sees
// only his own jobs: his run with no filter is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let sam: Awaited<ReturnType<TestApp['user']>>;

const db = () => t.database.db;

async function job(name: string, value: number, status: string, forSam = false) {
  const made = await ok(
    w.api.post('/v1/jobs', { name, estimated_value: value, ...(forSam ? { assigned_to_user_id: sam.id } : {}) }),
  );
  if (status !== 'open') await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status }));
  return made.data.id as number;
}

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };
async function invoice(jobId: number, amount: number, due: string, o: { paid?: string; draft?: boolean } = {}) {
  const id = (
    await ok(w.api.post('/v1/invoices', { job_id: jobId, line_items: [{ description: 'Work', amount }], ...REMIT }))
  ).data.id;
  if (!o.draft) await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
  if (o.paid) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
  await db()
    .updateTable('invoices')
    .set({
      due_date: due,
      issued_at: '2026-05-01T15:00:00.000000',
      created_at: '2026-05-01T15:00:00.000000',
      ...(o.paid ? { paid_at: o.paid } : {}),
    })
    .where('id', '=', id)
    .execute();
}

async function work(jobId: number, date: string, days = 1, cancel = false) {
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
  if (cancel) await ok(w.api.post(`/v1/work-orders/${wo.id}/cancel`, {}));
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { ...OPERATIONS_SETTINGS, week_start: 'monday' } });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const x = await job('X', 10000, 'won');
  const y = await job('Y', 4000, 'won', true);
  const z = await job('Z', 3000, 'won');
  const q = await job('Q', 5000, 'open');
  await invoice(x, 1000, '2026-05-20');
  await invoice(x, 500, '2026-06-05');
  await invoice(y, 300, '2026-06-16');
  await invoice(x, 700, '2026-06-29');
  await invoice(x, 200, '2026-06-28');
  await invoice(x, 400, '2026-06-10', { paid: '2026-06-02T15:00:00.000000' });
  await invoice(x, 900, '2026-06-10', { draft: true });
  await work(x, '2026-06-09', 2);
  await work(x, '2026-06-17');
  await work(y, '2026-06-04');
  await work(y, '2026-06-25', 1, true);
  await work(z, '2026-07-06');
  await work(q, '2026-06-05');
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> =>
  (await ok(api.get(`/v1/reports/cash-forecast?${query}`))).data;
const week = (
  week_start: string,
  past_due: number,
  invoices_due: number,
  scheduled_work: number,
  running_total: number,
) => ({
  week_start,
  past_due,
  invoices_due,
  scheduled_work,
  total: past_due + invoices_due + scheduled_work,
  running_total,
});

describe('GET /v1/reports/cash-forecast', () => {
  it('open invoices by due week (past due in the first) and won work not invoiced in the week it finishes', async () => {
    const d = await run('end=2026-06-03&weeks=4');
    expect(d).toMatchObject({
      key: 'cash-forecast',
      section: 'Financial',
      date_basis: 'all',
      start: '2026-06-01',
      end: '2026-06-07',
    });
    const [table] = d.tables;
    expect(table.rows).toEqual([
      week('2026-06-01', 1000, 500, 3700, 5200),
      week('2026-06-08', 0, 0, 0, 5200),
      week('2026-06-15', 0, 300, 7200, 12700),
      week('2026-06-22', 0, 200, 0, 12900),
    ]);
    expect(table.total).toEqual({
      week_start: null,
      past_due: 1000,
      invoices_due: 1000,
      scheduled_work: 10900,
      total: 12900,
      running_total: null,
    });
    expect(d.summary).toEqual([
      { label: 'Weeks', value: '4 from 2026-06-01 to 2026-06-28' },
      { label: 'Past due invoices', value: '$1,000.00' },
      { label: 'Invoices due', value: '$1,000.00' },
      { label: 'Scheduled work not invoiced', value: '$10,900.00' },
      { label: 'Total expected', value: '$12,900.00' },
    ]);
  });

  it('default 12 weeks; 8 weeks reach the 29 June invoice and Z’s July work', async () => {
    const twelve = await run('end=2026-06-03');
    expect(twelve.tables[0].rows).toHaveLength(12);
    const eight = (await run('end=2026-06-03&weeks=8')).tables[0];
    expect(eight.rows).toHaveLength(8);
    // I4 (700) due Monday 29 June: W4; Z's 3,000 on Monday 6 July: W5.
    expect(eight.rows[4]).toEqual(week('2026-06-29', 0, 700, 0, 13600));
    expect(eight.rows[5]).toEqual(week('2026-07-06', 0, 0, 3000, 16600));
  });

  it('a salesperson filter keeps their jobs; a member who sees only their jobs gets the same', async () => {
    const expected = [
      week('2026-06-01', 0, 0, 3700, 3700),
      week('2026-06-08', 0, 0, 0, 3700),
      week('2026-06-15', 0, 300, 0, 4000),
      week('2026-06-22', 0, 0, 0, 4000),
    ];
    expect((await run(`end=2026-06-03&weeks=4&salesperson_ids=${sam.id}`)).tables[0].rows).toEqual(expected);
    expect((await run('end=2026-06-03&weeks=4', sam.api)).tables[0].rows).toEqual(expected);
  });

  it('refuses a number of weeks it does not offer, start, and filters it does not use', async () => {
    for (const [query, error] of [
      ['end=2026-06-03&weeks=5', 'weeks must be one of 4, 8, 12, 26'],
      ['start=2026-06-01&end=2026-06-03', 'The cash-forecast report does not use start'],
      ['end=2026-06-03&work_types=Paving', 'The cash-forecast report does not use work_types'],
    ]) {
      const res = await w.api.get(`/v1/reports/cash-forecast?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});
