// GET /v1/reports/estimate-totals (docs/reports.md, "Estimate totals"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in summer). Estimates are made through the API by their estimator; their
// priced totals (as pricing stores them) and creation instants are placed by hand so the figures are
// round:
//
// | est | job (type, salesperson)  | estimator | price  | cost   | margin | created (local)          |
// | E1  | J1 (Paving, owner)       | owner     | 10,000 |  6,000 |  4,000 | 2026-06-10 09:00         |
// | E2  | J1                       | owner     |  5,000 |  4,000 |  1,000 | 2026-06-30 23:30 (in)    |
// | E3  | J2 (Sealcoating, Sam)    | Sam       |  8,000 |  6,000 |  2,000 | 2026-06-15 09:00         |
// | E7  | J2                       | Sam       | (not priced)             | 2026-06-20 09:00         |
// | E4  | J2                       | Sam       | change order: left out   | 2026-06-16 09:00         |
// | E5  | J1                       | owner     | archived: left out       | 2026-06-17 09:00         |
// | E6  | J1                       | owner     |  3,000 |  2,000 |  1,000 | 2026-07-01 00:30 (out)   |
//
// June by estimator:
// | estimator | estimates | price  | cost   | margin | margin %          |
// | owner     | 2         | 15,000 | 10,000 | 5,000  | 5/15 = 0.3333     |
// | Sam       | 2         |  8,000 |  6,000 | 2,000  | 2/8  = 0.25       |
// | Total     | 4         | 23,000 | 16,000 | 7,000  | 7/23 = 0.3043     |
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { salesJob } from '#test/helpers/scenarios/sales-jobs.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };
const est: Record<string, number> = {};
const jobs: Record<string, number> = {};

