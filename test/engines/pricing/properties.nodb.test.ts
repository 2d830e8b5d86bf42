// Property tests (fast-check) for the invariants of issue 5's "Proof" section.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  priceEstimate,
  type CostLineInput,
  type EstimateInput,
  type EstimateResult,
  type HaulInput,
  type LineInput,
  type PricingMethod,
} from '#engines/pricing/index.ts';

const cents = (d: number) => Math.round(d * 100);
const money = fc.integer({ min: 0, max: 2_000_000 }).map((c) => c / 100);
const qty = fc.integer({ min: 0, max: 500_000 }).map((c) => c / 100);
// markup rates r whose margin equivalent r/(1+r) is an exact decimal: 1 + r = 2^c 5^d / (2^a 5^b)
const EXACT_PAIRS: [number, number][] = [
  [0, 0],
  [0.25, 0.2],
  [1, 0.5],
  [0.6, 0.375],
  [0.28, 0.21875],
  [0.5625, 0.36],
  [3, 0.75],
  [0.024, 0.0234375],
  [0.25, 0.2],
  [0.5, 1 / 3],
].filter(([r, m]) => Math.abs(r / (1 + r) - m) < 1e-15 && String(m).length < 12) as [number, number][];
const rate = fc.constantFrom(...EXACT_PAIRS.map(([r]) => r));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 2 });

const costLineArb = fc.record({
  type: fc.constantFrom('crew', 'equipment', 'material', 'misc', 'subcontractor') as fc.Arbitrary<
    CostLineInput['type']
  >,
  unit_cost: money,
  quantity_formula: fc.constantFrom(
    null,
    'quantity',
    'ceil(quantity / 800)',
    'quantity * depth_in * 110 / 2000',
    'max(1, round(quantity / 7, 2))',
  ),
  manual_quantity: maybe(qty),
  waste_factor: maybe(fc.constantFrom(0.05, 0.1, 0.125)),
  pricing_method: maybe(fc.constantFrom<PricingMethod>('markup')),
  pricing_rate: maybe(rate),
  is_alternate: fc.boolean(),
  suppressed: fc.boolean(),
});

const lineBody = fc.record({
  mode: fc.constantFrom('detailed', 'unit_costing') as fc.Arbitrary<'detailed' | 'unit_costing'>,
  quantity: qty,
  unit_cost: money,
  unit_price: maybe(money),
  pricing_rate: maybe(rate),
  is_optional: fc.boolean(),
  hide_on_proposal: fc.boolean(),
  taxable: fc.boolean(),
  price_override: fc.option(money, { nil: null, freq: 5 }),
  cost_lines: fc.array(costLineArb, { maxLength: 4 }),
});
type Body = typeof lineBody extends fc.Arbitrary<infer T> ? T : never;

const groupArb = fc.oneof(
  { weight: 4, arbitrary: lineBody.map((b) => ({ master: null as Body | null, lines: [b] })) },
  { weight: 1, arbitrary: fc.record({ master: lineBody, lines: fc.array(lineBody, { minLength: 1, maxLength: 3 }) }) },
);

let nextClId = 1;
function toLine(id: number, b: Body, extra: Partial<LineInput> = {}): LineInput {
  return {
    id,
    estimating_mode: b.mode,
    quantity: b.quantity,
    unit_cost: b.unit_cost,
    unit_price: b.unit_price,
    pricing_rate: b.pricing_rate,
    is_optional: b.is_optional,
    hide_on_proposal: b.hide_on_proposal,
    taxable: b.taxable,
    price_override: b.price_override,
    inputs: { depth_in: 2 },
    cost_lines: b.cost_lines.map((c) => ({ id: nextClId++, ...c })),
    ...extra,
  };
}

