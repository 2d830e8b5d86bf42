// Cracks: thin dark lines. A pixel of the lightly smoothed image is crack when it is darker by
// CRACK_CONTRAST (relative, so cracks in shadow still count) than both its background (a median
// over 25 cm: the surrounding surface, unbiased by texture) and its morphological closing with a
// 15 cm square (a black-hat test: only structures narrower than the square are filled, so the curved
// edges of stains, shadows and potholes do not pass).
// The mask is bridged with a 3-px closing, then its components are measured by their contours:
// area A and smoothed perimeter P give the length L (a band of length L and width w has
// A = L·w and P = 2(L + w), so L = (P/2 + √(P²/4 − 4A)) / 2) and the width w = A / L.
// A component enclosing three or more cells (holes, RETR_CCOMP) is a network: alligator when
// its median cell is under 0.3 m across (ASTM D6433: alligator pieces are small, block cracking
// pieces 0.3 × 0.3 m to 3 × 3 m), else block, with the filled outline as its area. Other
// components count as longitudinal/transverse when long (≥ 8 cm) and thin (length ≥ 4 × width).
import { type Ctx, kernelPx, LocalMask, type Region, regionOf } from './context.ts';
import type { Mat, MatVector } from './cv.ts';
import type { Severity } from './types.ts';

export const CRACK_CONTRAST = 0.2;
const MIN_CRACK_LENGTH_M = 0.08;
const MIN_ELONGATION = 4;
const MIN_CELLS = 3;
const ALLIGATOR_CELL_M = 0.3;
const MAX_TINY_HOLES = 4;
/** A line with more than this share of dark pixels around it is the edge of a dark area. */
const ONE_SIDED_SHARE = 0.3;

export interface Crack extends Region {
  /** Length in pixels for linear cracks; area in pixels for networks. */
  kind: 'linear' | 'alligator' | 'block';
  widthMm: number;
  severity: Severity;
  /** Orientation from the component's moments: along the image's x (0°) or y (90°) axis. */
  angleDeg: number;
}
export interface CrackFinding {
  cracks: Crack[];
  /** Accepted crack pixels (255), for raveling to leave out. */
  mask: Mat;
}

/** ASTM D6433 longitudinal/transverse and block severities by mean crack width. */
export function lineSeverity(widthMm: number): Severity {
  return widthMm < 10 ? 'low' : widthMm <= 76 ? 'medium' : 'high';
}
/** Alligator: the standard grades by spalling; wider visible cracks stand in for it. */
export function alligatorSeverity(widthMm: number): Severity {
  return widthMm < 10 ? 'low' : widthMm <= 25 ? 'medium' : 'high';
}

/**
 * The surface without its cracks: a median over a window about 13 cm wide. Thin lines are a
 * minority of any such window, so the median is the surrounding surface, without the upward bias
 * a morphological closing has on textured asphalt.
 */
export function background(ctx: Ctx): Mat {
  const { cv, s } = ctx;
  const bg = s.mat();
  cv.medianBlur(ctx.gray, bg, kernelPx(ctx, 0.25, 7, 61));
  return bg;
}

/**
 * A morphological closing with a 15 cm square (a square, not a disc: OpenCV does rectangles
 * separably, many times faster on large images) fills dark lines narrower than that but not
 * the inside of broader dark areas (stains, shadows, potholes), whose edges the median alone
 * can mistake for lines where the outline curves.
 */
export function closing(ctx: Ctx, smooth: Mat): Mat {
  const { cv, s } = ctx;
  const out = s.mat();
  cv.morphologyEx(smooth, out, cv.MORPH_CLOSE, s.kernel(cv.MORPH_RECT, kernelPx(ctx, 0.15, 5, 41)));
  return out;
}

/** The grey image lightly smoothed (3 × 3), so sensor noise and single aggregate grains do not read as cracks. */
export function smoothGray(ctx: Ctx): Mat {
  const { cv, s } = ctx;
  const out = s.mat();
  cv.GaussianBlur(ctx.gray, out, new cv.Size(3, 3), 0);
  return out;
}

