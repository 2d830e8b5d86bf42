// The corrected-deduct procedure of ASTM D6433 (docs/condition.md, "PCI: the procedure"), over
// deduct values alone, with the corrected-deduct curve passed in: so the procedure is tested on
// hand-worked deducts and shared by asphalt and concrete. Pure.
//
// 1. Sort the deducts, largest first.
// 2. At most one deduct over 2.0: the CDV is the total of all deducts (clamped to 100). Done.
// 3. Otherwise the allowed number m = 1 + (9/98)(100 − HDV), at most 10. Keep the ⌊m⌋ largest
//    deducts and, when there are more, the next one times m's fractional part.
// 4. q = how many of them are over 2.0; TDV their total; CDV read on the q curve.
// 5. Replace the smallest deduct over 2.0 with 2.0 and repeat 4 until q = 1.
// 6. The maximum CDV of all rows is the result; PCI = 100 − maximum CDV.
// Totals, the fractional deduct and each CDV are kept to 0.1, the precision of the standard's
// worksheet, so every printed number adds up exactly.

export type CdvLookup = (q: number, tdv: number) => number;

export interface CdvRow {
  /** The deducts of this row, largest first. */
  deducts: number[];
  total_deduct: number;
  q: number;
  corrected_deduct: number;
}

export interface CorrectedDeductResult {
  highest_deduct: number;
  /** m, or null when at most one deduct is over 2.0 and the total is used. */
  allowed_deducts: number | null;
  rows: CdvRow[];
  max_corrected_deduct: number;
}

/** Rounded to 0.1, halves up; first to a millionth, so binary noise (0.35 stored as 0.34999…) cannot tip a half. */
export function round1(v: number): number {
  return Math.round(Math.round(v * 1e6) / 1e5) / 10;
}

const OVER = 2.0;
const countOver = (ds: readonly number[]) => ds.filter((d) => d > OVER).length;
const sum = (ds: readonly number[]) => round1(ds.reduce((a, b) => a + b, 0));

/** m = 1 + (9/98)(100 − HDV), capped at 10. */
export function allowedDeducts(highest: number): number {
  return Math.min(10, 1 + (9 / 98) * (100 - highest));
}

export function correctDeducts(deductValues: readonly number[], cdv: CdvLookup): CorrectedDeductResult {
  const sorted = [...deductValues].sort((a, b) => b - a);
  const highest = sorted[0] ?? 0;
  if (countOver(sorted) <= 1) {
    const total = sum(sorted);
    const corrected = Math.min(100, total);
    return {
      highest_deduct: highest,
      allowed_deducts: null,
      rows: sorted.length
        ? [{ deducts: sorted, total_deduct: total, q: countOver(sorted), corrected_deduct: corrected }]
        : [],
      max_corrected_deduct: corrected,
    };
  }

  const m = allowedDeducts(highest);
  const whole = Math.floor(m);
  let kept = sorted.slice(0, whole);
  const fraction = m - whole;
  if (sorted.length > whole && fraction > 0) kept.push(round1(sorted[whole]! * fraction));

  const rows: CdvRow[] = [];
  for (;;) {
    const q = countOver(kept);
    const total = sum(kept);
    rows.push({ deducts: kept, total_deduct: total, q, corrected_deduct: round1(cdv(q, total)) });
    if (q <= 1) break;
    // Sorted largest first, so the last deduct over 2.0 is the smallest one.
    let smallestOver = kept.length - 1;
    while (!(kept[smallestOver]! > OVER)) smallestOver--;
    kept = kept.map((d, i) => (i === smallestOver ? OVER : d));
  }
  return {
    highest_deduct: highest,
    allowed_deducts: m,
    rows,
    max_corrected_deduct: Math.max(...rows.map((r) => r.corrected_deduct)),
  };
}
