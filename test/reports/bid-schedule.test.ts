// GET /v1/reports/bid-schedule (docs/reports.md, "Bid schedule"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in summer); bid due dates are job details, the proposal-sent instants
// (bid_at) are placed by hand:
//
// | job | salesperson | estimator | stage  | value  | bid due    | proposal sent (local)       |
// | G   | owner       | -         | active |  4,000 | 2026-06-01 | -                   (open)  |
// | A   | owner       | -         | active | 10,000 | 2026-06-05 | 2026-06-03          (sent)  |
// | B   | Sam         | Sam       | active |  5,000 | 2026-06-12 | -                   (open)  |
// | C   | owner       | -         | lost   |  3,000 | 2026-06-20 | -                   (neither)|
// | D   | owner       | -         | won    |  8,000 | 2026-06-30 | 2026-06-30 23:30 (sent)     |
// | E   | owner       | -         | active |  2,000 | 2026-07-01 | out of the range            |
// | F   | owner       | -         | active |  1,000 | none       | never listed                |
//
// June: 5 bids due worth 4,000 + 10,000 + 5,000 + 3,000 + 8,000 = 30,000; sent A and D (2); still
// open G and B (2). D's proposal went at 1 July 04:30 UTC, which is 30 June in Chicago.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysBetween } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { salesJob } from '#test/helpers/scenarios/sales-jobs.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const due = (bid_due_date: string) => ({ bid_due_date });
  const at = (utc: string) => `${utc}.000000`;
  ids.G = await salesJob(t, w, 'G', { status: 'active', value: 4000, details: due('2026-06-01') });
  ids.A = await salesJob(t, w, 'A', {
    status: 'active',
    value: 10000,
    details: due('2026-06-05'),
    bid: at('2026-06-03T14:00:00'),
  });
  ids.B = await salesJob(t, w, 'B', { owner: sam.id, status: 'active', value: 5000, details: due('2026-06-12') });
  ids.C = await salesJob(t, w, 'C', { status: 'lost', value: 3000, details: due('2026-06-20') });
  ids.D = await salesJob(t, w, 'D', {
    status: 'won',
    value: 8000,
    details: due('2026-06-30'),
    bid: at('2026-07-01T04:30:00'),
  });
  ids.E = await salesJob(t, w, 'E', { status: 'active', value: 2000, details: due('2026-07-01') });
  ids.F = await salesJob(t, w, 'F', { status: 'active', value: 1000 });
  // Sam estimates B: he is its estimator.
  await ok(sam.api.post('/v1/estimates', { job_id: ids.B }));
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/bid-schedule?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';

describe('GET /v1/reports/bid-schedule', () => {
  it('lists the bids due in the range, earliest first, with what was sent', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'bid-schedule', section: 'Sales', date_basis: 'all' });
    expect(d.summary).toEqual([
      { label: 'Bids due', value: '5' },
      { label: 'Value', value: '$30,000.00' },
      { label: 'Already sent', value: '2' },
      { label: 'Still open', value: '2' },
    ]);
    const [table] = d.tables;
    expect(table.columns.map((c: any) => c.key)).toEqual([
      'due_date',
      'days_until_due',
      'job_number',
      'job_name',
      'customer',
      'estimator',
      'salesperson',
      'status',
      'value',
      'proposal_sent',
    ]);
    expect(table.rows.map((r: any) => [r.job_name, r.due_date, r.status, r.value, r.proposal_sent])).toEqual([
      ['G', '2026-06-01', 'Active', 4000, null],
      ['A', '2026-06-05', 'Active', 10000, '2026-06-03'],
      ['B', '2026-06-12', 'Active', 5000, null],
      ['C', '2026-06-20', 'Lost', 3000, null],
      ['D', '2026-06-30', 'Won', 8000, '2026-06-30'],
    ]);
    const today = todayIn('America/Chicago');
    const b = table.rows[2];
    expect(b).toMatchObject({
      job_id: ids.B,
      estimator: 'Sam Seller',
      salesperson: 'Sam Seller',
      days_until_due: daysBetween(today, '2026-06-12'),
    });
    expect(table.rows[0].estimator).toBe('');
    expect(table.total).toMatchObject({ job_name: 'Total', value: 30000 });
  });

  it('filters: estimator and outcome', async () => {
    const sams = (await run(`${JUNE}&estimator_ids=${sam.id}`)).data.tables[0];
    expect(sams.rows.map((r: any) => r.job_name)).toEqual(['B']);
    const open = (await run(`${JUNE}&outcomes=open`)).data;
    expect(open.tables[0].rows.map((r: any) => r.job_name)).toEqual(['G', 'A', 'B']);
    expect(open.summary[1]).toEqual({ label: 'Value', value: '$19,000.00' });
    // The range's first and last dates are both in: 1 July alone holds E.
    const july = (await run('start=2026-07-01&end=2026-07-01')).data.tables[0];
    expect(july.rows.map((r: any) => r.job_name)).toEqual(['E']);
  });

  it('a member who sees only their own jobs lists only those', async () => {
    const d = (await run(JUNE, sam.api)).data;
    expect(d.tables[0].rows.map((r: any) => r.job_name)).toEqual(['B']);
    expect(d.summary[0]).toEqual({ label: 'Bids due', value: '1' });
  });

  it('takes no date basis: the due date is its range', async () => {
    const res = await w.api.get(`/v1/reports/bid-schedule?${JUNE}&date_basis=bid`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The bid-schedule report does not use date_basis');
  });
});
