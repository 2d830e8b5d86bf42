// Work done from work orders (billing/online-payments/work-done.ts): reference cases worked by
// hand, then properties over random jobs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContractLine, workDonePercent } from '#billing/online-payments/work-done.ts';
import type { WorkOrderProgress } from '#operations/index.ts';

const wo = (o: Partial<WorkOrderProgress>): WorkOrderProgress => ({
  lineId: null,
  planned: null,
  reported: 0,
  completed: false,
  completedQty: null,
  ...o,
});

// Sealcoat 8,000 SF at $2,400.00 and striping 40 stalls at $600.00: $3,000.00 of priced lines.
const lines: ContractLine[] = [
  { lineId: 1, quantity: 8000, priceCents: 240_000 },
  { lineId: 2, quantity: 40, priceCents: 60_000 },
];

describe('workDonePercent', () => {
  it('is null with no work orders, or nothing priced', () => {
    expect(workDonePercent(lines, [])).toBeNull();
    expect(workDonePercent([], [wo({ completed: true })])).toBeNull();
  });

  it("weighs each line's completed quantity by its price", () => {
    // 3,000 of 8,000 SF reported: 2,400 × 3/8 = 900 of 3,000 → 30%.
    expect(workDonePercent(lines, [wo({ lineId: 1, planned: 8000, reported: 3000 })])).toBe(30);
    // Striping completed at its planned 40: + 600 → 1,500 of 3,000 → 50%.
    expect(
      workDonePercent(lines, [
        wo({ lineId: 1, planned: 8000, reported: 3000 }),
        wo({ lineId: 2, planned: 40, completed: true }),
      ]),
    ).toBe(50);
  });

  it('adds up several visits on one line and caps the line at its price', () => {
    const twoVisits = [
      wo({ lineId: 1, planned: 4000, completed: true, completedQty: 4000 }),
      wo({ lineId: 1, planned: 4000, reported: 1000 }),
    ];
    // 5,000 of 8,000 SF: 2,400 × 5/8 = 1,500 of 3,000 → 50%.
    expect(workDonePercent(lines, twoVisits)).toBe(50);
    // Reported past the line's quantity: the line counts once, whole (2,400 of 3,000 → 80%).
    expect(workDonePercent(lines, [wo({ lineId: 1, reported: 9000 })])).toBe(80);
  });

  it('a completed visit counts its completed quantity, else its plan, else the whole line', () => {
    expect(workDonePercent(lines, [wo({ lineId: 1, planned: 8000, completed: true, completedQty: 2000 })])).toBe(20);
    expect(workDonePercent(lines, [wo({ lineId: 1, planned: 6000, completed: true })])).toBe(60);
    expect(workDonePercent(lines, [wo({ lineId: 1, completed: true })])).toBe(80);
  });

  it('visits on no line share what the linked lines do not cover', () => {
    // Nothing linked: two visits share all 3,000; one done → 50%.
    expect(workDonePercent(lines, [wo({ completed: true }), wo({})])).toBe(50);
    // Striping is linked (600, half done = 300); the other 2,400 is shared by two visits, one of
    // them 1/4 done by its reports: 2,400 × (1 + 0.25) / 2 = 1,500. 1,800 of 3,000 → 60%.
    expect(
      workDonePercent(lines, [
        wo({ lineId: 2, planned: 40, reported: 20 }),
        wo({ completed: true }),
        wo({ planned: 100, reported: 25 }),
      ]),
    ).toBe(60);
    // A line of another estimate counts as no line of the proposal.
    expect(workDonePercent(lines, [wo({ lineId: 99, completed: true })])).toBe(100);
  });

  it('rounds half up to two decimals', () => {
    // 1 of 3 SF: 100/3 = 33.333… → 33.33; 2 of 3 → 66.67.
    const one = [{ lineId: 1, quantity: 3, priceCents: 300 }];
    expect(workDonePercent(one, [wo({ lineId: 1, reported: 1 })])).toBe(33.33);
    expect(workDonePercent(one, [wo({ lineId: 1, reported: 2 })])).toBe(66.67);
    // 1 of 8 = 12.5 exactly; 1 of 16 = 6.25; 1 of 1,600 = 0.0625 → 0.06; 1 of 800 = 0.125 → 0.13.
    expect(
      workDonePercent(
        one.map((l) => ({ ...l, quantity: 8 })),
        [wo({ lineId: 1, reported: 1 })],
      ),
    ).toBe(12.5);
    expect(
      workDonePercent(
        one.map((l) => ({ ...l, quantity: 800 })),
        [wo({ lineId: 1, reported: 1 })],
      ),
    ).toBe(0.13);
  });

  it('stays within 0–100, and completing every visit of every line is 100%', () => {
    const line = fc.record({
      lineId: fc.integer({ min: 1, max: 6 }),
      quantity: fc.integer({ min: 0, max: 10_000 }),
      priceCents: fc.integer({ min: 0, max: 5_000_000 }),
    });
    const order = fc.record({
      lineId: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
      planned: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
      reported: fc.integer({ min: 0, max: 20_000 }),
      completed: fc.boolean(),
      completedQty: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(line, { selector: (l) => l.lineId }), fc.array(order, { maxLength: 12 }), (ls, os) => {
        const p = workDonePercent(ls, os);
        if (os.length === 0 || ls.every((l) => l.priceCents === 0)) expect(p).toBeNull();
        else {
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(100);
          expect(Number(p!.toFixed(2))).toBe(p);
        }
        // Every line has a visit completed as planned (its whole quantity): all done.
        const all = ls.map((l) => wo({ lineId: l.lineId, planned: l.quantity, completed: true }));
        if (ls.some((l) => l.priceCents > 0)) expect(workDonePercent(ls, all)).toBe(100);
      }),
    );
  });
});
