// What a customer is shown beside a line's price (docs/pricing.md §12): a quantity and a unit
// price they can multiply by hand. The price a proposal shows is the line's allocated price (job
// money spread in, a tax share added), not quantity × the estimate's unit price, so the unit price
// is derived from the figures shown: the shortest one (2 to 4 decimals) whose product with the
// shown quantity, rounded half away from zero to the cent as every price is, is the price exactly.
// When none is, the line is a lump sum: printing "2,400 SY × $20.57 = $49,360.87" would be a
// product that does not multiply out (20.57 × 2,400 = 49,368.00).
import { Rational } from './rational.ts';

/** Decimals a shown quantity keeps (the API takes up to 6; a customer reads 4 at most). */
export const SHOWN_QUANTITY_DECIMALS = 4;
/** Decimals a shown unit price may have: money's 2, and up to 4 for rates like $0.2875 per SF. */
export const UNIT_PRICE_DECIMALS = { min: 2, max: 4 } as const;

/** The quantity as shown: rounded half away from zero to 4 decimals, as decimal text without trailing zeros. */
export function shownQuantity(quantity: number): string {
  const text = Rational.from(quantity).toFixed(SHOWN_QUANTITY_DECIMALS);
  return text.replace(/\.?0+$/, '');
}

/**
 * The unit price to show for a line of `quantity` (decimal text, as shown) priced `priceCents`:
 * decimal text with 2 to 4 decimals, the fewest that work, and of those the nearest to the exact
 * rate (price ÷ quantity; ties toward zero). null when no such unit price exists (the line is a lump
 * sum). A zero quantity multiplies out only to a zero price, at "0.00".
 */
export function shownUnitPrice(quantity: string, priceCents: number): string | null {
  const q = Rational.parse(quantity);
  const price = BigInt(priceCents);
  if (q.isZero()) return price === 0n ? '0.00' : null;
  const rate = Rational.cents(price).div(q);
  for (let d = UNIT_PRICE_DECIMALS.min; d <= UNIT_PRICE_DECIMALS.max; d++) {
    const step = 10n ** BigInt(d);
    const exact = rate.mul(Rational.int(step));
    // Products grow monotonically with the unit, so the units that round to the price form an
    // interval around the exact rate: if any whole step is in it, the step just below or just
    // above the rate is.
    const below = exact.floor();
    const above = exact.ceil();
    const fromBelow = exact.sub(Rational.int(below)).cmp(Rational.int(above).sub(exact));
    const aboveFirst = fromBelow > 0 || (fromBelow === 0 && exact.isNegative());
    const nearerFirst = aboveFirst ? [above, below] : [below, above];
    for (const units of nearerFirst) {
      const unit = Rational.of(units, step);
      if (q.mul(unit).toCents() === price) return unit.toFixed(d);
    }
  }
  return null;
}
