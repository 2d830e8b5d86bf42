// Painted lines (docs/measurement-detector.md, "Painted lines"): pixels brighter than the pavement
// around them (white top-hat, grey) or warmer (yellow top-hat), kept by hysteresis (a faint pixel
// counts when it touches a clear one, so anti-aliased edges and ends stay in the line), then each
// connected piece is measured by its principal axis: a thin straight piece becomes a 2-point
// centre line, a thin bent one a polyline of its centre, anything wider than a painted line
// (arrows, words, crosswalk blocks) is left out.
import simplify from '@turf/simplify';
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { type Features, PAINT_MAX_WIDTH_M } from './features.ts';
import type { FoundLine, PaintColour, PixelPoint } from './types.ts';

/** Top-hat levels (grey levels above the surroundings) that make a clear and a faint paint pixel. */
const WHITE_CLEAR = 26;
const WHITE_FAINT = 13;
const YELLOW_CLEAR = 26;
const YELLOW_FAINT = 12;
/** White paint is grey: more chroma than this is something else. */
const WHITE_MAX_CHROMA = 40;
/** Shorter pieces are specks, not lines. */
export const MIN_LINE_M = 1;

export interface PaintMasks {
  white: Mat;
  yellow: Mat;
}

export function paintMasks(cv: Cv, s: MatScope, f: Features): PaintMasks {
  const n = f.width * f.height;
  const wh = f.whiteHat.data;
  const yh = f.yellowHat.data;
  const clearW = new Uint8Array(n);
  const clearY = new Uint8Array(n);
  const white = s.zeros(f.height, f.width, cv.CV_8UC1);
  const yellow = s.zeros(f.height, f.width, cv.CV_8UC1);
  const wd = white.data;
  const yd = yellow.data;
  for (let i = 0; i < n; i++) {
    if (yh[i] >= YELLOW_FAINT) {
      yd[i] = 255;
      if (yh[i] >= YELLOW_CLEAR) clearY[i] = 1;
    } else if (wh[i] >= WHITE_FAINT && f.chroma[i] <= WHITE_MAX_CHROMA) {
      wd[i] = 255;
      if (wh[i] >= WHITE_CLEAR) clearW[i] = 1;
    }
  }
  hysteresis(cv, s, white, clearW);
  hysteresis(cv, s, yellow, clearY);
  return { white, yellow };
}

/** Keep the connected pieces of `faint` (in place) that hold at least one clear pixel. */
function hysteresis(cv: Cv, s: MatScope, faint: Mat, clear: Uint8Array): void {
  const labels = s.mat();
  const count = cv.connectedComponentsWithStats(faint, labels, s.mat(), s.mat(), 8, cv.CV_32S);
  const keep = new Uint8Array(count);
  const ld = labels.data32S;
  for (let i = 0; i < ld.length; i++) if (clear[i]) keep[ld[i]] = 1;
  const fd = faint.data;
  for (let i = 0; i < ld.length; i++) if (fd[i] && !keep[ld[i]]) fd[i] = 0;
}

/** Centre lines of the painted pieces in `mask` that lie on the pavement (`paved` 255). */
export function traceLines(cv: Cv, s: MatScope, mask: Mat, paved: Mat, colour: PaintColour, mpp: number): FoundLine[] {
  const labels = s.mat();
  const stats = s.mat();
  const count = cv.connectedComponentsWithStats(mask, labels, stats, s.mat(), 8, cv.CV_32S);
  const st = stats.data32S;
  const minPx = MIN_LINE_M / mpp;
  // Bucket every component's pixels (a counting sort by label).
  const start = new Int32Array(count + 1);
  for (let c = 1; c < count; c++) start[c + 1] = start[c] + st[c * 5 + 4];
  const fill = start.slice();
  const xs = new Int32Array(start[count]);
  const ys = new Int32Array(start[count]);
  const onPaved = new Int32Array(count);
  const ld = labels.data32S;
  const pd = paved.data;
  const w = mask.cols;
  for (let i = 0; i < ld.length; i++) {
    const c = ld[i];
    if (c === 0) continue;
    xs[fill[c]] = i % w;
    ys[fill[c]] = (i / w) | 0;
    fill[c]++;
    if (pd[i]) onPaved[c]++;
  }
  const maxWidthPx = PAINT_MAX_WIDTH_M / mpp + 1.5;
  const lines: FoundLine[] = [];
  for (let c = 1; c < count; c++) {
    const size = st[c * 5 + 4];
    const span = Math.hypot(st[c * 5 + 2], st[c * 5 + 3]);
    if (span < minPx * 0.9 || onPaved[c] < size / 2) continue;
    const line = measure(xs.subarray(start[c], start[c + 1]), ys.subarray(start[c], start[c + 1]), maxWidthPx, minPx);
    if (line) lines.push({ colour, points: line });
  }
  return lines;
}

