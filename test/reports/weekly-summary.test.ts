// GET /v1/reports/weekly-summary (docs/reports.md, "Weekly summary"), worked by hand. A Chicago
// workspace (CDT, UTC-5: local midnight is 05:00 UTC), weeks from Monday, operations on. The range
// 2026-06-03 (Wed) to 2026-06-16 (Tue) overlaps three weeks: W1 week of 1 June, clipped to 3-7 June;
// W2 8-14 June; W3 week of 15 June, clipped to 15-16 June. Records are made through the API, then
// their dates placed by hand.
//
// | job | owner | value | created (local)         | bid (local)            | decided (local)        | stage |
// | A   | owner | 100   | 2 Jun 23:30 (out)       | -                      | -                      | open  |
// | B   | owner | 200   | 3 Jun 00:30 (W1)        | -                      | -                      | open  |
// | C   | Sam   | 2,000 | 7 Jun 23:30 (W1)        | 8 Jun 00:30 (W2)       | 16 Jun 10:00 (W3)      | won   |
// | D   | owner | 3,000 | 10 Jun (W2)             | 10 Jun (W2)            | 12 Jun (W2)            | lost  |
// | E   | Sam   | 500   | 16 Jun 23:30 (W3)       | -                      | 17 Jun 00:30 (out)     | won   |
// | F   | owner | 7,000 | 20 May (out)            | 25 May (out)           | 9 Jun (W2)             | won   |
// Invoices: I1 on C 1,000 issued 4 Jun (W1), paid 14 Jun 23:30 (W2); I2 on D 400 issued 16 Jun (W3),
// unpaid; I3 on F 250 issued 2 Jun 23:30 (out), paid 16 Jun 23:30 (W3).
// Time: Ann on C 7 Jun 23:00 to 8 Jun 02:00 local, 3 h, W1 (its clock_in's day); Bo on D 8 Jun
// 00:00-01:30 local, 1.5 h, W2; Ann shop time 16 Jun 08:00-16:00, 8 h, W3.
//
// | week           | new jobs | bids (value)      | won (value) | lost | invoiced | collected | hours |
// | W1 06-03..06-07| 2 (B, C) | 0                 | 0           | 0    | 1,000    | 0         | 3     |
// | W2 06-08..06-14| 1 (D)    | 2 (C, D: 5,000)   | 1 (F 7,000) | 1    | 0        | 1,000     | 1.5   |
// | W3 06-15..06-16| 1 (E)    | 0                 | 1 (C 2,000) | 0    | 400      | 250       | 8     |
// | total          | 4        | 2 (5,000)         | 2 (9,000)   | 1    | 1,400    | 1,250     | 12.5  |
//
// salesperson_ids=Sam (C and E): W1 new 1 (C), invoiced 1,000, hours 3; W2 bids 1 (2,000), collected
// 1,000; W3 new 1 (E), won 1 (2,000); Ann's shop time has no job, so it is left out. Sam sees only
// his own jobs: his run with no filter is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let sam: Awaited<ReturnType<TestApp['user']>>;

const db = () => t.database.db;
const at = (utc: string) => `${utc}.000000`;

async function job(
  name: string,
  o: { sam?: boolean; value: number; status?: string; created: string; bid?: string; decided?: string },
) {
  const made = await ok(
    w.api.post('/v1/jobs', { name, estimated_value: o.value, ...(o.sam ? { assigned_to_user_id: sam.id } : {}) }),
  );
  if (o.status) await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status: o.status }));
  await db()
    .updateTable('jobs')
    .set({ created_at: at(o.created), bid_at: o.bid ? at(o.bid) : null, decided_at: o.decided ? at(o.decided) : null })
    .where('id', '=', made.data.id)
    .execute();
  return made.data.id as number;
}

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };
async function invoice(jobId: number, amount: number, issued: string, paid?: string) {
  const id = (
    await ok(w.api.post('/v1/invoices', { job_id: jobId, line_items: [{ description: 'Work', amount }], ...REMIT }))
  ).data.id;
  await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
  if (paid) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
  await db()
    .updateTable('invoices')
    .set({ issued_at: at(issued), created_at: at(issued), ...(paid ? { paid_at: at(paid) } : {}) })
    .where('id', '=', id)
    .execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { ...OPERATIONS_SETTINGS, week_start: 'monday' } });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  await job('A', { value: 100, created: '2026-06-03T04:30:00' });
  await job('B', { value: 200, created: '2026-06-03T05:30:00' });
  const c = await job('C', {
    sam: true,
    value: 2000,
    status: 'won',
    created: '2026-06-08T04:30:00',
    bid: '2026-06-08T05:30:00',
    decided: '2026-06-16T15:00:00',
  });
  const d = await job('D', {
    value: 3000,
    status: 'lost',
    created: '2026-06-10T15:00:00',
    bid: '2026-06-10T16:00:00',
    decided: '2026-06-12T15:00:00',
  });
  await job('E', {
    sam: true,
    value: 500,
    status: 'won',
    created: '2026-06-17T04:30:00',
    decided: '2026-06-17T05:30:00',
  });
  const f = await job('F', {
    value: 7000,
    status: 'won',
    created: '2026-05-20T15:00:00',
    bid: '2026-05-25T15:00:00',
    decided: '2026-06-09T15:00:00',
  });
  await invoice(c, 1000, '2026-06-04T15:00:00', '2026-06-15T04:30:00');
  await invoice(d, 400, '2026-06-16T15:00:00');
  await invoice(f, 250, '2026-06-03T04:30:00', '2026-06-17T04:30:00');
  const ann = await t.user(w.firmId, { name: 'Ann Asphalt', email: 'ann@crew.test', role: 'crew' });
  const bo = await t.user(w.firmId, { name: 'Bo Broom', email: 'bo@crew.test', role: 'crew' });
  for (const [user, jobId, clockIn, clockOut] of [
    [ann.id, c, '2026-06-08T04:00:00Z', '2026-06-08T07:00:00Z'],
    [bo.id, d, '2026-06-08T05:00:00Z', '2026-06-08T06:30:00Z'],
    [ann.id, null, '2026-06-16T13:00:00Z', '2026-06-16T21:00:00Z'],
  ] as const)
    await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: user,
        clock_in: clockIn,
        clock_out: clockOut,
        ...(jobId ? { job_id: jobId } : {}),
      }),
    );
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> =>
  (await ok(api.get(`/v1/reports/weekly-summary?${query}`))).data;
