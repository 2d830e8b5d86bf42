// Painted lines (docs/measurement-detector.md, "Painted lines"): pixels brighter than the pavement
// around them (white top-hat, grey) or warmer (yellow top-hat), kept by hysteresis (a faint pixel
// counts when it touches a clear one, so anti-aliased edges and ends stay in the line). Each
// connected piece well inside the pavement gets its colour from its summed yellowness against its
// summed brightness, and its centre line from centre-line.ts (straight: 2 points; bent: a
// polyline; wider than a painted line — arrows, words, crosswalk blocks — left out).
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { type Features, PAINT_MAX_WIDTH_M } from './features.ts';
import { centreLine } from './centre-line.ts';
import type { FoundLine, PaintColour } from './types.ts';

/** Top-hat levels (grey levels above the surroundings) that make a clear and a faint paint pixel. */
const WHITE_CLEAR = 26;
const WHITE_FAINT = 13;
const YELLOW_CLEAR = 26;
const YELLOW_FAINT = 12;
/**
 * A piece is yellow when its yellowness stands out at least this share of its brightness: yellow
 * paint's yellowness top-hat is about twice its brightness top-hat on asphalt and far more on
 * concrete; white paint's is near nothing.
 */
const YELLOW_PIECE = 0.25;
/** White paint is grey: more chroma than this is something else. */
const WHITE_MAX_CHROMA = 40;
/** Paint lies at least this far inside the pavement's edge (edge lines are painted ~0.3–1 m in). */
const EDGE_BAND_M = 0.3;
/** Shorter pieces are specks, not lines. */
export const MIN_LINE_M = 1;

/**
 * Paint pixels (255), white or yellow together: JPEG's halved colour resolution leaves a thin yellow
 * line's edge pixels nearly grey, so colour is decided per piece (traceLines), not per pixel.
 */
export function paintMask(cv: Cv, s: MatScope, f: Features): Mat {
  const n = f.width * f.height;
  const wh = f.whiteHat.data;
  const yh = f.yellowHat.data;
  const clear = new Uint8Array(n);
  const paint = s.zeros(f.height, f.width, cv.CV_8UC1);
  const pd = paint.data;
  for (let i = 0; i < n; i++) {
    if (yh[i] >= YELLOW_FAINT) {
      pd[i] = 255;
      if (yh[i] >= YELLOW_CLEAR) clear[i] = 1;
    } else if (wh[i] >= WHITE_FAINT && f.chroma[i] <= WHITE_MAX_CHROMA) {
      pd[i] = 255;
    }
    if (wh[i] >= WHITE_CLEAR && f.chroma[i] <= WHITE_MAX_CHROMA) clear[i] = 1;
  }
  hysteresis(cv, s, paint, clear);
  return paint;
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

/** Centre lines of the painted pieces in `mask` that lie on the pavement (`paved` 255), each with its colour. */
export function traceLines(cv: Cv, s: MatScope, f: Features, mask: Mat, paved: Mat, mpp: number): FoundLine[] {
  // On the pavement means inside it, not on its edge: JPEG rings a bright line along the edge of a
  // light lot against grass, and that is no paint.
  const inner = s.mat();
  cv.erode(paved, inner, s.kernel(cv.MORPH_RECT, 2 * Math.max(2, Math.round(EDGE_BAND_M / mpp)) + 1));
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
  const ws = new Float32Array(start[count]);
  const yellowness = new Float64Array(count);
  const brightness = new Float64Array(count);
  const wh = f.whiteHat.data;
  const yh = f.yellowHat.data;
  const onPaved = new Int32Array(count);
  const ld = labels.data32S;
  const pd = inner.data;
  const w = mask.cols;
  for (let i = 0; i < ld.length; i++) {
    const c = ld[i];
    if (c === 0) continue;
    xs[fill[c]] = i % w;
    ys[fill[c]] = (i / w) | 0;
    // Weight: how far the pixel stands out, in brightness or in yellowness.
    ws[fill[c]] = Math.max(wh[i], yh[i]);
    yellowness[c] += yh[i];
    brightness[c] += wh[i];
    fill[c]++;
    if (pd[i]) onPaved[c]++;
  }
  const maxWidthPx = PAINT_MAX_WIDTH_M / mpp + 1.5;
  const lines: FoundLine[] = [];
  for (let c = 1; c < count; c++) {
    const size = st[c * 5 + 4];
    const span = Math.hypot(st[c * 5 + 2], st[c * 5 + 3]);
    if (span < minPx * 0.9 || onPaved[c] < size / 2) continue;
    const [a, b] = [start[c], start[c + 1]];
    const line = centreLine({ xs: xs.subarray(a, b), ys: ys.subarray(a, b), ws: ws.subarray(a, b) }, maxWidthPx, minPx);
    const colour: PaintColour = yellowness[c] >= YELLOW_PIECE * brightness[c] ? 'yellow' : 'white';
    if (line) lines.push({ colour, points: line });
  }
  return lines;
}
