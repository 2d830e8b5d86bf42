// GET /v1/reports/market-analysis (docs/reports.md, "Market analysis"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in summer); customer and property types are the jobs' details, each bid
// instant is placed by hand:
//
// | job | salesperson | stage  | value  | customer type | property type | bid (local)            |
// | A   | owner       | won    | 10,000 | Commercial    | Retail        | 2026-06-10 09:00       |
// | B   | owner       | lost   |  5,000 | Commercial    | Retail        | 2026-06-12 09:00       |
// | C   | Sam         | won    |  4,000 | Commercial    | Office        | 2026-06-30 23:30 (in)  |
// | D   | Sam         | won    |  2,000 | Residential   | HOA           | 2026-06-15 09:00       |
// | E   | owner       | active |  3,000 | Residential   | HOA           | 2026-06-16 09:00       |
// | F   | Sam         | lost   |  6,000 | (none)        | (none)        | 2026-06-18 09:00       |
// | G   | owner       | won    |  8,000 | Commercial    | Retail        | 2026-07-01 00:30 (out) |
//
// June: 6 bids, 30,000; won A, C, D = 3 (16,000); lost B, F = 2: win rate 3/5 = 0.6; average won
// 16,000 / 3 = 5,333.33.
// | market                 | bids | value  | share of bids | won (value) | won share     | lost | rate | avg won |
// | (none), (none)         | 1    |  6,000 | 1/6 = 0.1667  | 0 (0)       | 0             | 1    | 0    | null    |
// | Commercial, Office     | 1    |  4,000 | 0.1667        | 1 (4,000)   | 4/16 = 0.25   | 0    | 1    | 4,000   |
// | Commercial, Retail     | 2    | 15,000 | 2/6 = 0.3333  | 1 (10,000)  | 10/16 = 0.625 | 1    | 0.5  | 10,000  |
// | Residential, HOA       | 2    |  5,000 | 0.3333        | 1 (2,000)   | 2/16 = 0.125  | 0    | 1    | 2,000   |
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { salesJob } from '#test/helpers/scenarios/sales-jobs.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const market = (customer_type: string, property_type: string) => ({ customer_type, property_type });
  const at = (utc: string) => `${utc}.000000`;
  await salesJob(t, w, 'A', {
    status: 'won',
    value: 10000,
    details: market('Commercial', 'Retail'),
    bid: at('2026-06-10T14:00:00'),
  });
  await salesJob(t, w, 'B', {
    status: 'lost',
    value: 5000,
    details: market('Commercial', 'Retail'),
    bid: at('2026-06-12T14:00:00'),
  });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  await salesJob(t, w, 'C', {
    owner: sam.id,
    status: 'won',
    value: 4000,
    details: market('Commercial', 'Office'),
    bid: at('2026-07-01T04:30:00'),
  });
  await salesJob(t, w, 'D', {
    owner: sam.id,
    status: 'won',
    value: 2000,
    details: market('Residential', 'HOA'),
    bid: at('2026-06-15T14:00:00'),
  });
  await salesJob(t, w, 'E', {
    status: 'active',
    value: 3000,
    details: market('Residential', 'HOA'),
    bid: at('2026-06-16T14:00:00'),
  });
  await salesJob(t, w, 'F', { owner: sam.id, status: 'lost', value: 6000, bid: at('2026-06-18T14:00:00') });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  await salesJob(t, w, 'G', {
    status: 'won',
    value: 8000,
    details: market('Commercial', 'Retail'),
    bid: at('2026-07-01T05:30:00'),
  });
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/market-analysis?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';
const market = (rows: any[]) => Object.fromEntries(rows.map((r) => [`${r.customer_type}, ${r.property_type}`, r]));

describe('GET /v1/reports/market-analysis', () => {
  it('splits the jobs bid in the range by customer and property type', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'market-analysis', section: 'Sales', date_basis: 'bid' });
    expect(d.summary).toEqual([
      { label: 'Bids', value: '6' },
      { label: 'Bid value', value: '$30,000.00' },
      { label: 'Won', value: '3 ($16,000.00)' },
      { label: 'Win rate', value: '60%' },
      { label: 'Average won job', value: '$5,333.33' },
    ]);
    const [table] = d.tables;
    expect(table.key).toBe('markets');
    expect(table.columns.map((c: any) => c.key)).toEqual([
      'customer_type',
      'property_type',
      'bids',
      'bid_value',
      'bid_share',
      'won',
      'won_value',
      'won_share',
      'lost',
      'win_rate',
      'average_won',
    ]);
    const rows = market(table.rows);
    expect(Object.keys(rows).sort()).toEqual([
      '(none), (none)',
      'Commercial, Office',
      'Commercial, Retail',
      'Residential, HOA',
    ]);
    expect(rows['(none), (none)']).toMatchObject({
      bids: 1,
      bid_value: 6000,
      bid_share: 0.1667,
      won: 0,
      won_value: 0,
      won_share: 0,
      lost: 1,
      win_rate: 0,
      average_won: null,
    });
    expect(rows['Commercial, Office']).toMatchObject({
      bids: 1,
      won: 1,
      won_share: 0.25,
      win_rate: 1,
      average_won: 4000,
    });
    expect(rows['Commercial, Retail']).toEqual({
      customer_type: 'Commercial',
      property_type: 'Retail',
      bids: 2,
      bid_value: 15000,
      bid_share: 0.3333,
      won: 1,
      won_value: 10000,
      won_share: 0.625,
      lost: 1,
      win_rate: 0.5,
      average_won: 10000,
    });
    expect(rows['Residential, HOA']).toMatchObject({ bids: 2, bid_value: 5000, won_share: 0.125, win_rate: 1 });
    expect(table.total).toEqual({
      customer_type: 'Total',
      property_type: null,
      bids: 6,
      bid_value: 30000,
      bid_share: 1,
      won: 3,
      won_value: 16000,
      won_share: 1,
      lost: 2,
      win_rate: 0.6,
      average_won: 5333.33,
    });
  });

  it('group_by and an outcome filter', async () => {
    const d = (await run(`${JUNE}&group_by=customer_type&outcomes=won`)).data;
    const rows = Object.fromEntries(d.tables[0].rows.map((r: any) => [r.customer_type, r]));
    // Won only: Commercial A + C = 14,000 of 16,000 (0.875); Residential D 2,000 (0.125).
    expect(Object.keys(rows).sort()).toEqual(['Commercial', 'Residential']);
    expect(rows.Commercial).toMatchObject({ bids: 2, won: 2, won_value: 14000, won_share: 0.875, bid_share: 0.6667 });
    expect(rows.Residential).toMatchObject({ bids: 1, won: 1, won_value: 2000, won_share: 0.125 });
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const d = (await run(JUNE, sam.api)).data;
    // C, D, F: 12,000 bid, C and D won 6,000.
    expect(d.summary.slice(0, 3)).toEqual([
      { label: 'Bids', value: '3' },
      { label: 'Bid value', value: '$12,000.00' },
      { label: 'Won', value: '2 ($6,000.00)' },
    ]);
  });

  it('refuses a parameter it does not use and a bad date basis', async () => {
    const unused = await w.api.get(`/v1/reports/market-analysis?${JUNE}&view=job`);
    expect(unused.status).toBe(400);
    expect(unused.body.error).toBe('The market-analysis report does not use view');
    const basis = await w.api.get(`/v1/reports/market-analysis?${JUNE}&date_basis=paid`);
    expect(basis.status).toBe(400);
  });
});
