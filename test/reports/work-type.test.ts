// GET /v1/reports/work-type (docs/reports.md, "Work type"), worked by hand. A Chicago workspace
// (CDT, UTC-5 in summer); each job's bid instant (its first proposal sent) is placed by hand:
//
// | job | salesperson | stage (type)    | value  | work type            | bid (local)            |
// | A   | owner       | won             | 10,000 | Paving, Sealcoating  | 2026-06-10 09:00       |
// | B   | owner       | lost            |  5,000 | Paving               | 2026-06-12 09:00       |
// | C   | Sam         | won             |  2,000 | Sealcoating          | 2026-06-30 23:30 (in)  |
// | D   | Sam         | lost            |  3,000 | Sealcoating          | 2026-06-20 09:00       |
// | E   | Sam         | active (open)   |  6,000 | Striping             | 2026-06-21 09:00       |
// | H   | Sam         | lost            |  1,000 | (none)               | 2026-06-05 09:00       |
// | F   | owner       | won             |  7,000 | Paving               | 2026-07-01 00:30 (out) |
// | G   | owner       | active (open)   |  9,000 | Paving               | never                  |
//
// June 2026 by work type (A's first type is Paving):
// | type           | bids | bid value | won (value) | lost | win rate | average | share          |
// | (no work type) | 1    |  1,000    | 0 (0)       | 1    | 0        | 1,000   | 1/27  = 0.037  |
// | Paving         | 2    | 15,000    | 1 (10,000)  | 1    | 0.5      | 7,500   | 15/27 = 0.5556 |
// | Sealcoating    | 2    |  5,000    | 1 (2,000)   | 1    | 0.5      | 2,500   | 5/27  = 0.1852 |
// | Striping       | 1    |  6,000    | 0 (0)       | 0    | null     | 6,000   | 6/27  = 0.2222 |
// | Total          | 6    | 27,000    | 2 (12,000)  | 3    | 2/5=0.4  | 4,500   | 1              |
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { salesJob } from '#test/helpers/scenarios/sales-jobs.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', job_types: ['Paving', 'Sealcoating', 'Striping'] });
  // Sam sees only his own jobs and may view reports.
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const at = (utc: string) => `${utc}.000000`;
  await salesJob(t, w, 'A', {
    status: 'won',
    value: 10000,
    type: 'Paving, Sealcoating',
    bid: at('2026-06-10T14:00:00'),
  });
  await salesJob(t, w, 'B', { status: 'lost', value: 5000, type: 'Paving', bid: at('2026-06-12T14:00:00') });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  await salesJob(t, w, 'C', {
    owner: sam.id,
    status: 'won',
    value: 2000,
    type: 'Sealcoating',
    bid: at('2026-07-01T04:30:00'),
  });
  await salesJob(t, w, 'D', {
    owner: sam.id,
    status: 'lost',
    value: 3000,
    type: 'Sealcoating',
    bid: at('2026-06-20T14:00:00'),
  });
  await salesJob(t, w, 'E', {
    owner: sam.id,
    status: 'active',
    value: 6000,
    type: 'Striping',
    bid: at('2026-06-21T14:00:00'),
  });
  await salesJob(t, w, 'H', { owner: sam.id, status: 'lost', value: 1000, bid: at('2026-06-05T14:00:00') });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  await salesJob(t, w, 'F', { status: 'won', value: 7000, type: 'Paving', bid: at('2026-07-01T05:30:00') });
  await salesJob(t, w, 'G', { status: 'active', value: 9000, type: 'Paving' });
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/work-type?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';
const byKey = (rows: any[], key: string) => Object.fromEntries(rows.map((r) => [r[key], r]));

