// The unit price a customer is shown (src/engines/pricing/shown-unit-price.ts, docs/pricing.md §12):
// reference cases worked by hand, and properties checked against an oracle written apart from the
// engine (test/helpers/by-hand.ts and BigInt inequalities, no Rational): whenever a unit price is shown, shown quantity ×
// unit rounds half away from zero to the line's price exactly; it has the fewest decimals that can;
// and it is null only when no unit with 2 to 4 decimals multiplies out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownQuantity, shownUnitPrice } from '#engines/pricing/index.ts';
import { decimalOf, productCents } from '#test/helpers/by-hand.ts';

const abs = (x: bigint) => (x < 0n ? -x : x);

const ceilDiv = (a: bigint, b: bigint) => (a >= 0n ? (a + b - 1n) / b : -(-a / b));

/**
 * Units U (unit = U / 10^d) with quantity × unit rounding to a positive `price`: the price ± half a
 * cent, solved for U. (2P − 1)·T ≤ 200·Q·U < (2P + 1)·T, T = 10^(scale + d).
 */
function validUnits(quantity: string, price: bigint, d: number): { min: bigint; max: bigint } {
  const q = decimalOf(quantity);
  const t = 10n ** BigInt(q.scale + d);
  return {
    min: ceilDiv((2n * price - 1n) * t, 200n * q.units),
    max: ceilDiv((2n * price + 1n) * t, 200n * q.units) - 1n,
  };
}

describe('shownUnitPrice: reference cases', () => {
  const cases: [string, number, string | null, string][] = [
    ['2400', 4_936_087, null, '20.567 × 2,400 = 49,360.80 and 20.5671 × 2,400 = 49,361.04: no unit reaches $49,360.87'],
    ['2400', 4_936_800, '20.57', '20.57 × 2,400 = 49,368.00'],
    ['3', 10_000, '33.333', '33.33 × 3 = 99.99, 33.34 × 3 = 100.02, 33.333 × 3 = 99.999 → $100.00'],
    ['0.333', 10_000, '300.30', '300.30 × 0.333 = 99.9999 → $100.00'],
    ['2.5', 1_001, '4.004', '4.00 × 2.5 = 10.00, 4.01 × 2.5 = 10.025 → 10.03, 4.004 × 2.5 = 10.01'],
    ['8000', 234_567, null, 'steps of 0.0001 × 8,000 = $0.80 cannot land on 67 cents'],
    ['8000', 232_000, '0.29', '0.29 × 8,000 = 2,320.00'],
    ['8000', 234_000, '0.2925', '0.2925 × 8,000 = 2,340.00'],
    ['7', 100, '0.143', '0.14 × 7 = 0.98, 0.15 × 7 = 1.05, 0.143 × 7 = 1.001 → $1.00'],
    ['1', -1_234, '-12.34', 'a credit line'],
    ['0', 0, '0.00', 'nothing at nothing'],
    ['0', 500, null, 'no unit makes $5.00 of nothing'],
    ['1200', 2_467_907, null, 'docs/pricing.md §12: worked example line 101 is a lump sum'],
    ['850', 116_120, null, 'line 102: 1.3661 × 850 = 1,161.185 → $1,161.19, 1.3662 × 850 = $1,161.27'],
    ['1200', 198_000, '1.65', 'optional line 103: 1.65 × 1,200 = 1,980.00'],
  ];
  for (const [quantity, price, unit, why] of cases) {
    it(`${quantity} at ${price} cents → ${unit} (${why})`, () => {
      expect(shownUnitPrice(quantity, price)).toBe(unit);
      if (unit !== null) expect(productCents(quantity, unit)).toBe(BigInt(price));
    });
  }
});

const decimals = (text: string) => (text.split('.')[1] ?? '').length;

/** Quantities a line has: whole (2,400 SY), halves (2.5), thirds typed as 0.333, takeoff decimals. */
const quantityArb = fc.oneof(
  fc.integer({ min: 1, max: 200_000 }).map(String),
  fc.constantFrom('2.5', '0.333', '0.5', '1.25', '12.125', '0.0001', '999999.9999'),
  fc
    .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 1, max: 4 }))
    .map(([units, scale]) => shownQuantity(units / 10 ** scale)),
);
const priceArb = fc.oneof(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 100_000_000_000 }));

describe('shownUnitPrice: properties', () => {
  it('a unit price shown multiplies out: quantity × unit rounds to the price', () => {
    fc.assert(
      fc.property(quantityArb, priceArb, fc.boolean(), (q, p, credit) => {
        const price = credit ? -p : p;
        const unit = shownUnitPrice(q, price);
        if (unit !== null) expect(productCents(q, unit)).toBe(BigInt(price));
      }),
      { numRuns: 3000 },
    );
  });

  it('it has the fewest decimals (2 to 4) any unit price needs, is null only when none exists, and is the nearest to the rate', () => {
    fc.assert(
      fc.property(quantityArb, priceArb, (q, p) => {
        const price = BigInt(p);
        const unit = shownUnitPrice(q, p);
        const fewest = [2, 3, 4].find((d) => {
          const r = validUnits(q, price, d);
          return r.min <= r.max;
        });
        if (fewest === undefined) {
          expect(unit).toBeNull();
          return;
        }
        if (unit === null) throw new Error(`no unit price for ${q} at ${p} cents; one with ${fewest} decimals exists`);
        expect(decimals(unit)).toBe(fewest);
        const u = decimalOf(unit).units;
        const r = validUnits(q, price, fewest);
        expect(u >= r.min && u <= r.max).toBe(true);
        // |U − P·T / (100·Q)| ≤ ½: no valid unit is nearer the exact rate than a half step.
        const sq = decimalOf(q);
        const t = 10n ** BigInt(sq.scale + fewest);
        expect(abs(200n * sq.units * u - 2n * price * t) <= 100n * sq.units).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a credit line shows the negative of the same line as a charge', () => {
    fc.assert(
      fc.property(quantityArb, priceArb, (q, p) => {
        const charge = shownUnitPrice(q, p);
        expect(shownUnitPrice(q, -p)).toBe(charge === null ? null : `-${charge}`);
      }),
    );
  });

  it('every quantity up to 100 with any price has a unit price (a 4-decimal step moves its product by at most a cent)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }).map((n) => shownQuantity(n / 10_000)),
        priceArb,
        (q, p) => {
          expect(shownUnitPrice(q, p)).not.toBeNull();
        },
      ),
    );
  });
});

describe('shownQuantity', () => {
  it.each([
    [2400, '2400'],
    [2.5, '2.5'],
    [0.333, '0.333'],
    [1.234567, '1.2346'],
    [0.00005, '0.0001'],
    [0.00004, '0'],
    [0, '0'],
  ])('%s → %s', (n, text) => expect(shownQuantity(n)).toBe(text));

  it('keeps a quantity of up to 4 decimals exactly and never ends in a zero decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000_000 }), fc.integer({ min: 0, max: 4 }), (units, scale) => {
        const text = shownQuantity(units / 10 ** scale);
        expect(text).not.toMatch(/\.\d*0$|\.$/);
        const s = decimalOf(text);
        expect(s.units * 10n ** BigInt(scale - s.scale)).toBe(BigInt(units));
      }),
    );
  });
});
