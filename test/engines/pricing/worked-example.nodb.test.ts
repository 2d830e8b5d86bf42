// docs/pricing.md section 11, number by number.
import { describe, expect, it } from 'vitest';
import { priceEstimate } from '#engines/pricing/index.ts';
import { plazaExample } from './worked-example.fixture.ts';

describe('worked example: Maple Street Plaza (docs/pricing.md §11)', () => {
  const r = priceEstimate(plazaExample);
  const line = (id: number) => r.lines.find((l) => l.id === id)!;
  const cl = (id: number) => line(101).cost_lines.find((c) => c.id === id)!;

  it('costs and prices each cost line of the overlay', () => {
    expect([cl(1).quantity, cl(1).cost, cl(1).price]).toEqual([2, 3700, 4810]);
    expect([cl(2).quantity, cl(2).cost, cl(2).price]).toEqual([2, 2300, 2990]);
    expect([cl(3).base_quantity, cl(3).quantity, cl(3).cost, cl(3).price]).toEqual([132, 138.6, 10880.1, 14144.13]);
    expect(cl(4).haul).toEqual({
      material: 'asphalt',
      route_kind: 'plant_round_trip',
      tons: 138.6,
      truck_capacity_tons: 18,
      loads: 8,
      cycle_hr: 1.7,
      truck_hours: 13.6,
    });
    expect([cl(4).quantity, cl(4).unit, cl(4).cost, cl(4).price]).toEqual([13.6, 'hr', 1292, 1679.6]);
    expect([cl(5).included, cl(5).cost, cl(5).price]).toEqual([false, 450, 585]);
    expect(cl(3).explain).toContain('× (1 + 5% waste) = 138.6');
  });

  it('rolls the overlay line up', () => {
    const l = line(101);
    expect([l.cost, l.price, l.margin, l.margin_pct, l.unit_cost, l.unit_price]).toEqual([
      18172.1, 23623.73, 5451.63, 0.2308, 15.1434, 19.6864,
    ]);
  });

  it('prices the crack seal at its own 35% margin', () => {
    const l = line(102);
    expect([l.cost, l.price, l.margin, l.margin_pct, l.unit_price]).toEqual([722.5, 1111.54, 389.04, 0.35, 1.3077]);
    expect(l.pricing_method).toBe('margin');
  });

  it('keeps the optional sealcoat out of the price', () => {
    const l = line(103);
    expect([l.cost, l.price, l.margin_pct, l.allocated_price, l.counted]).toEqual([1140, 1980, 0.4242, 1980, false]);
    expect(r.totals.optional_total).toBe(1980);
  });

  it('adds mobilization, tax and totals', () => {
    expect(r.lines_cost).toBe(18894.6);
    expect(r.lines_price).toBe(24735.27);
    expect(r.job_costs).toEqual([expect.objectContaining({ kind: 'mobilization', cost: 850, price: 1105 })]);
    expect(r.totals).toEqual({
      price: 27649.09,
      subtotal: 25840.27,
      tax: 1808.82,
      cost: 19744.6,
      margin: 6095.67,
      margin_pct: 0.2205,
      margin_pct_of_subtotal: 0.2359,
      optional_total: 1980,
    });
    expect(r.warnings).toEqual([]);
  });

  it('spreads the mobilization price into allocated prices to the cent', () => {
    expect(line(101).allocated_price).toBe(24679.07);
    expect(line(102).allocated_price).toBe(1161.2);
    expect(Math.round((line(101).allocated_price! + line(102).allocated_price!) * 100)).toBe(2584027);
  });
});
