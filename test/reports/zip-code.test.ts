// GET /v1/reports/zip-code (docs/reports.md, "ZIP code"), worked by hand. A Chicago workspace (CDT,
// UTC-5 in summer); ZIP and city are read from each job's address, its bid instant is placed by hand:
//
// | job | salesperson | stage  | value  | address                          | bid (local)            |
// | A   | owner       | won    | 10,000 | 12 Elm St, Columbus, OH 43215    | 2026-06-10 09:00       |
// | B   | owner       | lost   |  5,000 | 14 Elm St, Columbus, OH 43215    | 2026-06-12 09:00       |
// | C   | Sam         | won    |  3,000 | 9 Oak Ave, Dublin OH 43017       | 2026-06-30 23:30 (in)  |
// | D   | Sam         | active |  2,000 | 7 Main St, Columbus, OH 43017    | 2026-06-14 09:00       |
// | E   | Sam         | lost   |  4,000 | (none)                           | 2026-06-15 09:00       |
// | F   | owner       | won    |  6,000 | 20 Elm St, Columbus, OH 43215    | 2026-07-01 00:30 (out) |
//
// June: 5 bids, 24,000; won A, C = 2 (13,000); lost B, E = 2: win rate 50%. ZIP codes: 2.
// | ZIP      | city      | bids | value  | won (value) | lost | rate | won share      |
// | 43017    | Columbus  | 1    |  2,000 | 0 (0)       | 0    | null | 0              |
// | 43017    | Dublin    | 1    |  3,000 | 1 (3,000)   | 0    | 1    | 3/13 = 0.2308  |
// | 43215    | Columbus  | 2    | 15,000 | 1 (10,000)  | 1    | 0.5  | 10/13 = 0.7692 |
// | (no ZIP) | (no city) | 1    |  4,000 | 0 (0)       | 1    | 0    | 0              |
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
  const at = (utc: string) => `${utc}.000000`;
  await salesJob(t, w, 'A', {
    status: 'won',
    value: 10000,
    address: '12 Elm St, Columbus, OH 43215',
    bid: at('2026-06-10T14:00:00'),
  });
  await salesJob(t, w, 'B', {
    status: 'lost',
    value: 5000,
    address: '14 Elm St, Columbus, OH 43215',
    bid: at('2026-06-12T14:00:00'),
  });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  await salesJob(t, w, 'C', {
    owner: sam.id,
    status: 'won',
    value: 3000,
    address: '9 Oak Ave, Dublin OH 43017',
    bid: at('2026-07-01T04:30:00'),
  });
  await salesJob(t, w, 'D', {
    owner: sam.id,
    status: 'active',
    value: 2000,
    address: '7 Main St, Columbus, OH 43017',
    bid: at('2026-06-14T14:00:00'),
  });
  await salesJob(t, w, 'E', { owner: sam.id, status: 'lost', value: 4000, bid: at('2026-06-15T14:00:00') });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  await salesJob(t, w, 'F', {
    status: 'won',
    value: 6000,
    address: '20 Elm St, Columbus, OH 43215',
    bid: at('2026-07-01T05:30:00'),
  });
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/zip-code?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';

describe('GET /v1/reports/zip-code', () => {
  it('counts the jobs bid in the range by ZIP then city, the jobs without a ZIP last', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'zip-code', section: 'Sales', date_basis: 'bid' });
    expect(d.summary).toEqual([
      { label: 'Bids', value: '5' },
      { label: 'Bid value', value: '$24,000.00' },
      { label: 'Won', value: '2 ($13,000.00)' },
      { label: 'Win rate', value: '50%' },
      { label: 'ZIP codes', value: '2' },
    ]);
    const [table] = d.tables;
    expect(table.key).toBe('zip_codes');
    expect(table.rows).toEqual([
      {
        zip: '43017',
        city: 'Columbus',
        bids: 1,
        bid_value: 2000,
        won: 0,
        won_value: 0,
        lost: 0,
        win_rate: null,
        won_share: 0,
      },
      {
        zip: '43017',
        city: 'Dublin',
        bids: 1,
        bid_value: 3000,
        won: 1,
        won_value: 3000,
        lost: 0,
        win_rate: 1,
        won_share: 0.2308,
      },
      {
        zip: '43215',
        city: 'Columbus',
        bids: 2,
        bid_value: 15000,
        won: 1,
        won_value: 10000,
        lost: 1,
        win_rate: 0.5,
        won_share: 0.7692,
      },
      {
        zip: '(no ZIP)',
        city: '(no city)',
        bids: 1,
        bid_value: 4000,
        won: 0,
        won_value: 0,
        lost: 1,
        win_rate: 0,
        won_share: 0,
      },
    ]);
    expect(table.total).toEqual({
      zip: 'Total',
      city: null,
      bids: 5,
      bid_value: 24000,
      won: 2,
      won_value: 13000,
      lost: 2,
      win_rate: 0.5,
      won_share: 1,
    });
    expect(table.note).toBe('1 job has no ZIP in its address ($4,000.00 bid): the (no ZIP) row');
  });

  it('filters by outcome; q narrows the rows and their total', async () => {
    const won = (await run(`${JUNE}&outcomes=won`)).data.tables[0];
    expect(won.rows.map((r: any) => [r.zip, r.city, r.won_value, r.won_share])).toEqual([
      ['43017', 'Dublin', 3000, 0.2308],
      ['43215', 'Columbus', 10000, 0.7692],
    ]);
    expect(won.note).toBeNull();
    const dublin = (await run(`${JUNE}&q=dublin`)).data.tables[0];
    expect(dublin.rows_total).toBe(1);
    expect(dublin.total).toMatchObject({ bids: 1, won_value: 3000, won_share: 0.2308 });
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const d = (await run(JUNE, sam.api)).data;
    // C, D, E: 9,000 bid; C won 3,000.
    expect(d.summary.slice(0, 3)).toEqual([
      { label: 'Bids', value: '3' },
      { label: 'Bid value', value: '$9,000.00' },
      { label: 'Won', value: '1 ($3,000.00)' },
    ]);
    expect(d.tables[0].rows.map((r: any) => r.zip)).toEqual(['43017', '43017', '(no ZIP)']);
  });

  it('takes no group_by: its grouping is fixed', async () => {
    const res = await w.api.get(`/v1/reports/zip-code?${JUNE}&group_by=zip`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The zip-code report does not use group_by');
  });
});
