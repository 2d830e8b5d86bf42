// GET /v1/reports/material-history (docs/reports.md, "Material history"), worked by hand. A Chicago
// workspace (CDT, UTC-5); detailed estimate lines with material cost lines, the estimates'
// created_at placed by hand:
//
// | estimate | job (owner) | created (local)            | material cost lines (quantity x unit cost = cost)   |
// | E1       | J1 (owner)  | 2026-05-20                 | Sealer 30 GAL x 5 = 150; Sand 2 TON x 40 = 80        |
// | E2       | J2 (Sam)    | 2026-06-10                 | Sealer 50 GAL x 6 = 300                              |
// | E3       | J1 (owner)  | 2026-06-30 23:30 (June)    | Sealer 20 GAL x 7 = 140; Crew 5 HR (crew: not material) |
// | E4       | J1 (owner)  | 2026-07-01 00:30 (July)    | Sealer 10 GAL x 9 = 90                               |
//
// May-June: 2026-05 Sand/TON 1 use at 40, 2 TON, 80; 2026-05 Sealer/GAL 1 at 5, 30 GAL, 150;
// 2026-06 Sealer/GAL 2 uses, average (6 + 7) / 2 = 6.50, low 6, high 7, 70 GAL, 440.
// Total 4 uses, 670. Materials: Sand and Sealer, 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; api: Workspace['api'] };

type CostLine = { type: 'material' | 'crew'; name: string; unit: string; unit_cost: number; manual_quantity: number };

async function estimate(jobId: number, createdAt: string, costLines: CostLine[]) {
  const e = (await ok(w.api.post('/v1/estimates', { job_id: jobId }))).data;
  const made = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Sealcoat',
    unit: 'SF',
    quantity: 1000,
    estimating_mode: 'detailed',
    cost_lines: costLines,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await t.database.db.updateTable('estimates').set({ created_at: createdAt }).where('id', '=', e.id).execute();
}

const sealer = (manual_quantity: number, unit_cost: number): CostLine => ({
  type: 'material',
  name: 'Sealer',
  unit: 'GAL',
  unit_cost,
  manual_quantity,
});

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const j1 = (await ok(w.api.post('/v1/jobs', { name: 'J1' }))).data.id;
  const j2 = (await ok(w.api.post('/v1/jobs', { name: 'J2', assigned_to_user_id: sam.id }))).data.id;
  await estimate(j1, '2026-05-20T15:00:00.000000', [
    sealer(30, 5),
    { type: 'material', name: 'Sand', unit: 'TON', unit_cost: 40, manual_quantity: 2 },
  ]);
  await estimate(j2, '2026-06-10T15:00:00.000000', [sealer(50, 6)]);
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  await estimate(j1, '2026-07-01T04:30:00.000000', [
    sealer(20, 7),
    { type: 'crew', name: 'Crew', unit: 'HR', unit_cost: 40, manual_quantity: 5 },
  ]);
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  await estimate(j1, '2026-07-01T05:30:00.000000', [sealer(10, 9)]);
});
afterAll(() => t.close());

const RANGE = 'start=2026-05-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/material-history?${query}`));

describe('GET /v1/reports/material-history', () => {
  it('materials by local month, name and unit, with unit costs, quantity and cost', async () => {
    const d = (await run(RANGE)).data;
    expect(d).toMatchObject({ key: 'material-history', section: 'Estimating', date_basis: 'created' });
    expect(d.summary).toEqual([
      { label: 'Materials', value: '2' },
      { label: 'Times used', value: '4' },
    ]);
    expect(d.tables[0].rows).toEqual([
      {
        month: '2026-05',
        material: 'Sand',
        unit: 'TON',
        times_used: 1,
        average_unit_cost: 40,
        low_unit_cost: 40,
        high_unit_cost: 40,
        quantity: 2,
        cost: 80,
      },
      {
        month: '2026-05',
        material: 'Sealer',
        unit: 'GAL',
        times_used: 1,
        average_unit_cost: 5,
        low_unit_cost: 5,
        high_unit_cost: 5,
        quantity: 30,
        cost: 150,
      },
      {
        month: '2026-06',
        material: 'Sealer',
        unit: 'GAL',
        times_used: 2,
        average_unit_cost: 6.5,
        low_unit_cost: 6,
        high_unit_cost: 7,
        quantity: 70,
        cost: 440,
      },
    ]);
    expect(d.tables[0].total).toMatchObject({ month: 'Total', times_used: 4, cost: 670 });
  });

  it('July holds E4 (created 00:30 on 1 July locally); one month alone', async () => {
    const july = (await run('start=2026-07-01&end=2026-07-31')).data.tables[0];
    expect(july.rows).toEqual([expect.objectContaining({ month: '2026-07', times_used: 1, average_unit_cost: 9 })]);
    const june = (await run('start=2026-06-01&end=2026-06-30')).data.tables[0];
    expect(june.rows.map((r: any) => [r.month, r.times_used, r.quantity])).toEqual([['2026-06', 2, 70]]);
  });

  it('a range of centuries (its months found from the estimates in it) has the same rows as the months that hold them', async () => {
    const near = (await run('start=2026-05-01&end=2026-07-31')).data.tables[0];
    const far = (await run('start=1900-01-01&end=2199-12-31')).data.tables[0];
    expect(far.rows).toEqual(near.rows);
    expect(far.rows.map((r: any) => r.month)).toContain('2026-07');
    expect(far.total).toEqual(near.total);
  });

  it('a member who sees only their own jobs; a parameter it does not use is 400', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/material-history?${RANGE}`))).data;
    expect(d.tables[0].rows).toEqual([
      expect.objectContaining({
        month: '2026-06',
        material: 'Sealer',
        times_used: 1,
        average_unit_cost: 6,
        quantity: 50,
      }),
    ]);
    const bad = await w.api.get(`/v1/reports/material-history?${RANGE}&group_by=month`);
    expect(bad.status).toBe(400);
  });
});
