// Sums and rates over a report's rows, worked the same way in every report: money summed in whole
// cents (0.1 + 0.2 is 0.30, never 0.30000000000000004), a rate as a fraction rounded to four
// places (45.45%), null when there is nothing to divide by rather than a made-up zero.
import type { Row } from './run-result.ts';

/** The sum of a money column, in dollars, summed exactly in cents. */
export const sumMoney = (rows: readonly Row[], key: string): number =>
  rows.reduce((s, r) => s + Math.round(Number(r[key] ?? 0) * 100), 0) / 100;

/** The sum of a count column. */
export const countOf = (rows: readonly Row[], key: string): number => rows.reduce((s, r) => s + Number(r[key] ?? 0), 0);

/** part / whole as a fraction to four places; null when whole is 0. */
export const ratio = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/** A fraction as display text ("45.45%"), or an em dash for none. */
export const formatPct = (fraction: number | null): string =>
  fraction === null ? '—' : `${(fraction * 100).toFixed(2).replace(/\.?0+$/, '')}%`;
