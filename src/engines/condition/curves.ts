// Reading digitized curves (docs/condition.md, "Reading the curves"). Pure.
//
// Deduct curves: between two digitized points the value is interpolated linearly on the chart's
// own axis (log10 of density for asphalt, density for concrete), which is how a reader reads the
// printed chart between gridlines. A few digitized points dip by up to 0.5 where the printed curve
// is flat (digitizing noise: the standard's curves never fall as density rises), so each curve is
// read through its running maximum. Below the first point the deduct falls in proportion to
// density, to 0 at density 0; past the last point it holds the last value (the charts stop where
// field densities stop, and we do not extend them). Every value read is clamped to 0–100.
//
// Corrected-deduct curves: interpolated linearly in the total deduct value; outside the digitized
// span (TDV 30–200) the nearest segment is extended, then clamped to 0–100. A q with no curve of
// its own is read between the neighbouring curves, and a q past the last curve on the last curve.
import type { CorrectedDeductCurves } from './corrected-deduct-curves.ts';
import type { Severity } from './distresses.ts';

export interface DeductCurve {
  /** Densities (%) at which the chart was read, ascending. */
  x: number[];
  low: number[];
  medium: number[];
  high: number[];
}
export type DeductCurveSet = Record<string, DeductCurve>;
export type ChartAxis = 'log' | 'linear';

const clamp100 = (v: number) => Math.min(100, Math.max(0, v));

/** The running maximum of a curve's values. */
export function monotoneEnvelope(values: readonly number[]): number[] {
  const out: number[] = [];
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    max = Math.max(max, v);
    out.push(max);
  }
  return out;
}

/** Linear interpolation of ys over xs at x, extending the end segments past either end. */
function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  const last = xs.length - 1;
  let i = 0;
  while (i < last - 1 && x > xs[i + 1]!) i++;
  const x0 = xs[i]!;
  const x1 = xs[i + 1]!;
  const y0 = ys[i]!;
  const y1 = ys[i + 1]!;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/** The deduct value of a distress at `density` (%) on its curve for `severity`. */
export function readDeductCurve(curve: DeductCurve, axis: ChartAxis, severity: Severity, density: number): number {
  if (!(density > 0)) return 0;
  const ys = monotoneEnvelope(curve[severity]);
  const xs = curve.x;
  const first = xs[0]!;
  const last = xs[xs.length - 1]!;
  if (density >= last) return clamp100(ys[ys.length - 1]!);
  if (density < first) return clamp100((ys[0]! * density) / first);
  const at = axis === 'log' ? interpolate(xs.map(Math.log10), ys, Math.log10(density)) : interpolate(xs, ys, density);
  return clamp100(at);
}

/** The CDV for q deducts over 2.0 and a total deduct value. */
export function readCorrectedDeduct(curves: CorrectedDeductCurves, q: number, tdv: number): number {
  const qs = Object.keys(curves.q)
    .map(Number)
    .sort((a, b) => a - b);
  const onCurve = (k: number) => clamp100(interpolate(curves.tdv, curves.q[k]!, tdv));
  if (curves.q[q]) return onCurve(q);
  const above = qs.find((k) => k > q);
  const below = qs.filter((k) => k < q).pop();
  if (above === undefined) return onCurve(qs[qs.length - 1]!);
  if (below === undefined) return onCurve(above);
  const t = (q - below) / (above - below);
  return onCurve(below) + t * (onCurve(above) - onCurve(below));
}