describe('GET /v1/reports/work-type', () => {
  it('counts the jobs bid in the range by their first work type', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'work-type', section: 'Sales', date_basis: 'bid', truncated: false });
    expect(d.summary).toEqual([
      { label: 'Bids', value: '6' },
      { label: 'Bid value', value: '$27,000.00' },
      { label: 'Won', value: '2 ($12,000.00)' },
      { label: 'Win rate', value: '40%' },
      { label: 'Average bid', value: '$4,500.00' },
    ]);
    const [table] = d.tables;
    expect(table.columns.map((c: any) => c.key)).toEqual([
      'work_type',
      'bids',
      'bid_value',
      'won',
      'won_value',
      'lost',
      'win_rate',
      'average_bid',
      'bid_share',
    ]);
    const rows = byKey(table.rows, 'work_type');
    expect(Object.keys(rows).sort()).toEqual(['(no work type)', 'Paving', 'Sealcoating', 'Striping']);
    expect(rows.Paving).toEqual({
      work_type: 'Paving',
      bids: 2,
      bid_value: 15000,
      won: 1,
      won_value: 10000,
      lost: 1,
      win_rate: 0.5,
      average_bid: 7500,
      bid_share: 0.5556,
    });
    expect(rows.Sealcoating).toMatchObject({ bids: 2, bid_value: 5000, won: 1, won_value: 2000, average_bid: 2500 });
    expect(rows.Sealcoating.bid_share).toBe(0.1852);
    expect(rows.Striping).toMatchObject({
      bids: 1,
      bid_value: 6000,
      won: 0,
      lost: 0,
      win_rate: null,
      bid_share: 0.2222,
    });
    expect(rows['(no work type)']).toMatchObject({
      bids: 1,
      lost: 1,
      win_rate: 0,
      average_bid: 1000,
      bid_share: 0.037,
    });
    expect(table.total).toEqual({
      work_type: 'Total',
      bids: 6,
      bid_value: 27000,
      won: 2,
      won_value: 12000,
      lost: 3,
      win_rate: 0.4,
      average_bid: 4500,
      bid_share: 1,
    });
  });

  it('group_by and filters: salesperson and outcome; q keeps matching rows with their total', async () => {
    const d = (await run(`${JUNE}&group_by=salesperson,outcome&salesperson_ids=${sam.id}`)).data;
    // Sam: C won 2,000; D and H lost 4,000; E open 6,000 — 4 bids, 12,000.
    expect(d.tables[0].rows.map((r: any) => [r.salesperson, r.outcome, r.bids, r.bid_value])).toEqual([
      ['Sam Seller', 'lost', 2, 4000],
      ['Sam Seller', 'open', 1, 6000],
      ['Sam Seller', 'won', 1, 2000],
    ]);
    expect(d.summary[0]).toEqual({ label: 'Bids', value: '4' });
    // Shares are of Sam's 12,000: lost 4/12 = 0.3333.
    expect(d.tables[0].rows[0].bid_share).toBe(0.3333);
    const paving = (await run(`${JUNE}&q=paving`)).data.tables[0];
    expect(paving.rows.map((r: any) => r.work_type)).toEqual(['Paving']);
    // The total of the rows kept: 15,000 of 27,000.
    expect(paving.total).toMatchObject({ bids: 2, bid_value: 15000, bid_share: 0.5556 });
  });

  it('the other date bases: created counts every job created in the range', async () => {
    const d = (await run('start=2020-01-01&end=2099-12-31&date_basis=created')).data;
    expect(d.date_basis).toBe('created');
    // All eight jobs: 27,000 + F 7,000 + G 9,000 = 43,000; won A, C, F = 3; lost B, D, H = 3.
    expect(d.tables[0].total).toMatchObject({ bids: 8, bid_value: 43000, won: 3, won_value: 19000, lost: 3 });
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const d = (await run(JUNE, sam.api)).data;
    expect(d.summary.slice(0, 3)).toEqual([
      { label: 'Bids', value: '4' },
      { label: 'Bid value', value: '$12,000.00' },
      { label: 'Won', value: '1 ($2,000.00)' },
    ]);
  });

  it('refuses a parameter it does not use and an unknown group', async () => {
    const unused = await w.api.get(`/v1/reports/work-type?${JUNE}&net_days=30`);
    expect(unused.status).toBe(400);
    expect(unused.body.error).toBe('The work-type report does not use net_days');
    const group = await w.api.get(`/v1/reports/work-type?${JUNE}&group_by=color`);
    expect(group.status).toBe(400);
    expect(group.body.error).toBe('Unknown group_by: color');
  });
});