const estimateArb = fc
  .record({
    method: fc.constantFrom<PricingMethod>('markup'),
    rate,
    contingency_rate: maybe(fc.constantFrom(0.05, 0.1)),
    tax_rate: fc.constantFrom(0, 0.07, 0.0825, 0.06),
    minimum_charge: maybe(money),
    mobilization: maybe(money),
    overhead_amount: maybe(money),
    overhead_rate: maybe(fc.constantFrom(0.03, 0.1)),
    bond_rate: maybe(fc.constantFrom(0.01, 0.015)),
    rounding: maybe(
      fc.record({
        increment: fc.constantFrom(1, 10, 50, 100),
        mode: fc.constantFrom<'up' | 'nearest'>('up', 'nearest'),
      }),
    ),
    groups: fc.array(groupArb, { maxLength: 6 }),
  })
  .map((g): EstimateInput => {
    nextClId = 1;
    let id = 1;
    const lines: LineInput[] = [];
    for (const group of g.groups) {
      if (group.master) {
        const masterId = id++;
        lines.push(toLine(masterId, group.master, { is_bundle_master: true, cost_lines: [] }));
        for (const child of group.lines)
          lines.push(
            toLine(id++, child, {
              bundle_parent_service_id: masterId,
              is_optional: group.master.is_optional,
              taxable: group.master.taxable,
            }),
          );
      } else lines.push(toLine(id++, group.lines[0]));
    }
    return {
      pricing: {
        markup_method: g.method,
        markup_rate: g.rate,
        contingency_rate: g.contingency_rate,
        tax_rate: g.tax_rate,
        minimum_charge: g.minimum_charge,
      },
      job_costs: {
        mobilization: g.mobilization,
        overhead_amount: g.overhead_amount,
        overhead_rate: g.overhead_rate,
        bond_rate: g.bond_rate,
        rounding: g.rounding,
      },
      lines,
    };
  });

const totalsCents = (r: EstimateResult) => ({
  price: cents(r.totals.price),
  subtotal: cents(r.totals.subtotal),
  tax: cents(r.totals.tax),
  cost: cents(r.totals.cost),
  optional: cents(r.totals.optional_total),
});
const RUNS = { numRuns: 300 };

