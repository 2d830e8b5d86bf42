// GET /v1/reports/material-usage (docs/reports.md, "Material usage"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in June); won jobs' estimates with material cost lines, and material costs
// entered on the jobs, decided instants placed by hand:
//
// | job          | decided (local)         | estimated materials (quantity x unit cost)   | material job costs entered                    |
// | J1 (owner)   | 2026-06-10, won         | Sealer 30 GAL x 5 = 150; Sand 2 TON x 40 = 80; Crew (not material) | sealer 35 gal 180; Sand 1.5 TON 70; Tack coat 1 DRUM 60; equipment 500 (not material) |
// | J2 (Sam)     | 2026-06-30 23:30, won   | Sealer 50 GAL x 6 = 300                       | Sealer 40 GAL 250                             |
// | J3 (owner)   | 2026-07-01 00:30, won   | Sealer 10 GAL x 9 = 90 (July: out)            | Sealer 999                                    |
// | J4 (owner)   | 2026-06-12, lost        | Sealer 100 GAL (not won: out)                 |                                               |
//
// June, by material (name and unit in any case):
// Sand/TON: 1 job; est 2, actual 1.5, -0.5; est 80, actual 70, -10 (-10 / 80 = -0.125).
// Sealer/GAL: 2 jobs; est 30 + 50 = 80, actual 35 + 40 = 75, -5; est 450, actual 430, -20 (-0.0444).
// Tack coat/DRUM: entered only: actual 1, 60; no estimate, no variance.
// Total: est 530, actual 560, variance over the estimated materials (70 + 430) - 530 = -30 (-0.0566).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; api: Workspace['api'] };

type CostLine = { type: 'material' | 'crew'; name: string; unit: string; unit_cost: number; manual_quantity: number };
const mat = (name: string, unit: string, manual_quantity: number, unit_cost: number): CostLine => ({
  type: 'material',
  name,
  unit,
  unit_cost,
  manual_quantity,
});

async function wonJob(name: string, status: string, decided: string, costLines: CostLine[], owner?: number) {
  const id = (await ok(w.api.post('/v1/jobs', { name, ...(owner ? { assigned_to_user_id: owner } : {}) }))).data.id;
  const e = (await ok(w.api.post('/v1/estimates', { job_id: id }))).data;
  const made = await w.api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Sealcoat',
    unit: 'SF',
    quantity: 1000,
    estimating_mode: 'detailed',
    cost_lines: costLines,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await ok(w.api.patch(`/v1/jobs/${id}`, { status }));
  await t.database.db.updateTable('jobs').set({ decided_at: decided }).where('id', '=', id).execute();
  return id as number;
}

const cost = (
  jobId: number,
  cost_type: string,
  amount: number,
  description?: string,
  quantity?: number,
  unit?: string,
) =>
  ok(
    w.api.post(`/v1/jobs/${jobId}/costs`, {
      cost_type: cost_type as 'material',
      amount,
      date: '2026-06-20',
      ...(description ? { description } : {}),
      ...(quantity !== undefined ? { quantity, unit } : {}),
    }),
  );

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const j1 = await wonJob('J1', 'won', '2026-06-10T14:00:00.000000', [
    mat('Sealer', 'GAL', 30, 5),
    mat('Sand', 'TON', 2, 40),
    { type: 'crew', name: 'Crew', unit: 'HR', unit_cost: 40, manual_quantity: 5 },
  ]);
  await cost(j1, 'material', 180, 'sealer', 35, 'gal');
  await cost(j1, 'material', 70, 'Sand', 1.5, 'TON');
  await cost(j1, 'material', 60, 'Tack coat', 1, 'DRUM');
  await cost(j1, 'equipment', 500, 'Sealer');
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  const j2 = await wonJob('J2', 'won', '2026-07-01T04:30:00.000000', [mat('Sealer', 'GAL', 50, 6)], sam.id);
  await cost(j2, 'material', 250, 'Sealer', 40, 'GAL');
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  const j3 = await wonJob('J3', 'won', '2026-07-01T05:30:00.000000', [mat('Sealer', 'GAL', 10, 9)]);
  await cost(j3, 'material', 999, 'Sealer', 1, 'GAL');
  await wonJob('J4', 'lost', '2026-06-12T14:00:00.000000', [mat('Sealer', 'GAL', 100, 5)]);
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/material-usage?${query}`));

describe('GET /v1/reports/material-usage', () => {
  it('estimated against entered materials on the jobs won in the range', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'material-usage', section: 'Job cost', date_basis: 'decided' });
    expect(d.summary).toEqual([
      { label: 'Materials', value: '3' },
      { label: 'Estimated cost', value: '$530.00' },
      { label: 'Actual cost', value: '$560.00' },
      { label: 'Cost variance (estimated materials)', value: '-$30.00' },
    ]);
    expect(d.tables[0].rows).toEqual([
      {
        material: 'Sand',
        unit: 'TON',
        jobs: 1,
        estimated_quantity: 2,
        actual_quantity: 1.5,
        quantity_variance: -0.5,
        estimated_cost: 80,
        cost_entries: 1,
        actual_cost: 70,
        cost_variance: -10,
        variance_pct: -0.125,
      },
      {
        material: 'Sealer',
        unit: 'GAL',
        jobs: 2,
        estimated_quantity: 80,
        actual_quantity: 75,
        quantity_variance: -5,
        estimated_cost: 450,
        cost_entries: 2,
        actual_cost: 430,
        cost_variance: -20,
        variance_pct: -0.0444,
      },
      {
        material: 'Tack coat',
        unit: 'DRUM',
        jobs: 1,
        estimated_quantity: null,
        actual_quantity: 1,
        quantity_variance: null,
        estimated_cost: null,
        cost_entries: 1,
        actual_cost: 60,
        cost_variance: null,
        variance_pct: null,
      },
    ]);
    expect(d.tables[0].total).toEqual({
      material: 'Total',
      cost_entries: 4,
      estimated_cost: 530,
      actual_cost: 560,
      cost_variance: -30,
      variance_pct: -0.0566,
    });
  });

  it('July holds J3 (won 00:30 on 1 July locally); a salesperson filter', async () => {
    const july = (await run('start=2026-07-01&end=2026-07-31')).data.tables[0];
    expect(july.rows).toEqual([
      expect.objectContaining({ material: 'Sealer', estimated_cost: 90, actual_cost: 999, cost_variance: 909 }),
    ]);
    const sams = (await run(`${JUNE}&salesperson_ids=${sam.id}`)).data.tables[0];
    expect(sams.rows).toEqual([
      expect.objectContaining({ material: 'Sealer', estimated_quantity: 50, actual_cost: 250 }),
    ]);
  });

  it('a member who sees only their jobs and not job costs: their jobs, estimated columns only', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/material-usage?${JUNE}`))).data;
    expect(d.summary).toEqual([
      { label: 'Materials', value: '1' },
      { label: 'Estimated cost', value: '$300.00' },
    ]);
    expect(d.tables[0].rows).toEqual([
      { material: 'Sealer', unit: 'GAL', jobs: 1, estimated_quantity: 50, estimated_cost: 300 },
    ]);
    expect(d.tables[0].note).toMatch(/may not see job costs/);
  });

  it('a parameter it does not use is 400', async () => {
    const bad = await w.api.get(`/v1/reports/material-usage?${JUNE}&outcomes=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The material-usage report does not use outcomes');
  });
});