async function estimate(
  name: string,
  api: Workspace['api'],
  jobId: number,
  createdUtc: string,
  o: { price?: number; cost?: number; changeOrder?: boolean; archived?: boolean } = {},
) {
  const id: number = (await ok(api.post('/v1/estimates', { job_id: jobId }))).data.id;
  est[name] = id;
  await t.database.db
    .updateTable('estimates')
    .set({
      name,
      created_at: `${createdUtc}.000000`,
      price_cents: o.price === undefined ? null : o.price * 100,
      cost_cents: o.cost === undefined ? null : o.cost * 100,
      margin_cents: o.price === undefined || o.cost === undefined ? null : (o.price - o.cost) * 100,
      ...(o.changeOrder ? { is_change_order: 1 as const } : {}),
      ...(o.archived ? { archived_at: '2026-06-18T00:00:00.000000' } : {}),
    })
    .where('id', '=', id)
    .execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', job_types: ['Paving', 'Sealcoating'] });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  jobs.J1 = await salesJob(t, w, 'J1', { type: 'Paving', value: 20000 });
  jobs.J2 = await salesJob(t, w, 'J2', { owner: sam.id, type: 'Sealcoating', value: 9000 });
  await estimate('E1', w.api, jobs.J1, '2026-06-10T14:00:00', { price: 10000, cost: 6000 });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  await estimate('E2', w.api, jobs.J1, '2026-07-01T04:30:00', { price: 5000, cost: 4000 });
  await estimate('E3', sam.api, jobs.J2, '2026-06-15T14:00:00', { price: 8000, cost: 6000 });
  await estimate('E4', sam.api, jobs.J2, '2026-06-16T14:00:00', { price: 1000, cost: 500, changeOrder: true });
  await estimate('E5', w.api, jobs.J1, '2026-06-17T14:00:00', { price: 2000, cost: 1000, archived: true });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  await estimate('E6', w.api, jobs.J1, '2026-07-01T05:30:00', { price: 3000, cost: 2000 });
  await estimate('E7', sam.api, jobs.J2, '2026-06-20T14:00:00');
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/estimate-totals?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';

describe('GET /v1/reports/estimate-totals', () => {
  it('totals the estimates created in the range by estimator', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'estimate-totals', section: 'Estimating', date_basis: 'created' });
    expect(d.summary).toEqual([
      { label: 'Estimates', value: '4' },
      { label: 'Price', value: '$23,000.00' },
      { label: 'Cost', value: '$16,000.00' },
      { label: 'Margin', value: '$7,000.00' },
      { label: 'Margin %', value: '30.43%' },
    ]);
    const [groups, list] = d.tables;
    const owner = groups.rows.find((r: any) => r.estimator !== 'Sam Seller');
    const samRow = groups.rows.find((r: any) => r.estimator === 'Sam Seller');
    expect(groups.rows).toHaveLength(2);
    expect(owner).toMatchObject({ estimates: 2, price: 15000, cost: 10000, margin: 5000, margin_pct: 0.3333 });
    expect(samRow).toMatchObject({ estimates: 2, price: 8000, cost: 6000, margin: 2000, margin_pct: 0.25 });
    expect(groups.total).toMatchObject({
      estimator: 'Total',
      estimates: 4,
      price: 23000,
      cost: 16000,
      margin: 7000,
      margin_pct: 0.3043,
    });
    // Newest first; E2's local date is 30 June.
    expect(list.rows.map((r: any) => r.estimate_name)).toEqual(['E2', 'E7', 'E3', 'E1']);
    expect(list.rows[0]).toMatchObject({
      job_id: jobs.J1,
      job_name: 'J1',
      created: '2026-06-30',
      price: 5000,
      cost: 4000,
      margin: 1000,
      margin_pct: 0.2,
    });
    expect(list.rows[1]).toMatchObject({
      estimator: 'Sam Seller',
      price: null,
      margin_pct: null,
      created: '2026-06-20',
    });
    expect(list.total).toMatchObject({ price: 23000, cost: 16000, margin: 7000, margin_pct: 0.3043 });
  });

  it('the estimate list pages in the database: rows_limit cuts it, q finds by estimator; its total follows q', async () => {
    const cut = (await run(`${JUNE}&rows_limit=2`)).data;
    expect(cut.truncated).toBe(true);
    expect(cut.tables[1].rows.map((r: any) => r.estimate_name)).toEqual(['E2', 'E7']);
    expect(cut.tables[1]).toMatchObject({ rows_total: 4, total: { price: 23000, margin_pct: 0.3043 } });
    // Sam's two: E7 unpriced and E3 at 8,000 / 6,000 / 2,000.
    const sams = (await run(`${JUNE}&q=sam%20sell`)).data.tables[1];
    expect(sams.rows.map((r: any) => r.estimate_name)).toEqual(['E7', 'E3']);
    expect(sams).toMatchObject({ rows_total: 2, total: { price: 8000, cost: 6000, margin: 2000, margin_pct: 0.25 } });
    const none = (await run(`${JUNE}&q=no-such-estimate`)).data.tables[1];
    expect(none).toMatchObject({ rows: [], rows_total: 0, total: { price: 0, margin_pct: null } });
  });

  it('group_by the job and the month; the estimator filter is the estimate’s creator', async () => {
    const byType = (await run(`${JUNE}&group_by=work_type,month`)).data.tables[0];
    // E2 (1 July 04:30 UTC) is June locally: one month.
    expect(byType.rows.map((r: any) => [r.work_type, r.month, r.estimates, r.price])).toEqual([
      ['Paving', '2026-06', 2, 15000],
      ['Sealcoating', '2026-06', 2, 8000],
    ]);
    const sams = (await run(`${JUNE}&estimator_ids=${sam.id}`)).data;
    expect(sams.tables[1].rows.map((r: any) => r.estimate_name)).toEqual(['E7', 'E3']);
    const paving = (await run(`${JUNE}&work_types=Paving`)).data;
    expect(paving.summary[1]).toEqual({ label: 'Price', value: '$15,000.00' });
    // The page is picked from the estimates with the job filters as a list of jobs, then cut: the
    // same first rows as the whole filtered list.
    expect(paving.tables[1].rows).toHaveLength(2);
    const firstPaving = (await run(`${JUNE}&work_types=Paving&rows_limit=1`)).data.tables[1];
    expect(firstPaving.rows).toEqual(paving.tables[1].rows.slice(0, 1));
    expect(firstPaving.rows_total).toBe(2);
  });

  it('a member who sees only their own jobs counts only their estimates', async () => {
    const d = (await run(JUNE, sam.api)).data;
    expect(d.summary[0]).toEqual({ label: 'Estimates', value: '2' });
    expect(d.tables[1].rows.map((r: any) => r.estimate_name)).toEqual(['E7', 'E3']);
  });

  it('takes no date basis: it dates estimates by their creation', async () => {
    const res = await w.api.get(`/v1/reports/estimate-totals?${JUNE}&date_basis=bid`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The estimate-totals report does not use date_basis');
  });
});
