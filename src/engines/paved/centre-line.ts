// One painted piece's centre line (docs/measurement-detector.md, "Painted lines"). The pixels are
// weighted by how far they stand above the pavement (their top-hat), so faint stray pixels that
// JPEG ringing or noise attach to a line barely move it. The axis is the weighted principal axis;
// the ends are trimmed weighted quantiles along it, scaled back to the full length (for paint of
// even weight along the line, the middle 94% of its weight spans 94% of its length), so a few
// stray pixels past an end do not lengthen it. The line is straight when the weighted centre of
// every slice across it lies within STRAIGHT_PX of the axis; otherwise the slices' centres are its
// polyline.
import simplify from '@turf/simplify';
import type { PixelPoint } from './types.ts';

/** Share of the weight trimmed at each end. */
const TRIM = 0.03;
/** Slice centres this close to the axis (pixels) make a straight line. */
const STRAIGHT_PX = 1.5;

export interface Piece {
  xs: Int32Array;
  ys: Int32Array;
  /** Weight per pixel (> 0). */
  ws: Float32Array;
}

/** The centre line, or null when the piece is not a painted line (shorter than `minPx`, or wider than `maxWidthPx`). */
export function centreLine(p: Piece, maxWidthPx: number, minPx: number): PixelPoint[] | null {
  const { xs, ys, ws } = p;
  const n = xs.length;
  let sw = 0;
  let mx = 0;
  let my = 0;
  for (let k = 0; k < n; k++) {
    sw += ws[k];
    mx += ws[k] * xs[k];
    my += ws[k] * ys[k];
  }
  mx /= sw;
  my /= sw;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    const dx = xs[k] - mx;
    const dy = ys[k] - my;
    sxx += ws[k] * dx * dx;
    syy += ws[k] * dy * dy;
    sxy += ws[k] * dx * dy;
  }
  // The major eigenvector of the weighted 2 × 2 covariance.
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  const as = new Float64Array(n);
  const bs = new Float64Array(n);
  let a0 = Infinity;
  let a1 = -Infinity;
  for (let k = 0; k < n; k++) {
    const dx = xs[k] - mx;
    const dy = ys[k] - my;
    as[k] = dx * ux + dy * uy;
    bs[k] = -dx * uy + dy * ux;
    a0 = Math.min(a0, as[k]);
    a1 = Math.max(a1, as[k]);
  }
  const [lo, hi] = trimmedEnds(as, ws, sw, a0, a1);
  const length = (hi - lo) / (1 - 2 * TRIM);
  const area = paintArea(ws);
  if (length < minPx || area / length > maxWidthPx) return null;
  const mid = (lo + hi) / 2;
  const start = mid - length / 2;
  // Weighted centre of slices across the line.
  const slice = Math.max(3, minPx / 2);
  const bins = Math.max(2, Math.round(length / slice));
  const step = length / bins;
  const wa = new Float64Array(bins);
  const wb = new Float64Array(bins);
  const wn = new Float64Array(bins);
  for (let k = 0; k < n; k++) {
    const j = Math.floor((as[k] - start) / step);
    if (j < 0 || j >= bins) continue;
    wa[j] += ws[k] * as[k];
    wb[j] += ws[k] * bs[k];
    wn[j] += ws[k];
  }
  const at = (a: number, b: number): PixelPoint => [mx + 0.5 + ux * a - uy * b, my + 0.5 + uy * a + ux * b];
  let straight = true;
  for (let j = 0; j < bins; j++) if (wn[j] && Math.abs(wb[j] / wn[j]) > STRAIGHT_PX) straight = false;
  if (straight) return [at(start, 0), at(start + length, 0)];
  const path: PixelPoint[] = [];
  for (let j = 0; j < bins; j++) {
    if (!wn[j]) continue;
    const a = j === 0 ? start : j === bins - 1 ? start + length : wa[j] / wn[j];
    path.push(at(a, wb[j] / wn[j]));
  }
  let total = 0;
  for (let k = 1; k < path.length; k++) total += Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
  if (path.length < 2 || area / total > maxWidthPx) return null;
  const simple = simplify(
    { type: 'LineString', coordinates: path },
    { tolerance: 0.75, highQuality: true, mutate: false },
  );
  return simple.coordinates as PixelPoint[];
}

/**
 * The piece's area in pixels of full paint: each pixel counts by its weight against a fully painted
 * pixel's (the 90th percentile weight), so the faint halo JPEG spreads around a thin line (its
 * colour is stored at half resolution) does not make the line look wide.
 */
function paintArea(ws: Float32Array): number {
  const sorted = Float32Array.from(ws).sort();
  const full = sorted[Math.floor(0.9 * (sorted.length - 1))] || 1;
  let area = 0;
  for (const w of ws) area += Math.min(1, w / full);
  return area;
}

/**
 * The TRIM and 1 − TRIM weighted quantiles along the axis, each pixel's weight spread evenly over
 * the pixel it stands for ([a − ½, a + ½], in quarter-pixel bins).
 */
function trimmedEnds(as: Float64Array, ws: Float32Array, total: number, a0: number, a1: number): [number, number] {
  const q = 4;
  const origin = a0 - 0.5;
  const hist = new Float64Array(Math.ceil((a1 - a0 + 1) * q) + 2);
  for (let k = 0; k < as.length; k++) {
    const first = Math.floor((as[k] - 0.5 - origin) * q);
    for (let j = 0; j < q; j++) hist[first + j] += ws[k] / q;
  }
  const quantile = (share: number): number => {
    const target = share * total;
    let acc = 0;
    for (let j = 0; j < hist.length; j++) {
      if (acc + hist[j] >= target && hist[j] > 0) return origin + (j + (target - acc) / hist[j]) / q;
      acc += hist[j];
    }
    return origin + hist.length / q;
  };
  return [quantile(TRIM), quantile(1 - TRIM)];
}
