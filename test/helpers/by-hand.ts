// Arithmetic as a customer does it by hand, from the text they read: printed figures ("2,400",
// "$20.567", "-$12.00") as exact decimals and quantity × unit price rounded to the cent, in BigInt
// alone (no Rational, no double), so tests of what we print check it independently of the code
// that printed it.

/** A printed figure as a whole number of 10^-scale: "$1,234.5" → {units: 12345n, scale: 1}. */
export function decimalOf(text: string): { units: bigint; scale: number } {
  const m = /^(-?)\$?([\d,]+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a figure: ${JSON.stringify(text)}`);
  const units = BigInt(m[2].replace(/,/g, '') + (m[3] ?? ''));
  return { units: m[1] === '-' ? -units : units, scale: (m[3] ?? '').length };
}

/** Integer cents of quantity × unit price, rounded half away from zero (as every price is). */
export function productCents(quantity: string, unitPrice: string): bigint {
  const q = decimalOf(quantity);
  const u = decimalOf(unitPrice);
  const hundredths = q.units * u.units * 100n; // cents × 10^(q.scale + u.scale)
  const t = 10n ** BigInt(q.scale + u.scale);
  const abs = hundredths < 0n ? -hundredths : hundredths;
  const rounded = (abs * 2n + t) / (2n * t);
  return hundredths < 0n ? -rounded : rounded;
}

/** Whether quantity × unit price, rounded to the cent, is the price printed beside them. */
export function multipliesOut(quantity: string, unitPrice: string, price: string): boolean {
  const p = decimalOf(price);
  return p.scale === 2 && productCents(quantity, unitPrice) === p.units;
}