/** One piece's centre line, or null when it is not a painted line (too short or too wide). */
function measure(xs: Int32Array, ys: Int32Array, maxWidthPx: number, minPx: number): PixelPoint[] | null {
  const n = xs.length;
  let mx = 0;
  let my = 0;
  for (let k = 0; k < n; k++) {
    mx += xs[k];
    my += ys[k];
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    const dx = xs[k] - mx;
    const dy = ys[k] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  // The principal axis of the pixel cloud (the 2 × 2 covariance's major eigenvector).
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  let a0 = Infinity;
  let a1 = -Infinity;
  let bb = 0;
  for (let k = 0; k < n; k++) {
    const dx = xs[k] - mx;
    const dy = ys[k] - my;
    const a = dx * ux + dy * uy;
    const b = -dx * uy + dy * ux;
    if (a < a0) a0 = a;
    if (a > a1) a1 = a;
    bb += b * b;
  }
  // From the first pixel centre to the last: the faint anti-aliased pixels past each end make up
  // for the half pixel at either end (measured on generated lots, docs/measurement-detector.md).
  const length = a1 - a0;
  if (length < minPx) return null;
  const cx = mx + 0.5;
  const cy = my + 0.5;
  // Straight: the pixels' spread across the axis is that of a band no wider than a painted line
  // (a band w wide has a standard deviation of w ÷ √12); stray faint pixels at its sides barely move it.
  if (Math.sqrt(bb / n) <= maxWidthPx / Math.sqrt(12) + 0.5) {
    if (n / length > maxWidthPx) return null;
    const mid = (a0 + a1) / 2;
    const h = length / 2;
    return [
      [cx + ux * (mid - h), cy + uy * (mid - h)],
      [cx + ux * (mid + h), cy + uy * (mid + h)],
    ];
  }
  // Bent: the mean position in slices along the axis, simplified.
  const slice = Math.max(3, minPx / 2);
  const bins = Math.max(2, Math.ceil((a1 - a0 + 1) / slice));
  const sa = new Float64Array(bins);
  const sb = new Float64Array(bins);
  const sn = new Float64Array(bins);
  for (let k = 0; k < n; k++) {
    const dx = xs[k] - mx;
    const dy = ys[k] - my;
    const a = dx * ux + dy * uy;
    const j = Math.min(bins - 1, Math.floor((a - a0) / slice));
    sa[j] += a;
    sb[j] += -dx * uy + dy * ux;
    sn[j]++;
  }
  const path: PixelPoint[] = [];
  for (let j = 0; j < bins; j++) {
    if (!sn[j]) continue;
    const a = j === 0 ? a0 - 0.5 : j === bins - 1 ? a1 + 0.5 : sa[j] / sn[j];
    const b = sb[j] / sn[j];
    path.push([cx + ux * a - uy * b, cy + uy * a + ux * b]);
  }
  let total = 0;
  for (let k = 1; k < path.length; k++) total += Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
  if (path.length < 2 || n / total > maxWidthPx) return null;
  const simple = simplify(
    { type: 'LineString', coordinates: path },
    { tolerance: 0.75, highQuality: true, mutate: false },
  );
  return simple.coordinates as PixelPoint[];
}
