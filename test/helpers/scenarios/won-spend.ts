// Scenario: jobs won with estimates that pay subcontractors and vendors (some of them certified
// firms), and subcontract job costs; used by the sub-utilization, vendor-utilization and minority
// report tests. A Chicago workspace (CDT, UTC-5 in June). Every cost line is on one detailed line
// of quantity 1, so a cost line's cost is unit cost × its fixed quantity:
//
// | job | stage | decided (local)        | cost lines                                                        | subcontract job costs |
// | A   | won   | 10 Jun 09:00           | Ace Striping sub 100×10 = 1,000; Joe Curb Co (typed sub) 250×2 = 500;| Striping "Ace invoice" 1,100 |
// |     |       |                        | HMA Surface material 80×20 = 1,600; dump fee at Quarry Pit (typed) |                       |
// |     |       |                        | 12×10 = 120; Ace alternate 100×10 (not counted)                    |                       |
// | B   | won   | 30 Jun 23:30 (in June) | Bolt Concrete sub 50×30 = 1,500; Tri-axle truck 95×8 = 760;        | Concrete 1,400        |
// |     | (Sam) |                        | Paver equipment 150×4 = 600; County Landfill dump fee 30×10 = 300  |                       |
// | C   | lost  | 20 Jun                 | Ace 100×5 (lost: not counted)                                      |                       |
// | D   | won   | 1 Jul 00:30 (July)     | Ace 100×3 (out of June)                                            |                       |
//
// Certifications: Ace Striping DBE and WBE, HMA Surface MBE, County Landfill SBE; Bolt, Tri-axle,
// Paver none.
import type { TestApp, Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

export interface WonSpend {
  w: Workspace;
  sam: { id: number; key: string; api: any };
  jobs: Record<string, number>;
}

export async function wonSpendWorkspace(t: TestApp): Promise<WonSpend> {
  const w = await t.workspace({
    timezone: 'America/Chicago',
    settings: { operations_enabled: true, crew_scheduling_enabled: true },
  });
  const sam = await t.user(w.firmId, { name: 'Sam Seller' });
  const item = async (kind: string, name: string, unit: string, unitCost: number, certifications?: string[]) =>
    (
      await ok(
        w.api.raw.post('/v1/catalog/items', {
          kind,
          name,
          unit,
          unit_cost: unitCost,
          ...(certifications ? { attributes: { certifications } } : {}),
        }),
      )
    ).data.id as number;
  const ace = await item('subcontractor', 'Ace Striping', 'EA', 100, ['DBE', 'WBE']);
  const bolt = await item('subcontractor', 'Bolt Concrete', 'SF', 50);
  const hma = await item('material', 'HMA Surface', 'TON', 80, ['MBE']);
  const truck = await item('truck', 'Tri-axle', 'HR', 95);
  const paver = await item('equipment', 'Paver', 'HR', 150);
  const landfill = await item('dump_site', 'County Landfill', 'TON', 30, ['SBE']);

  const jobs: Record<string, number> = {};
  async function job(
    name: string,
    status: string,
    decided: string,
    costLines: Record<string, unknown>[],
    costs: Record<string, unknown>[] = [],
    owner?: number,
  ) {
    const made = await ok(
      w.api.post('/v1/jobs', {
        name,
        address: '12 Elm St, Columbus, OH 43215',
        ...(owner ? { assigned_to_user_id: owner } : {}),
      }),
    );
    const id = made.data.id as number;
    jobs[name] = id;
    const est = await ok(w.api.post('/v1/estimates', { job_id: id }));
    await ok(
      w.api.post(`/v1/estimates/${est.data.id}/line-items`, {
        name: 'Lot work',
        unit: 'EA',
        quantity: 1,
        estimating_mode: 'detailed',
        cost_lines: costLines,
      }),
    );
    for (const c of costs) await ok(w.api.raw.post(`/v1/jobs/${id}/costs`, c));
    await ok(w.api.patch(`/v1/jobs/${id}`, { status }));
    await t.database.db.updateTable('jobs').set({ decided_at: decided }).where('id', '=', id).execute();
  }
  const sub = (catalogItemId: number, quantity: number, extra: Record<string, unknown> = {}) => ({
    type: 'subcontractor',
    catalog_item_id: catalogItemId,
    quantity_formula: String(quantity),
    ...extra,
  });
  await job(
    'A',
    'won',
    '2026-06-10T14:00:00.000000',
    [
      sub(ace, 10),
      { type: 'subcontractor', name: 'Joe Curb Co', unit: 'EA', unit_cost: 250, quantity_formula: '2' },
      { type: 'material', catalog_item_id: hma, quantity_formula: '20' },
      {
        type: 'misc',
        name: 'Dump fee',
        unit: 'TON',
        unit_cost: 12,
        quantity_formula: '10',
        dump_material: 'spoil',
        dump_site: { vendor_id: null, name: 'Quarry Pit' },
      },
      sub(ace, 10, { is_alternate: true }),
    ],
    [
      { cost_type: 'subcontract', cost_code: 'Striping', description: 'Ace invoice', amount: 1100, date: '2026-06-12' },
      { cost_type: 'material', cost_code: 'Asphalt', amount: 1500, date: '2026-06-12' },
    ],
  );
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  await job(
    'B',
    'won',
    '2026-07-01T04:30:00.000000',
    [
      sub(bolt, 30),
      { type: 'trucking', catalog_item_id: truck, quantity_formula: '8' },
      { type: 'equipment', catalog_item_id: paver, quantity_formula: '4' },
      { type: 'misc', catalog_item_id: landfill, quantity_formula: '10', dump_material: 'spoil' },
    ],
    [{ cost_type: 'subcontract', cost_code: 'Concrete', amount: 1400, date: '2026-07-02' }],
    sam.id,
  );
  await job('C', 'lost', '2026-06-20T14:00:00.000000', [sub(ace, 5)]);
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  await job('D', 'won', '2026-07-01T05:30:00.000000', [sub(ace, 3)]);
  return { w, sam, jobs };
}
