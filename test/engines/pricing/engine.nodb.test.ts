// One rule at a time (docs/pricing.md sections 3-10).
import { describe, expect, it } from 'vitest';
import {
  priceEstimate,
  PricingError,
  spreadCents,
  type EstimateInput,
  type LineInput,
} from '#engines/pricing/index.ts';

const pricing = { markup_method: 'markup' as const, markup_rate: 0.25, tax_rate: 0 };
const unit = (id: number, qty: number, unitCost: number, extra: Partial<LineInput> = {}): LineInput => ({
  id,
  estimating_mode: 'unit_costing',
  quantity: qty,
  unit_cost: unitCost,
  ...extra,
});
const est = (lines: LineInput[], extra: Partial<EstimateInput> = {}): EstimateInput => ({ pricing, lines, ...extra });
function errorOf(input: EstimateInput): PricingError {
  try {
    priceEstimate(input);
  } catch (e) {
    expect(e).toBeInstanceOf(PricingError);
    return e as PricingError;
  }
  throw new Error('no error');
}

describe('pricing methods', () => {
  it('cost lines follow the line, lines follow the estimate; null follows the parent', () => {
    const r = priceEstimate(
      est([
        {
          id: 1,
          estimating_mode: 'detailed',
          quantity: 10,
          pricing_method: 'margin',
          pricing_rate: 0.5,
          cost_lines: [
            { id: 1, type: 'crew', unit_cost: 10 }, // follows line: 100 / 0.5 = 200
            { id: 2, type: 'material', unit_cost: 10, pricing_method: 'markup' }, // markup at the line's rate 0.5: 150
            { id: 3, type: 'equipment', unit_cost: 10, pricing_rate: 0.2 }, // margin 0.2: 125
            { id: 4, type: 'misc', unit_cost: 10, pricing_method: 'markup', pricing_rate: 0 }, // 100
          ],
        },
        unit(2, 10, 10), // estimate: markup 25% -> 125
      ]),
    );
    expect(r.lines[0].cost_lines.map((c) => [c.pricing_method, c.pricing_rate, c.price])).toEqual([
      ['margin', 0.5, 200],
      ['markup', 0.5, 150],
      ['margin', 0.2, 125],
      ['markup', 0, 100],
    ]);
    expect(r.lines[0].price).toBe(575);
    expect(r.lines[1].price).toBe(125);
  });

  it('rounds a margin price half away from zero at the cent', () => {
    // 1.00 / 0.7 = 1.428571... -> 1.43 ; 0.10 * 1.05 = 0.105 -> 0.11
    const r = priceEstimate({
      pricing: { markup_method: 'margin', markup_rate: 0.3 },
      lines: [unit(1, 1, 1), unit(2, 1, 0.1, { pricing_method: 'markup', pricing_rate: 0.05 })],
    });
    expect(r.lines.map((l) => l.price)).toEqual([1.43, 0.11]);
    // negative adjustments round away from zero too
    const n = priceEstimate(est([unit(1, 1, -0.1, { pricing_rate: 0.05 }), unit(2, 1, 10)]));
    expect(n.lines[0].price).toBe(-0.11);
  });

  it('uses a unit price when the unit-costing line has one', () => {
    const r = priceEstimate(est([unit(1, 3, 2, { unit_price: 3.333 })]));
    expect([r.lines[0].cost, r.lines[0].price]).toEqual([6, 10]);
  });

  it('rejects a margin of 100% or a bad method', () => {
    expect(errorOf({ pricing: { markup_method: 'margin', markup_rate: 1 }, lines: [] }).code).toBe('bad_rate');
    expect(errorOf(est([unit(1, 1, 1, { pricing_method: 'margin', pricing_rate: 1.2 })])).path).toBe(
      'lines[0].pricing_rate',
    );
    expect(errorOf({ pricing: { markup_method: 'plus' as never, markup_rate: 1 }, lines: [] }).code).toBe('bad_method');
  });
});

