// GET /v1/reports/kpi (docs/reports.md, "KPIs"): the REFERENCE TEST. A Chicago workspace (CDT,
// UTC-5 in May and June 2026; local midnight is 05:00 UTC), week_start monday. Every record is made
// through the API and its date then placed by hand (created_at, bid_at, decided_at, submitted_at,
// issued_at, paid_at cannot be set through it). "Edge" marks a record 30 minutes either side of a
// local midnight that starts or ends a period.
//
// Jobs (value = estimated_value; Sam is a salesperson; others are the owner's):
// | job | owner | value  | created (local)          | bid (local) | decided (local)          | stage |
// | J1  | owner | 10,000 | 06-05                    | 06-08       | 06-20                    | won   |
// | J2  | Sam   |  4,000 | 05-20                    | 05-25       | 06-30 23:30 (edge: June) | won   |
// | J3  | owner |  6,000 | 05-10                    | 05-12       | 06-10                    | lost  |
// | J4  | Sam   |  3,000 | 05-31 23:30 (edge: May)  | 06-03       | -                        | open  |
// | J5  | owner |  8,000 | 04-01                    | 04-15       | 05-15                    | won   |
// | J6  | owner |  2,000 | 04-10                    | 04-20       | 05-20                    | lost  |
// | J7  | Sam   |  9,000 | 07-01 00:30 (edge: July) | -           | 07-01 00:30 (edge: July) | won   |
// | J8  | Sam   |  1,500 | 06-01 00:30 (edge: June) | -           | -                        | open  |
// Leads (each intake also makes a job, created today, November 2026: outside every period here):
// L1 06-02 owner; L2 05-31 23:30 (edge: May) owner; L3 05-10 owner; L4 06-15 marked spam (never
// counted); L5 06-20 Sam.
// Invoices (amount with tax):
// | inv | job | amount | issued (local)           | paid (local)             | status |
// | I1  | J1  | 1,000  | 06-10                    | 06-20                    | paid   |
// | I2  | J2  | 2,000  | 05-31 23:30 (edge: May)  | 06-30 23:30 (edge: June) | paid   |
// | I3  | J5  |   500  | 05-05                    | -                        | sent   |
// | I4  | J5  |   300  | 06-15                    | -                        | draft  |
// | I5  | J1  |   700  | 06-25                    | -                        | void   |
// | I6  | J5  |   400  | 04-20                    | 05-10                    | paid   |
// Time entries (UTC; CDT = UTC-5):
// T1 Ann on J1 06-01 03:00Z-05:00Z = 05-31 22:00-24:00 local: May, 2 h (edge)
// T2 Ann on J1 06-01 05:00Z-13:30Z = 06-01 00:00-08:30 local: June, 8.5 h (edge: starts at midnight)
// T3 Ann shop  06-10 13:00Z-21:15Z: June, 8.25 h
// T4 Bo on J2  05-15 13:00Z-17:00Z: May, 4 h
// T5 Bo on J2  06-12 13:00Z-18:00Z, voided: never counted
// T6 Bo on J2  06-13 13:00Z, still on the clock (no clock_out): never counted
//
// MONTH, end 2026-06-30: June 1-30 against May 1-31.
// | KPI             | June                     | May                       | change  | change % |
// | new leads       | L1, L5 = 2               | L2, L3 = 2                | 0       | 0        |
// | new jobs        | J1, J8 = 2               | J2, J3, J4 = 3            | -1      | -0.3333  |
// | bids sent       | J1, J4 = 2               | J2, J3 = 2                | 0       | 0        |
// | jobs won        | J1, J2 = 2               | J5 = 1                    | 1       | 1        |
// | jobs lost       | J3 = 1                   | J6 = 1                    | 0       | 0        |
// | bid value       | 10,000 + 3,000 = 13,000  | 4,000 + 6,000 = 10,000    | 3,000   | 0.3      |
// | won value       | 10,000 + 4,000 = 14,000  | 8,000                     | 6,000   | 0.75     |
// | average won job | 14,000 / 2 = 7,000       | 8,000 / 1 = 8,000         | -1,000  | -0.125   |
// | invoiced        | I1 = 1,000               | I2 + I3 = 2,500           | -1,500  | -0.6     |
// | collected       | I1 + I2 = 3,000          | I6 = 400                  | 2,600   | 6.5      |
// | owed at end     | I3 = 500 (I2 paid 04:30Z | I2 + I3 = 2,500 (I2 issued| -2,000  | -0.8     |
// |                 | before 05:00Z)           | 04:30Z, before 05:00Z)    |         |          |
// | close rate      | 2 / 3 = 0.6667           | 1 / 2 = 0.5               | 0.1667  | 0.3333   |
// | labor hours     | 8.5 + 8.25 = 16.75       | 2 + 4 = 6                 | 10.75   | 1.7917   |
//
// WEEK, end 2026-06-03 (Wednesday): Monday 1 June to Sunday 7 June against 25 May to 31 May.
// new leads 1 (L1) / 1 (L2); new jobs 2 (J1, J8) / 1 (J4); bids 1 (J4, 3,000) / 1 (J2, 4,000);
// won 0 / 0 and close rate null / null; invoiced 0 / 2,000 (I2); collected 0 / 0;
// owed at 7 June's end 2,000 + 500 = 2,500 / at 31 May's end 2,500; hours 8.5 (T2) / 2 (T1).
//
// SAM (salesperson_ids=Sam), June against May: leads 1 (L5) / 0; new jobs 1 (J8) / 2 (J2, J4);
// bids 1 (J4, 3,000) / 1 (J2, 4,000); won 1 (J2, 4,000) / 0; lost 0 / 0; close rate 1 / null;
// invoiced 0 / 2,000 (I2); collected 2,000 (I2) / 0; owed 0 / 2,000; hours 0 / 4 (T4 on J2; Ann's
// shop time has no job, so no salesperson filter keeps it). Sam sees only his own jobs: his own run,
// with no filter, is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let sam: Awaited<ReturnType<TestApp['user']>>;
const jobs: Record<string, number> = {};