describe('pricing engine properties', () => {
  it('price = subtotal + tax, and margin = subtotal − cost', () => {
    fc.assert(
      fc.property(estimateArb, (input) => {
        const r = priceEstimate(input);
        expect(cents(r.totals.price)).toBe(cents(r.totals.subtotal) + cents(r.totals.tax));
        expect(cents(r.totals.margin)).toBe(cents(r.totals.subtotal) - cents(r.totals.cost));
        for (const v of [
          r.totals.price,
          r.totals.subtotal,
          r.totals.tax,
          r.totals.cost,
          ...r.lines.flatMap((l) => [l.price, l.cost, l.allocated_price ?? 0]),
        ]) {
          expect(String(v)).toMatch(/^-?\d+(\.\d{1,2})?$/); // whole cents in the JSON text
        }
      }),
      RUNS,
    );
  });

  it('margin_pct is margin ÷ price (tax included) and margin_pct_of_subtotal margin ÷ subtotal, each to 4 decimals', () => {
    // Exact reference: integer cents, half away from zero at the 4th decimal.
    const fraction4 = (part: number, whole: number): number | null => {
      if (whole === 0) return null;
      const n = BigInt(part) * 10000n;
      const d = BigInt(whole);
      const negative = n < 0n !== d < 0n;
      const [a, b] = [n < 0n ? -n : n, d < 0n ? -d : d];
      const q = (2n * a + b) / (2n * b);
      return Number(negative ? -q : q) / 10000;
    };
    fc.assert(
      fc.property(estimateArb, (input) => {
        const r = priceEstimate(input);
        const t = r.totals;
        expect(t.margin_pct).toBe(fraction4(cents(t.margin), cents(t.price)));
        expect(t.margin_pct_of_subtotal).toBe(fraction4(cents(t.margin), cents(t.subtotal)));
        if (cents(t.tax) === 0) expect(t.margin_pct).toBe(t.margin_pct_of_subtotal);
        for (const l of r.lines) expect(l.margin_pct).toBe(fraction4(cents(l.margin), cents(l.price)));
      }),
      RUNS,
    );
  });

  it('allocated prices of the listed lines sum to the subtotal to the cent', () => {
    fc.assert(
      fc.property(estimateArb, (input) => {
        const r = priceEstimate(input);
        const listed = r.lines.filter((l) => l.listed && l.counted);
        if (listed.length === 0) return;
        expect(listed.reduce((s, l) => s + cents(l.allocated_price!), 0)).toBe(cents(r.totals.subtotal));
        // a bundle's sub-lines share exactly the master's allocated price
        for (const m of r.lines.filter((l) => l.is_bundle_master && l.allocated_price !== null)) {
          const kids = r.lines.filter((l) => l.bundle_parent_service_id === m.id);
          expect(kids.reduce((s, l) => s + cents(l.allocated_price!), 0)).toBe(cents(m.allocated_price!));
        }
      }),
      RUNS,
    );
  });

  it('optional lines, alternates and suppressed cost lines never move the price', () => {
    fc.assert(
      fc.property(estimateArb, money, (input, newCost) => {
        const before = totalsCents(priceEstimate(input));
        // change every optional/alternate/suppressed number
        const changed: EstimateInput = {
          ...input,
          lines: input.lines!.map((l) => ({
            ...l,
            unit_cost: l.is_optional ? newCost : l.unit_cost,
            cost_lines: l.cost_lines!.map((c) =>
              l.is_optional || c.is_alternate || c.suppressed ? { ...c, unit_cost: newCost, manual_quantity: 3 } : c,
            ),
          })),
        };
        const after = totalsCents(priceEstimate(changed));
        expect({ ...after, optional: 0 }).toEqual({ ...before, optional: 0 });
        // and removing them altogether
        const removed: EstimateInput = {
          ...input,
          lines: input
            .lines!.filter((l) => !l.is_optional)
            .map((l) => ({ ...l, cost_lines: l.cost_lines!.filter((c) => !c.is_alternate && !c.suppressed) })),
        };
        const gone = totalsCents(priceEstimate(removed));
        expect({ ...gone, optional: 0 }).toEqual({ ...before, optional: 0 });
        expect(gone.optional).toBe(0);
      }),
      RUNS,
    );
  });

  it('a bundle counts once: the same totals as its sub-lines on their own', () => {
    fc.assert(
      fc.property(estimateArb, (input) => {
        const r = priceEstimate(input);
        const byId = new Map(r.lines.map((l) => [l.id, l]));
        for (const m of r.lines.filter((l) => l.is_bundle_master)) {
          const kids = m.bundle_child_service_ids.map((id) => byId.get(id)!);
          expect(cents(m.price)).toBe(kids.reduce((s, k) => s + cents(k.price), 0));
          expect(cents(m.cost)).toBe(kids.reduce((s, k) => s + cents(k.cost), 0));
        }
        const counted = r.lines.filter((l) => l.counted);
        const jobCost = r.job_costs.reduce((s, j) => s + cents(j.cost), 0);
        expect(cents(r.totals.cost)).toBe(counted.reduce((s, l) => s + cents(l.cost), 0) + jobCost);
        // flatten: drop the masters and promote their sub-lines; totals (before tax) do not change
        const flat: EstimateInput = {
          ...input,
          lines: input
            .lines!.filter((l) => !l.is_bundle_master)
            .map((l) => ({
              ...l,
              bundle_parent_service_id: null,
              price_override: null,
              hide_on_proposal:
                l.bundle_parent_service_id == null
                  ? l.hide_on_proposal
                  : input.lines!.find((m) => m.id === l.bundle_parent_service_id)!.hide_on_proposal,
            })),
        };
        const noPins: EstimateInput = { ...input, lines: input.lines!.map((l) => ({ ...l, price_override: null })) };
        const a = totalsCents(priceEstimate(noPins));
        const b = totalsCents(priceEstimate(flat));
        expect([b.subtotal, b.cost, b.optional]).toEqual([a.subtotal, a.cost, a.optional]);
      }),
      RUNS,
    );
  });

  it('a markup of r on cost prices exactly like a margin of r / (1 + r)', () => {
    const toMargin = new Map(EXACT_PAIRS);
    fc.assert(
      fc.property(estimateArb, (input) => {
        const swap = <T extends { pricing_method?: PricingMethod | null; pricing_rate?: number | null }>(x: T): T => ({
          ...x,
          pricing_method: x.pricing_method == null ? x.pricing_method : 'margin',
          pricing_rate: x.pricing_rate == null ? x.pricing_rate : toMargin.get(x.pricing_rate)!,
        });
        const margin: EstimateInput = {
          ...input,
          pricing: { ...input.pricing, markup_method: 'margin', markup_rate: toMargin.get(input.pricing.markup_rate)! },
          lines: input.lines!.map((l) => ({ ...swap(l), cost_lines: l.cost_lines!.map((c) => swap(c)) })),
        };
        const a = priceEstimate(input);
        const b = priceEstimate(margin);
        expect(totalsCents(b)).toEqual(totalsCents(a));
        expect(b.lines.map((l) => [l.price, l.allocated_price])).toEqual(
          a.lines.map((l) => [l.price, l.allocated_price]),
        );
      }),
      RUNS,
    );
  });

  it('results do not depend on line or cost-line order', () => {
    fc.assert(
      fc.property(estimateArb, fc.integer(), (input, seed) => {
        const shuffle = <T>(xs: T[]): T[] => {
          const out = [...xs];
          let s = seed >>> 0;
          for (let i = out.length - 1; i > 0; i--) {
            s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
            const j = s % (i + 1);
            [out[i], out[j]] = [out[j], out[i]];
          }
          return out;
        };
        const shuffled: EstimateInput = {
          ...input,
          lines: shuffle(input.lines!).map((l) => ({ ...l, cost_lines: shuffle(l.cost_lines!) })),
        };
        const norm = (r: EstimateResult) => ({
          totals: r.totals,
          job_costs: r.job_costs,
          lines: [...r.lines]
            .sort((x, y) => Number(x.id) - Number(y.id))
            .map((l) => ({ ...l, cost_lines: [...l.cost_lines].sort((x, y) => Number(x.id) - Number(y.id)) })),
        });
        expect(norm(priceEstimate(shuffled))).toEqual(norm(priceEstimate(input)));
      }),
      RUNS,
    );
  });

  // Writes price with `explain: false` and a line read builds the line's texts from the line alone
  // (estimates/calculation.ts, explainLine): both must say exactly what a whole run says.
  const haulArb = fc.record({
    material: fc.constantFrom<'asphalt' | 'millings' | 'spoil'>('asphalt', 'millings', 'spoil'),
    truck_capacity_tons: fc.constantFrom(12, 16, 22.5),
    drive_hr: fc.constantFrom(0.25, 0.6, 1.1),
    load_unload_hr: maybe(fc.constantFrom(0.2, 0.35)),
    route: fc.constantFrom<HaulInput['route']>(
      null,
      { kind: 'dump_round_trip' },
      { kind: 'three_leg', legs_hr: [0.4, 0.3, 0.55] },
    ),
  });
  /** The estimates above, some cost lines made trucking hauls, some lines given a unit. */
  const withHauls = fc
    .tuple(estimateArb, fc.array(fc.option(haulArb, { nil: null }), { maxLength: 12 }))
    .map(([input, hauls]): EstimateInput => {
      let k = 0;
      const lines = input.lines!.map((line) => ({
        ...line,
        unit: Number(line.id) % 2 === 0 ? 'sq ft' : null,
        cost_lines: (line.cost_lines ?? []).map((cl): CostLineInput => {
          const haul = hauls[k++ % Math.max(1, hauls.length)] ?? null;
          return haul ? { ...cl, type: 'trucking', unit: 'ton', haul } : cl;
        }),
      }));
      return { ...input, lines };
    });
  const textsOf = (r: EstimateResult) =>
    r.lines.map((l) => ({ id: l.id, explain: l.explain, cost_lines: l.cost_lines.map((c) => [c.id, c.explain]) }));
  const withoutTexts = (r: EstimateResult) => ({
    ...r,
    lines: r.lines.map((l) => ({ ...l, explain: '', cost_lines: l.cost_lines.map((c) => ({ ...c, explain: '' })) })),
  });

  it("explain: false changes nothing but the lines' and cost lines' texts, which it leaves empty", () => {
    fc.assert(
      fc.property(withHauls, (input) => {
        const full = priceEstimate(input);
        const numbers = priceEstimate(input, { explain: false });
        expect(numbers).toEqual(withoutTexts(full));
        for (const l of numbers.lines) {
          expect(l.explain).toBe('');
          for (const c of l.cost_lines) expect(c.explain).toBe('');
        }
        for (const l of full.lines) expect(l.explain).not.toBe('');
      }),
      RUNS,
    );
  });

  it('a line priced alone, with its sub-lines when a bundle master, writes the texts the whole estimate writes', () => {
    fc.assert(
      fc.property(withHauls, (input) => {
        const whole = textsOf(priceEstimate(input));
        const lines = input.lines!;
        for (const line of lines) {
          const subLines = line.is_bundle_master ? lines.filter((l) => l.bundle_parent_service_id === line.id) : [];
          const alone = priceEstimate({
            pricing: { markup_method: input.pricing!.markup_method, markup_rate: input.pricing!.markup_rate },
            lines: [{ ...line, bundle_parent_service_id: null }, ...subLines],
          });
          expect(textsOf(alone)[0]).toEqual(whole.find((t) => t.id === line.id));
        }
      }),
      RUNS,
    );
  });
});