describe('cost lines', () => {
  it('manual quantity replaces the formula; waste applies to both; quantities round to 4 decimals', () => {
    const r = priceEstimate(
      est([
        {
          id: 1,
          estimating_mode: 'detailed',
          quantity: 100,
          unit: 'SF',
          cost_lines: [
            { id: 1, type: 'material', unit_cost: 1, quantity_formula: 'quantity / 3', waste_factor: 0.1 }, // 36.6667
            {
              id: 2,
              type: 'material',
              unit_cost: 1,
              quantity_formula: 'quantity / 3',
              manual_quantity: 40,
              waste_factor: 0.1,
            }, // 44
            { id: 3, type: 'crew', unit_cost: 2 }, // line quantity 100
          ],
        },
      ]),
    );
    const c = r.lines[0].cost_lines;
    expect([c[0].base_quantity, c[0].quantity, c[0].cost]).toEqual([33.3333, 36.6667, 36.67]);
    expect([c[1].base_quantity, c[1].quantity, c[1].cost]).toEqual([40, 44, 44]);
    expect([c[2].quantity, c[2].cost]).toEqual([100, 200]);
  });

  it('leaves alternates and suppressed cost lines out of the line but shows their numbers', () => {
    const r = priceEstimate(
      est([
        {
          id: 1,
          estimating_mode: 'detailed',
          quantity: 1,
          cost_lines: [
            { id: 1, type: 'crew', unit_cost: 100 },
            { id: 2, type: 'crew', unit_cost: 70, is_alternate: true },
            { id: 3, type: 'misc', unit_cost: 30, suppressed: true },
            { id: 4, type: 'overhead', unit_cost: 5, billing: 'internal_only' },
          ],
        },
      ]),
    );
    expect(r.lines[0].cost_lines.map((c) => [c.cost, c.price, c.included])).toEqual([
      [100, 125, true],
      [70, 87.5, false],
      [30, 37.5, false],
      [5, 6.25, true],
    ]);
    expect([r.lines[0].cost, r.lines[0].price]).toEqual([105, 131.25]);
  });

  it('reports formula errors with the path of the cost line', () => {
    const bad = (formula: string) =>
      errorOf(
        est([
          {
            id: 1,
            estimating_mode: 'detailed',
            quantity: 1,
            cost_lines: [{ id: 9, type: 'crew', unit_cost: 1, quantity_formula: formula }],
          },
        ]),
      );
    const e = bad('quantity * depth_in');
    expect(e.code).toBe('formula_missing_variable');
    expect(e.path).toBe('lines[0].cost_lines[0].quantity_formula');
    expect(bad('eval(1)').code).toBe('formula_unknown_function');
    expect(bad('1 +').code).toBe('formula_syntax');
  });
});

describe('trucking and dump fees', () => {
  const haulLine = (haul: object, tons = 100): LineInput => ({
    id: 1,
    estimating_mode: 'detailed',
    quantity: tons,
    cost_lines: [
      {
        id: 1,
        type: 'trucking',
        unit_cost: 100,
        haul: { material: 'millings', truck_capacity_tons: 20, ...haul } as never,
      },
    ],
  });
  it('plain and plant round trips: loads × (2 × drive + load/unload)', () => {
    for (const route of [null, { kind: 'plant_round_trip' }]) {
      const h = priceEstimate(est([haulLine({ drive_hr: 0.75, load_unload_hr: 0.25, route }, 101)])).lines[0]
        .cost_lines[0];
      expect(h.haul).toMatchObject({ loads: 6, cycle_hr: 1.75, truck_hours: 10.5, route_kind: 'plant_round_trip' });
      expect(h.cost).toBe(1050);
    }
  });
  it('dump round trip and three-leg routes', () => {
    const d = priceEstimate(est([haulLine({ drive_hr: 0.4, route: { kind: 'dump_round_trip' } }, 40)])).lines[0]
      .cost_lines[0];
    expect(d.haul).toMatchObject({ loads: 2, cycle_hr: 0.8, truck_hours: 1.6, route_kind: 'dump_round_trip' });
    const t = priceEstimate(
      est([haulLine({ route: { kind: 'three_leg', legs_hr: [0.5, 0.333, 0.25] }, load_unload_hr: 0.3 }, 60)]),
    ).lines[0].cost_lines[0];
    expect(t.haul).toMatchObject({ loads: 3, cycle_hr: 1.383, truck_hours: 4.15 }); // 3 × 1.383 = 4.149 -> 4.15
    expect(t.cost).toBe(415);
  });
  it('needs a drive time (automatic or typed) and valid legs', () => {
    expect(errorOf(est([haulLine({ automatic_driving_time: true })])).code).toBe('drive_time_missing');
    expect(errorOf(est([haulLine({ route: { kind: 'three_leg', legs_hr: [1, 2] } })])).code).toBe('bad_route');
    expect(errorOf(est([haulLine({ drive_hr: 1, truck_capacity_tons: 0 })])).code).toBe('bad_haul');
    expect(errorOf(est([haulLine({ drive_hr: 1, route: { kind: 'teleport' } })])).code).toBe('bad_route');
  });
  it('a dump fee is tons × fee per ton', () => {
    const r = priceEstimate(
      est([
        {
          id: 1,
          estimating_mode: 'detailed',
          quantity: 1000,
          inputs: { depth_in: 1.5 },
          cost_lines: [
            {
              id: 1,
              type: 'misc',
              unit: 'ton',
              unit_cost: 12.5,
              dump_material: 'millings',
              quantity_formula: 'quantity * depth_in * 110 / 2000',
            },
          ],
        },
      ]),
    );
    expect([r.lines[0].cost_lines[0].quantity, r.lines[0].cost_lines[0].cost]).toEqual([82.5, 1031.25]);
  });
});