const db = () => t.database.db;
const at = (utc: string) => `${utc}.000000`;

async function job(
  name: string,
  o: { sam?: boolean; value: number; status?: string; created: string; bid?: string; decided?: string },
) {
  const made = await ok(
    w.api.post('/v1/jobs', {
      name,
      estimated_value: o.value,
      job_type: 'Paving',
      ...(o.sam ? { assigned_to_user_id: sam.id } : {}),
    }),
  );
  jobs[name] = made.data.id;
  if (o.status) await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status: o.status }));
  await db()
    .updateTable('jobs')
    .set({ created_at: at(o.created), bid_at: o.bid ? at(o.bid) : null, decided_at: o.decided ? at(o.decided) : null })
    .where('id', '=', made.data.id)
    .execute();
}

async function lead(name: string, submitted: string, o: { sam?: boolean; spam?: boolean } = {}) {
  const made = await ok(w.api.post('/v1/leads', { name, email: `${name.toLowerCase()}@example.test` }));
  const id = made.data.id;
  if (o.spam) await ok(w.api.post(`/v1/leads/${id}/dismiss`, { spam: true }));
  await db()
    .updateTable('leads')
    .set({ submitted_at: at(submitted), assigned_to_user_id: o.sam ? sam.id : w.ownerId })
    .where('id', '=', id)
    .execute();
}

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };

async function invoice(jobId: number, amount: number, issued: string, o: { paid?: string; status?: string } = {}) {
  const made = await ok(
    w.api.post('/v1/invoices', { job_id: jobId, line_items: [{ description: 'Work', amount }], ...REMIT }),
  );
  const id = made.data.id;
  if (o.status !== 'draft') await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
  if (o.status === 'void') await ok(w.api.post(`/v1/invoices/${id}/void`));
  if (o.paid) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
  await db()
    .updateTable('invoices')
    .set({ issued_at: at(issued), created_at: at(issued), ...(o.paid ? { paid_at: at(o.paid) } : {}) })
    .where('id', '=', id)
    .execute();
}

