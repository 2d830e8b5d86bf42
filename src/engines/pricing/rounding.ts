// The engine's rounding points (docs/pricing.md section 2): half away from zero, only here.
import { Rational } from './rational.ts';
import type { PricingMethod } from './types.ts';

/** Half away from zero at the cent; the result is integer cents. */
export function cents(x: Rational): bigint {
  return x.toCents();
}
export const dollars = (c: bigint): number => Number(c) / 100; // exact: |c| < 2^53 and 2 decimals
export const qty4 = (x: Rational): Rational => x.round(4);
export const frac4 = (x: Rational): number => x.round(4).toNumber();

/**
 * A margin as a fraction of what it is a margin of (integer cents of each), to 4 decimals; null when
 * that is zero. Every margin % goes through here, so the API can derive one from stored cents exactly.
 */
export function marginFraction(marginCents: bigint | number, ofCents: bigint | number): number | null {
  const of = BigInt(ofCents);
  return of === 0n ? null : frac4(Rational.of(BigInt(marginCents), of));
}

/** Price of a cost (integer cents) under a method and rate, rounded to the cent. */
export function priceOfCost(costCents: bigint, method: PricingMethod, rate: Rational): bigint {
  const cost = Rational.cents(costCents);
  const price = method === 'markup' ? cost.mul(Rational.ONE.add(rate)) : cost.div(Rational.ONE.sub(rate));
  return cents(price);
}