describe('job-level costs, minimum and rounding', () => {
  it('counts mobilization, overhead, contingency and bond in cost, not in line costs', () => {
    const r = priceEstimate({
      pricing: { markup_method: 'markup', markup_rate: 0.2, contingency_rate: 0.05, tax_rate: 0 },
      job_costs: { mobilization: 500, overhead_amount: 100, overhead_rate: 0.1, bond_rate: 0.01 },
      lines: [unit(1, 100, 10), unit(2, 1, 1000)],
    });
    // lines cost 2000, price 2400; overhead 100 + 200 = 300 -> 360; contingency 5% × 2800 = 140 -> 168; mob 500 -> 600
    expect(r.job_costs.map((j) => [j.kind, j.cost, j.price])).toEqual([
      ['mobilization', 500, 600],
      ['overhead', 300, 360],
      ['contingency', 140, 168],
      ['bond', 35.28, 35.28],
    ]);
    expect(r.totals.subtotal).toBe(3563.28);
    expect(r.totals.cost).toBe(2975.28);
    expect(r.lines.map((l) => l.cost)).toEqual([1000, 1000]);
    expect(r.lines.reduce((s, l) => s + l.allocated_price!, 0)).toBeCloseTo(3563.28, 6);
  });

  it('raises the subtotal to the minimum charge and spreads the uplift', () => {
    const r = priceEstimate({
      pricing: { ...pricing, minimum_charge: 500, tax_rate: 0.1 },
      lines: [unit(1, 1, 100), unit(2, 1, 200)],
    });
    expect(r.job_costs).toEqual([expect.objectContaining({ kind: 'minimum_charge', cost: 0, price: 125 })]);
    expect([r.totals.subtotal, r.totals.tax, r.totals.price, r.totals.cost, r.totals.margin]).toEqual([
      500, 50, 550, 300, 200,
    ]);
    expect(r.lines.map((l) => l.allocated_price)).toEqual([166.67, 333.33]);
    // no lines, no minimum
    expect(priceEstimate({ pricing: { ...pricing, minimum_charge: 500 }, lines: [] }).totals.subtotal).toBe(0);
  });

  it('rounds the subtotal up (or to the nearest) increment as price without cost', () => {
    const up = priceEstimate(est([unit(1, 1, 1001)], { job_costs: { rounding: { increment: 50 } } }));
    expect(up.totals.subtotal).toBe(1300); // 1251.25 -> 1300
    expect(up.job_costs[0]).toMatchObject({ kind: 'rounding', cost: 0, price: 48.75 });
    const near = priceEstimate(
      est([unit(1, 1, 1001)], { job_costs: { rounding: { increment: 50, mode: 'nearest' } } }),
    );
    expect(near.totals.subtotal).toBe(1250);
  });
});