async function entry(userId: number, jobId: number | null, clockIn: string, clockOut: string) {
  const made = await ok(
    w.api.post('/v1/crew/time-entries', {
      user_id: userId,
      clock_in: `${clockIn}Z`,
      clock_out: `${clockOut}Z`,
      ...(jobId ? { job_id: jobId } : {}),
    }),
  );
  return made.data.id as number;
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    timezone: 'America/Chicago',
    job_types: ['Paving', 'Sealcoating'],
    settings: { ...OPERATIONS_SETTINGS, week_start: 'monday' },
  });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  await job('J1', {
    value: 10000,
    status: 'won',
    created: '2026-06-05T15:00:00',
    bid: '2026-06-08T15:00:00',
    decided: '2026-06-20T15:00:00',
  });
  await job('J2', {
    sam: true,
    value: 4000,
    status: 'won',
    created: '2026-05-20T15:00:00',
    bid: '2026-05-25T15:00:00',
    decided: '2026-07-01T04:30:00',
  });
  await job('J3', {
    value: 6000,
    status: 'lost',
    created: '2026-05-10T15:00:00',
    bid: '2026-05-12T15:00:00',
    decided: '2026-06-10T15:00:00',
  });
  await job('J4', { sam: true, value: 3000, created: '2026-06-01T04:30:00', bid: '2026-06-03T15:00:00' });
  await job('J5', {
    value: 8000,
    status: 'won',
    created: '2026-04-01T15:00:00',
    bid: '2026-04-15T15:00:00',
    decided: '2026-05-15T15:00:00',
  });
  await job('J6', {
    value: 2000,
    status: 'lost',
    created: '2026-04-10T15:00:00',
    bid: '2026-04-20T15:00:00',
    decided: '2026-05-20T15:00:00',
  });
  await job('J7', {
    sam: true,
    value: 9000,
    status: 'won',
    created: '2026-07-01T05:30:00',
    decided: '2026-07-01T05:30:00',
  });
  await job('J8', { sam: true, value: 1500, created: '2026-06-01T05:30:00' });
  await lead('Lana', '2026-06-02T15:00:00');
  await lead('Lou', '2026-06-01T04:30:00');
  await lead('Lee', '2026-05-10T15:00:00');
  await lead('Spammy', '2026-06-15T15:00:00', { spam: true });
  await lead('Lola', '2026-06-20T15:00:00', { sam: true });
  await invoice(jobs.J1!, 1000, '2026-06-10T15:00:00', { paid: '2026-06-20T15:00:00' });
  await invoice(jobs.J2!, 2000, '2026-06-01T04:30:00', { paid: '2026-07-01T04:30:00' });
  await invoice(jobs.J5!, 500, '2026-05-05T15:00:00');
  await invoice(jobs.J5!, 300, '2026-06-15T15:00:00', { status: 'draft' });
  await invoice(jobs.J1!, 700, '2026-06-25T15:00:00', { status: 'void' });
  await invoice(jobs.J5!, 400, '2026-04-20T15:00:00', { paid: '2026-05-10T15:00:00' });
  const ann = await t.user(w.firmId, { name: 'Ann Asphalt', email: 'ann@crew.test', role: 'crew' });
  const bo = await t.user(w.firmId, { name: 'Bo Broom', email: 'bo@crew.test', role: 'crew' });
  await entry(ann.id, jobs.J1!, '2026-06-01T03:00:00', '2026-06-01T05:00:00');
  await entry(ann.id, jobs.J1!, '2026-06-01T05:00:00', '2026-06-01T13:30:00');
  await entry(ann.id, null, '2026-06-10T13:00:00', '2026-06-10T21:15:00');
  await entry(bo.id, jobs.J2!, '2026-05-15T13:00:00', '2026-05-15T17:00:00');
  const voided = await entry(bo.id, jobs.J2!, '2026-06-12T13:00:00', '2026-06-12T18:00:00');
  await db()
    .updateTable('time_entries')
    .set({ voided_at: at('2026-06-12T20:00:00') })
    .where('id', '=', voided)
    .execute();
  const open = await entry(bo.id, jobs.J2!, '2026-06-13T13:00:00', '2026-06-13T18:00:00');
  await db().updateTable('time_entries').set({ clock_out: null }).where('id', '=', open).execute();
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => (await ok(api.get(`/v1/reports/kpi?${query}`))).data;

/** The tables' rows as {metric: [this, previous, change, change_pct]}. */
function figures(d: any): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of d.tables)
    for (const r of table.rows) out[r.metric] = [r.this_period, r.previous_period, r.change, r.change_pct];
  return out;
}

