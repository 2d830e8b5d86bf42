// Money: integer cents inside, dollars with two decimals on the wire. No binary floating point
// is used for arithmetic: a wire amount is converted from its decimal text.

/** Dollars (as received in JSON) to integer cents, rounding half away from zero at the cent. */
export function dollarsToCents(dollars: number): number {
  if (!Number.isFinite(dollars)) throw new RangeError('amount must be finite');
  const text = Math.abs(dollars).toFixed(20).replace(/0+$/, '');
  // toFixed(20) still carries binary noise (0.1 -> 0.10000000000000000555); shortest repr does not.
  const shortest = Math.abs(dollars).toString();
  const decimal = /e/i.test(shortest) ? text : shortest;
  const [whole, frac = ''] = decimal.split('.');
  const padded = (frac + '000').slice(0, 3);
  let cents = BigInt(whole) * 100n + BigInt(padded.slice(0, 2));
  if (+padded[2] >= 5) cents += 1n;
  const n = Number(cents);
  return dollars < 0 ? -n : n;
}

/** Integer cents to a dollars number with at most two decimals (exact in JSON text). */
export function centsToDollars(cents: number): number;
export function centsToDollars(cents: number | null): number | null;
export function centsToDollars(cents: number | null): number | null {
  if (cents === null) return null;
  return Number(cents) / 100;
}

// One formatter, made once: toLocaleString builds a new Intl formatter on every call, which was
// most of the time of rendering a proposal page.
const DOLLARS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Cents as a customer reads them: $1,234.50, -$12.00. Cents are integers, so the division is exact to the cent shown. */
export const formatCents = (cents: number) => `${cents < 0 ? '-' : ''}$${DOLLARS.format(Math.abs(cents) / 100)}`;

const WHOLE_DOLLARS = new Intl.NumberFormat('en-US');

/**
 * A unit price as a customer reads it, from its exact decimal text with 2 to 4 decimals ("20.567"):
 * $20.567, $0.2875, -$1.50. Grouped from the text, never through a double, so every digit is the
 * one the product was checked with.
 */
export function formatUnitPrice(decimal: string): string {
  const negative = decimal.startsWith('-');
  const [whole, frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  return `${negative ? '-' : ''}$${WHOLE_DOLLARS.format(BigInt(whole))}.${frac.padEnd(2, '0')}`;
}