describe('optional, hidden, bundles, overrides, tax', () => {
  it('hidden lines are counted and spread into listed lines', () => {
    const r = priceEstimate(est([unit(1, 1, 100), unit(2, 1, 300), unit(3, 1, 40, { hide_on_proposal: true })]));
    expect(r.totals.subtotal).toBe(550);
    const [a, b, h] = r.lines;
    expect([a.allocated_price, b.allocated_price, h.allocated_price, h.listed, h.counted]).toEqual([
      137.5,
      412.5,
      null,
      false,
      true,
    ]);
  });

  it('a bundle master rolls up its sub-lines and counts once', () => {
    const r = priceEstimate(
      est([
        { id: 10, estimating_mode: 'detailed', quantity: 1, is_bundle_master: true },
        unit(11, 1, 100, { bundle_parent_service_id: 10 }),
        unit(12, 2, 50, { bundle_parent_service_id: 10, pricing_rate: 0.5 }),
        unit(13, 1, 10),
      ]),
    );
    const m = r.lines[0];
    expect([m.cost, m.price, m.bundle_child_service_ids, m.counted, m.listed]).toEqual([
      200,
      275,
      [11, 12],
      true,
      true,
    ]);
    expect(r.lines[1]).toMatchObject({ counted: false, listed: false, bundle_parent_service_id: 10 });
    expect([r.totals.cost, r.totals.subtotal]).toEqual([210, 287.5]);
    // the master's allocated price is shared by its sub-lines
    expect(r.lines[1].allocated_price! + r.lines[2].allocated_price!).toBe(m.allocated_price);
  });

  it('rejects broken bundles and duplicate ids', () => {
    expect(errorOf(est([unit(1, 1, 1, { bundle_parent_service_id: 99 })])).code).toBe('bad_bundle');
    expect(errorOf(est([unit(1, 1, 1), unit(2, 1, 1, { bundle_parent_service_id: 1 })])).code).toBe('bad_bundle');
    expect(errorOf(est([unit(1, 1, 1), unit(1, 1, 1)])).code).toBe('duplicate_id');
  });

  it('price_override pins the shown price and spreads the difference over the other lines', () => {
    const r = priceEstimate(est([unit(1, 1, 100), unit(2, 1, 200), unit(3, 1, 300, { price_override: 300 })]));
    // prices 125, 250, 375 = 750; line 3 shows 300; 75 goes to lines 1 and 2 by 125:250
    expect(r.lines.map((l) => [l.price, l.allocated_price])).toEqual([
      [125, 150],
      [250, 300],
      [375, 300],
    ]);
    expect(r.totals.subtotal).toBe(750);
    expect(r.lines[2].margin).toBe(75); // the line's own price and margin do not change
  });

  it('largest remainder: shares sum exactly, ties to the lower id', () => {
    const s = spreadCents(100n, [
      { id: 3, weight: 1n },
      { id: 1, weight: 1n },
      { id: 2, weight: 1n },
    ]);
    expect([s.get('number:1'), s.get('number:2'), s.get('number:3')]).toEqual([34n, 33n, 33n]);
    const n = spreadCents(-100n, [
      { id: 'a', weight: 5n },
      { id: 'b', weight: 0n },
    ]);
    expect([n.get('string:a'), n.get('string:b')]).toEqual([-100n, 0n]);
  });

  it('warns and ignores pins when nothing else can take the difference', () => {
    const r = priceEstimate(est([unit(1, 1, 100, { price_override: 100 })], { job_costs: { mobilization: 10 } }));
    expect(r.lines[0].allocated_price).toBe(r.totals.subtotal);
    expect(r.warnings.join(' ')).toMatch(/price_override/);
  });

  it('charges tax only on taxable lines, including the job money they carry', () => {
    const r = priceEstimate({
      pricing: { ...pricing, tax_rate: 0.1 },
      job_costs: { mobilization: 80 },
      lines: [unit(1, 1, 100), unit(2, 1, 300, { taxable: false })],
    });
    // prices 125 + 375, mobilization 100 -> 600; line 1 carries 25 of it -> 150 taxable
    expect([r.taxable_subtotal, r.totals.tax, r.totals.price]).toEqual([150, 15, 615]);
  });

  it('margin_pct is null when price is zero', () => {
    const r = priceEstimate(est([unit(1, 0, 10)]));
    expect([
      r.lines[0].margin_pct,
      r.lines[0].unit_price,
      r.totals.margin_pct,
      r.totals.margin_pct_of_subtotal,
    ]).toEqual([null, null, null, null]);
  });

  it('margin_pct is a fraction of price, the total including tax (document 3); the pre-tax figure has its own field', () => {
    // $74.56 cost sold for $100.00 at 8% tax: margin $25.44 of a $108.00 price.
    const r = priceEstimate({
      pricing: { ...pricing, tax_rate: 0.08 },
      lines: [unit(1, 1, 74.56, { unit_price: 100 })],
    });
    expect([r.totals.subtotal, r.totals.tax, r.totals.price, r.totals.margin]).toEqual([100, 8, 108, 25.44]);
    expect(r.totals.margin_pct).toBe(0.2356); // 25.44 ÷ 108 = 0.23555… (half away from zero)
    expect(r.totals.margin_pct_of_subtotal).toBe(0.2544); // 25.44 ÷ 100
    // A line's price carries no tax: its margin % is of that price.
    expect(r.lines[0].margin_pct).toBe(0.2544);
    // Without tax the two agree.
    const untaxed = priceEstimate(est([unit(1, 1, 74.56, { unit_price: 100 })]));
    expect([untaxed.totals.margin_pct, untaxed.totals.margin_pct_of_subtotal]).toEqual([0.2544, 0.2544]);
  });
});