export function findCracks(ctx: Ctx, bg: Mat, smooth: Mat, closed: Mat, exclude: Mat): CrackFinding {
  const { cv, s } = ctx;
  const raw = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const g = smooth.data;
  const cl = bg.data;
  const cz = closed.data;
  const pv = ctx.pavement.data;
  const ex = exclude.data;
  const rd = raw.data;
  for (let i = 0; i < rd.length; i++) {
    if (
      pv[i] &&
      !ex[i] &&
      cl[i] - g[i] > Math.max(8, CRACK_CONTRAST * cl[i]) &&
      cz[i] - g[i] > Math.max(8, CRACK_CONTRAST * cz[i])
    )
      rd[i] = 255;
  }
  cv.morphologyEx(raw, raw, cv.MORPH_CLOSE, s.kernel(cv.MORPH_ELLIPSE, 3));
  const contours = s.track(new cv.MatVector());
  const hierarchy = s.mat();
  cv.findContours(raw, contours, hierarchy, cv.RETR_CCOMP, cv.CHAIN_APPROX_NONE);
  const h = hierarchy.data32S; // per contour: next, previous, first child, parent
  const mask = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const cracks: Crack[] = [];
  const minLen = MIN_CRACK_LENGTH_M / ctx.mpp;
  const minCell = (0.05 / ctx.mpp) ** 2;
  const approx = s.mat();
  for (let k = 0; k < contours.size(); k++) {
    if (h[k * 4 + 3] !== -1) continue; // holes are read with their outer contour
    const outer = contours.get(k);
    const outerArea = cv.contourArea(outer);
    let holesArea = 0;
    let perimeter = smoothLength(ctx, outer, approx);
    const cells: number[] = [];
    let tinyHoles = 0;
    for (let child = h[k * 4 + 2]; child !== -1; child = h[child * 4]) {
      const hole = contours.get(child);
      const a = cv.contourArea(hole);
      holesArea += a;
      perimeter += smoothLength(ctx, hole, approx);
      if (a >= minCell) cells.push(a);
      else tinyHoles++;
    }
    // Contour areas run through pixel centres; add half the outline back for the pixel area.
    const area = Math.max(1, outerArea - holesArea + perimeter / 2);
    const disc = (perimeter * perimeter) / 4 - 4 * area;
    const length = (perimeter / 2 + Math.sqrt(Math.max(0, disc))) / 2;
    // The 3 × 3 smoothing and closing widen a line by about a pixel (measured on synthetic cracks);
    // in a network the overlaps at the junctions take about as much off, so it keeps the raw width.
    const rawWidth = area / Math.max(1, length);
    const width = Math.max(0.5, rawWidth - 1);
    const widthMm = width * ctx.mpp * 1000;
    const netWidthMm = rawWidth * ctx.mpp * 1000;
    const m = cv.moments(outer, false);
    const angleDeg = (0.5 * Math.atan2(2 * m.mu11, m.mu20 - m.mu02) * 180) / Math.PI;
    // A mesh of many tiny holes is rough texture (raveling, coarse aggregate), not cracking.
    if (tinyHoles >= MAX_TINY_HOLES && tinyHoles > cells.length) continue;
    if (cells.length >= MIN_CELLS) {
      cells.sort((a, b) => a - b);
      const cellSide = Math.sqrt(cells[Math.floor(cells.length / 2)]) * ctx.mpp;
      const kind = cellSide < ALLIGATOR_CELL_M ? 'alligator' : 'block';
      const severity = kind === 'alligator' ? alligatorSeverity(netWidthMm) : lineSeverity(netWidthMm);
      cracks.push({ ...regionOf(cv, outer, outerArea), kind, widthMm: netWidthMm, severity, angleDeg });
    } else if (length >= minLen && length >= MIN_ELONGATION * width && !oneSided(ctx, contours, k, bg, smooth)) {
      cracks.push({
        ...regionOf(cv, outer, length),
        kind: 'linear',
        widthMm,
        severity: lineSeverity(widthMm),
        angleDeg,
      });
    } else {
      continue;
    }
    cv.drawContours(mask, contours, k, [255, 255, 255, 255], -1);
  }
  cv.bitwise_and(mask, raw, mask);
  return { cracks: withoutLinesInNetworks(cracks), mask };
}

/**
 * ASTM D6433 does not count a crack twice: pieces of line inside an alligator or block area
 * (a cell wall the noise cut off from its network) belong to that area.
 */
function withoutLinesInNetworks(cracks: Crack[]): Crack[] {
  const nets = cracks.filter((c) => c.kind !== 'linear');
  return cracks.filter(
    (c) => c.kind !== 'linear' || !nets.some((n) => c.cx >= n.x0 && c.cx <= n.x1 && c.cy >= n.y0 && c.cy <= n.y1),
  );
}

/**
 * A crack has lighter surface on both sides; the inner edge of a stain or shadow has its dark
 * area on one side. The ring 3 px around the component is checked for pixels darker than 0.85 ×
 * their background.
 */
function oneSided(ctx: Ctx, contours: MatVector, k: number, bg: Mat, smooth: Mat): boolean {
  const local = new LocalMask(ctx, contours, k, 4);
  const ring = local.morph(3);
  try {
    const cd = local.mask.data;
    const rd = ring.data;
    const g = smooth.data;
    const b = bg.data;
    const pv = ctx.pavement.data;
    let n = 0;
    let dark = 0;
    for (let j = 0; j < rd.length; j++) {
      if (!rd[j] || cd[j]) continue;
      const i = local.index(j);
      if (!pv[i]) continue;
      n++;
      if (g[i] < 0.85 * b[i]) dark++;
    }
    return n > 0 && dark / n > ONE_SIDED_SHARE;
  } finally {
    ring.delete();
    local.release();
  }
}

/** Perimeter after smoothing pixel steps (approxPolyDP at 1 px), so jagged edges do not inflate length. */
function smoothLength(ctx: Ctx, contour: Mat, out: Mat): number {
  ctx.cv.approxPolyDP(contour, out, 1, true);
  return ctx.cv.arcLength(out, true);
}