describe('GET /v1/reports/kpi', () => {
  it('a month against the month before: the reference figures', async () => {
    const d = await run('end=2026-06-30');
    expect(d).toMatchObject({
      key: 'kpi',
      section: 'Overview',
      date_basis: 'all',
      start: '2026-06-01',
      end: '2026-06-30',
    });
    expect(d.tables.map((x: any) => [x.key, x.columns.map((c: any) => c.kind).join(' ')])).toEqual([
      ['counts', 'text text int int int pct'],
      ['money', 'text text money money money pct'],
      ['rates', 'text text pct pct pct pct'],
      ['hours', 'text text number number number pct'],
    ]);
    expect(figures(d)).toEqual({
      new_leads: [2, 2, 0, 0],
      new_jobs: [2, 3, -1, -0.3333],
      bids_sent: [2, 2, 0, 0],
      jobs_won: [2, 1, 1, 1],
      jobs_lost: [1, 1, 0, 0],
      bid_value: [13000, 10000, 3000, 0.3],
      won_value: [14000, 8000, 6000, 0.75],
      average_won_job: [7000, 8000, -1000, -0.125],
      invoiced: [1000, 2500, -1500, -0.6],
      collected: [3000, 400, 2600, 6.5],
      owed_at_end: [500, 2500, -2000, -0.8],
      close_rate: [0.6667, 0.5, 0.1667, 0.3333],
      labor_hours: [16.75, 6, 10.75, 1.7917],
    });
    expect(d.summary).toEqual([
      { label: 'Month', value: '2026-06-01 to 2026-06-30' },
      { label: 'Compared with', value: '2026-05-01 to 2026-05-31' },
      { label: 'New jobs', value: '2' },
      { label: 'Won', value: '2 ($14,000.00)' },
      { label: 'Close rate', value: '66.67%' },
      { label: 'Invoiced', value: '$1,000.00' },
      { label: 'Collected', value: '$3,000.00' },
    ]);
    // Any date in the month is the same month.
    expect(figures(await run('end=2026-06-01'))).toEqual(figures(d));
  });

  it('a week (period=week) against the week before, across the 31 May / 1 June midnight', async () => {
    const d = await run('end=2026-06-03&period=week');
    expect(d).toMatchObject({ start: '2026-06-01', end: '2026-06-07' });
    expect(d.summary.slice(0, 2)).toEqual([
      { label: 'Week', value: '2026-06-01 to 2026-06-07' },
      { label: 'Compared with', value: '2026-05-25 to 2026-05-31' },
    ]);
    expect(figures(d)).toEqual({
      new_leads: [1, 1, 0, 0],
      new_jobs: [2, 1, 1, 1],
      bids_sent: [1, 1, 0, 0],
      jobs_won: [0, 0, 0, null],
      jobs_lost: [0, 0, 0, null],
      bid_value: [3000, 4000, -1000, -0.25],
      won_value: [0, 0, 0, null],
      average_won_job: [null, null, null, null],
      invoiced: [0, 2000, -2000, -1],
      collected: [0, 0, 0, null],
      owed_at_end: [2500, 2500, 0, 0],
      close_rate: [null, null, null, null],
      labor_hours: [8.5, 2, 6.5, 3.25],
    });
  });

  it('a salesperson filter narrows every figure through the job; a member who sees only their jobs gets the same', async () => {
    const expected = {
      new_leads: [1, 0, 1, null],
      new_jobs: [1, 2, -1, -0.5],
      bids_sent: [1, 1, 0, 0],
      jobs_won: [1, 0, 1, null],
      jobs_lost: [0, 0, 0, null],
      bid_value: [3000, 4000, -1000, -0.25],
      won_value: [4000, 0, 4000, null],
      average_won_job: [4000, null, null, null],
      invoiced: [0, 2000, -2000, -1],
      collected: [2000, 0, 2000, null],
      owed_at_end: [0, 2000, -2000, -1],
      close_rate: [1, null, null, null],
      labor_hours: [0, 4, -4, -1],
    };
    expect(figures(await run(`end=2026-06-30&salesperson_ids=${sam.id}`))).toEqual(expected);
    expect(figures(await run('end=2026-06-30', sam.api))).toEqual(expected);
  });

  it('refuses what it does not take: start, a bad period, a filter it does not use', async () => {
    for (const [query, error] of [
      ['start=2026-06-01&end=2026-06-30', 'The kpi report does not use start'],
      ['end=2026-06-30&outcomes=won', 'The kpi report does not use outcomes'],
    ]) {
      const res = await w.api.get(`/v1/reports/kpi?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
    expect((await w.api.get('/v1/reports/kpi?period=year')).status).toBe(400);
  });
});