const RANGE = 'start=2026-06-03&end=2026-06-16';
const ZERO = {
  new_jobs: 0,
  bids_sent: 0,
  bid_value: 0,
  jobs_won: 0,
  won_value: 0,
  jobs_lost: 0,
  invoiced: 0,
  collected: 0,
  hours_worked: 0,
};
const week = (week_start: string, start: string, end: string, o: Partial<typeof ZERO> = {}) => ({
  week_start,
  start,
  end,
  ...ZERO,
  ...o,
});

describe('GET /v1/reports/weekly-summary', () => {
  it('one row per week the range overlaps, the first and last clipped; each figure in its local week', async () => {
    const d = await run(RANGE);
    expect(d).toMatchObject({
      key: 'weekly-summary',
      section: 'Overview',
      date_basis: 'all',
      start: '2026-06-03',
      end: '2026-06-16',
    });
    const [table] = d.tables;
    expect(table.rows).toEqual([
      week('2026-06-01', '2026-06-03', '2026-06-07', { new_jobs: 2, invoiced: 1000, hours_worked: 3 }),
      week('2026-06-08', '2026-06-08', '2026-06-14', {
        new_jobs: 1,
        bids_sent: 2,
        bid_value: 5000,
        jobs_won: 1,
        won_value: 7000,
        jobs_lost: 1,
        collected: 1000,
        hours_worked: 1.5,
      }),
      week('2026-06-15', '2026-06-15', '2026-06-16', {
        new_jobs: 1,
        jobs_won: 1,
        won_value: 2000,
        invoiced: 400,
        collected: 250,
        hours_worked: 8,
      }),
    ]);
    expect(table.total).toEqual({
      week_start: null,
      start: '2026-06-03',
      end: '2026-06-16',
      new_jobs: 4,
      bids_sent: 2,
      bid_value: 5000,
      jobs_won: 2,
      won_value: 9000,
      jobs_lost: 1,
      invoiced: 1400,
      collected: 1250,
      hours_worked: 12.5,
    });
    expect(d.summary).toEqual([
      { label: 'Weeks', value: '3' },
      { label: 'New jobs', value: '4' },
      { label: 'Bids sent', value: '2 ($5,000.00)' },
      { label: 'Won', value: '2 ($9,000.00)' },
      { label: 'Invoiced', value: '$1,400.00' },
      { label: 'Collected', value: '$1,250.00' },
      { label: 'Hours worked', value: '12.5' },
    ]);
  });

  it('a range inside one week is one clipped row', async () => {
    const d = await run('start=2026-06-09&end=2026-06-10');
    expect(d.tables[0].rows).toEqual([
      week('2026-06-08', '2026-06-09', '2026-06-10', {
        new_jobs: 1,
        bids_sent: 1,
        bid_value: 3000,
        jobs_won: 1,
        won_value: 7000,
      }),
    ]);
  });

  it('a salesperson filter keeps what hangs on their jobs; a member who sees only their jobs gets the same', async () => {
    const expected = [
      week('2026-06-01', '2026-06-03', '2026-06-07', { new_jobs: 1, invoiced: 1000, hours_worked: 3 }),
      week('2026-06-08', '2026-06-08', '2026-06-14', { bids_sent: 1, bid_value: 2000, collected: 1000 }),
      week('2026-06-15', '2026-06-15', '2026-06-16', { new_jobs: 1, jobs_won: 1, won_value: 2000 }),
    ];
    expect((await run(`${RANGE}&salesperson_ids=${sam.id}`)).tables[0].rows).toEqual(expected);
    expect((await run(RANGE, sam.api)).tables[0].rows).toEqual(expected);
  });

  it('refuses parameters it does not use and a range of more than 157 weeks', async () => {
    const unused = await w.api.get(`/v1/reports/weekly-summary?${RANGE}&date_basis=bid`);
    expect(unused.status).toBe(400);
    expect(unused.body.error).toBe('The weekly-summary report does not use date_basis');
    const long = await w.api.get('/v1/reports/weekly-summary?start=2020-01-01&end=2026-06-30');
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('The weekly summary covers at most 157 weeks');
  });
});
