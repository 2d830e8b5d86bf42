// What a payment request bills (billing/online-payments/amounts.ts) as properties over any contract,
// change orders included: every kind's amount is its lines minus discount plus tax to the cent, each
// line billing something; full and itemized bill the revised contract exactly; a deposit is the
// percent of what the proposal offered, half up; and progress billing never takes the job's invoices
// past the contract (so without confirm_duplicate nothing is billed past it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Contract, overContract, percentOf, requestedOf } from '#billing/online-payments/amounts.ts';
import { decimalOf } from '#test/helpers/by-hand.ts';

const cents = (max = 50_000_000) => fc.integer({ min: 1, max });
const percent = fc.integer({ min: 0, max: 10_000 }).map((bp) => bp / 100);

const contract: fc.Arbitrary<Contract> = fc
  .record({
    lines: fc.array(
      fc.record({
        lineId: fc.nat(),
        name: fc.string({ minLength: 1, maxLength: 20 }),
        quantity: fc.integer({ min: 0, max: 100_000 }),
        priceCents: cents(5_000_000),
      }),
      { minLength: 0, maxLength: 30 },
    ),
    skew: fc.integer({ min: -50, max: 50 }),
    taxCents: fc.integer({ min: 0, max: 1_000_000 }),
    depositPercent: fc.option(percent, { nil: null }),
    changeOrders: fc.record({
      count: fc.integer({ min: 0, max: 5 }),
      subtotalCents: fc.integer({ min: -2_000_000, max: 5_000_000 }),
      taxCents: fc.integer({ min: -100_000, max: 300_000 }),
    }),
  })
  .map(({ lines, skew, taxCents, depositPercent, changeOrders }) => {
    // Shown line prices are rounded per line: the subtotal may miss their sum by a few cents.
    const subtotalCents = Math.max(1, lines.reduce((s, l) => s + l.priceCents, 0) + skew);
    const co = changeOrders.count === 0 ? { count: 0, subtotalCents: 0, taxCents: 0 } : changeOrders;
    const totalCents = subtotalCents + taxCents + co.subtotalCents + co.taxCents;
    return { title: 'Lot', subtotalCents, taxCents, depositPercent, lines, changeOrders: co, totalCents };
  });

const sum = (lines: { amount_cents: number }[]) => lines.reduce((s, l) => s + l.amount_cents, 0);

describe('requestedOf', () => {
  it('amount = lines - discount + tax for every kind; every line bills something', () => {
    fc.assert(
      fc.property(contract, fc.integer({ min: 0, max: 60_000_000 }), percent, (c, billed, done) => {
        for (const kind of ['full', 'deposit', 'progress', 'itemized'] as const) {
          const r = requestedOf(kind, c, billed, done);
          if ('refused' in r) continue;
          expect(r.amountCents).toBe(sum(r.lines) - r.discountCents + r.taxCents);
          for (const l of r.lines) expect(l.amount_cents).toBeGreaterThan(0);
          expect(r.amountCents).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('full and itemized bill the revised contract exactly (nothing when it comes to nothing)', () => {
    fc.assert(
      fc.property(contract, (c) => {
        for (const kind of ['full', 'itemized'] as const) {
          const r = requestedOf(kind, c, 0, 100);
          if (c.totalCents <= 0) expect(r).toMatchObject({ refused: 'nothing_to_bill' });
          else expect(r).toMatchObject({ amountCents: c.totalCents });
        }
      }),
    );
  });

  it("a deposit is the percent of the proposal's total, half up; none without a percent", () => {
    fc.assert(
      fc.property(contract, (c) => {
        const r = requestedOf('deposit', c, 0, 100);
        // Of what the proposal offered: change orders approved later do not raise the deposit.
        const offered = c.subtotalCents + c.taxCents;
        const expected =
          c.depositPercent === null ? 0 : Math.floor((offered * Math.round(c.depositPercent * 100) + 5000) / 10_000);
        if (expected <= 0) expect('refused' in r).toBe(true);
        else expect(r).toMatchObject({ amountCents: expected });
      }),
    );
  });

  it('a progress line states figures that add up by hand: P% of the contract, less what was billed before', () => {
    fc.assert(
      fc.property(contract, percent, fc.integer({ min: 0, max: 10_000_000 }), (c, done, billed) => {
        const r = requestedOf('progress', c, billed, done);
        if ('refused' in r) return;
        const m =
          /\((\d+(?:\.\d+)?)% of (\$[\d,]+\.\d\d) = (\$[\d,]+\.\d\d)(?:, less (\$[\d,]+\.\d\d) billed before)?\)$/.exec(
            r.lines[0].description,
          );
        expect(m, r.lines[0].description).not.toBeNull();
        const [, pct, total, workDone, before = '$0.00'] = m ?? [];
        const cents = (text: string) => decimalOf(text).units;
        // P% of T, half up to the cent, in BigInt from the printed text: percent has at most 2 decimals.
        const basisPoints = decimalOf(pct).units * 10n ** BigInt(2 - decimalOf(pct).scale);
        expect((cents(total) * basisPoints + 5000n) / 10_000n).toBe(cents(workDone));
        expect(cents(workDone) - cents(before)).toBe(BigInt(r.lines[0].amount_cents));
      }),
    );
  });

  it('progress billing, repeated at any percentages, never bills past the contract and ends at it', () => {
    fc.assert(
      fc.property(contract, fc.array(percent, { minLength: 1, maxLength: 10 }), (c, steps) => {
        fc.pre(c.totalCents > 0);
        let billed = 0;
        for (const done of [...steps, 100]) {
          const r = requestedOf('progress', c, billed, done);
          if ('refused' in r) {
            expect(percentOf(c.totalCents, done)).toBeLessThanOrEqual(billed);
            continue;
          }
          expect(overContract(c, billed, r.amountCents)).toBe(false);
          billed += r.amountCents;
          expect(billed).toBe(percentOf(c.totalCents, done));
        }
        expect(billed).toBe(c.totalCents);
      }),
    );
  });
});
