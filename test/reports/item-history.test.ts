// GET /v1/reports/item-history (docs/reports.md, "Item history"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in June); estimates made through the API with priced lines, their
// created_at placed by hand:
//
// | estimate | job (stage, owner)  | created (local)            | lines (quantity x unit price = price)                                   |
// | E1       | J1 (won, owner)     | 2026-06-05                 | Sealcoat 1,000 SF x 0.25 = 250; Crack fill 200 LF x 1.50 = 300; Stripe 10 EA optional |
// | E2       | J2 (open, Sam)      | 2026-06-30 23:30 (in June) | sealcoat 2,000 SF x 0.20 = 400; Crack fill 100 LF x 2 excluded           |
// | E3       | J3 (open, owner)    | 2026-07-01 00:30 (July)    | Sealcoat 500 SF x 0.30 = 150                                             |
//
// June: Sealcoat/SF quoted 2 times on 2 estimates, 3,000 SF, 650; average 650 / 3,000 = 0.2167,
// low 0.20, high 0.25; won once (E1 is won J1's estimate) for 250. Crack fill/LF once (the excluded
// line is not quoted), 200 LF, 300, unit price 1.50, won 300. Total 3 lines, 950 quoted, 2 won
// for 550. The optional Stripe line is not in the estimate's price and not counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; api: Workspace['api'] };

async function estimate(
  jobId: number,
  createdAt: string,
  lines: { name: string; unit: string; quantity: number; unit_price: number; optional?: boolean; excluded?: boolean }[],
) {
  const e = (await ok(w.api.post('/v1/estimates', { job_id: jobId }))).data;
  for (const l of lines) {
    const made = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
      name: l.name,
      unit: l.unit,
      quantity: l.quantity,
      unit_price: l.unit_price,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.line_item_id;
    if (l.optional) await ok(w.api.patch(`/v1/estimates/${e.id}/line-items/${id}`, { is_optional: true }));
    if (l.excluded) await ok(w.api.patch(`/v1/estimates/${e.id}/line-items/${id}`, { excluded: true }));
  }
  await t.database.db.updateTable('estimates').set({ created_at: createdAt }).where('id', '=', e.id).execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const j1 = (await ok(w.api.post('/v1/jobs', { name: 'J1' }))).data.id;
  const j2 = (await ok(w.api.post('/v1/jobs', { name: 'J2', assigned_to_user_id: sam.id }))).data.id;
  const j3 = (await ok(w.api.post('/v1/jobs', { name: 'J3' }))).data.id;
  await estimate(j1, '2026-06-05T15:00:00.000000', [
    { name: 'Sealcoat', unit: 'SF', quantity: 1000, unit_price: 0.25 },
    { name: 'Crack fill', unit: 'LF', quantity: 200, unit_price: 1.5 },
    { name: 'Stripe', unit: 'EA', quantity: 10, unit_price: 5, optional: true },
  ]);
  await ok(w.api.patch(`/v1/jobs/${j1}`, { status: 'won' }));
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  await estimate(j2, '2026-07-01T04:30:00.000000', [
    { name: 'sealcoat', unit: 'SF', quantity: 2000, unit_price: 0.2 },
    { name: 'Crack fill', unit: 'LF', quantity: 100, unit_price: 2, excluded: true },
  ]);
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  await estimate(j3, '2026-07-01T05:30:00.000000', [{ name: 'Sealcoat', unit: 'SF', quantity: 500, unit_price: 0.3 }]);
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/item-history?${query}`));

describe('GET /v1/reports/item-history', () => {
  it('the services quoted in the range by name and unit, with unit prices and what was won', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'item-history', section: 'Estimating', date_basis: 'created' });
    expect(d.summary).toEqual([
      { label: 'Services', value: '2' },
      { label: 'Lines quoted', value: '3' },
      { label: 'Quoted value', value: '$950.00' },
      { label: 'Won value', value: '$550.00' },
    ]);
    const [seal, crack] = d.tables[0].rows;
    expect(seal.service).toMatch(/^sealcoat$/i);
    expect(seal).toMatchObject({
      unit: 'SF',
      times_quoted: 2,
      estimates: 2,
      quantity: 3000,
      average_unit_price: 0.2167,
      low_unit_price: 0.2,
      high_unit_price: 0.25,
      quoted_value: 650,
      won: 1,
      won_value: 250,
    });
    expect(crack).toEqual({
      service: 'Crack fill',
      unit: 'LF',
      times_quoted: 1,
      estimates: 1,
      quantity: 200,
      average_unit_price: 1.5,
      low_unit_price: 1.5,
      high_unit_price: 1.5,
      quoted_value: 300,
      won: 1,
      won_value: 300,
    });
    expect(d.tables[0].total).toMatchObject({ times_quoted: 3, quoted_value: 950, won: 2, won_value: 550 });
  });

  it('July holds E3 (created 00:30 on 1 July locally); q keeps matching services', async () => {
    const july = (await run('start=2026-07-01&end=2026-07-31')).data.tables[0];
    expect(july.rows).toEqual([expect.objectContaining({ unit: 'SF', quantity: 500, quoted_value: 150, won: 0 })]);
    const crack = (await run(`${JUNE}&q=crack`)).data.tables[0];
    expect(crack.rows.map((r: any) => r.service)).toEqual(['Crack fill']);
    expect(crack.total).toMatchObject({ quoted_value: 300 });
  });

  it('a member who sees only their own jobs; a job filter is 400', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/item-history?${JUNE}`))).data;
    expect(d.tables[0].rows).toEqual([expect.objectContaining({ quantity: 2000, quoted_value: 400, won: 0 })]);
    const bad = await w.api.get(`/v1/reports/item-history?${JUNE}&salesperson_ids=1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The item-history report does not use salesperson_ids');
  });
});
