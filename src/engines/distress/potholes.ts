// Potholes: dark, compact blobs with sharp edges. Pixels darker than POTHOLE_DARK × the pavement
// median are opened with a 5 cm square (which removes cracks narrower than that), then
// each connected blob is kept when it is compact (not a crack: fill of its rotated box and a low
// aspect ratio), smaller than a pothole can be (ASTM D6433 potholes are up to 750 mm across; we
// allow 1 m) and sharp-edged (a shadow or oil stain fades over centimetres; a pothole's rim does
// not), and not part of a long dark line (sealant, a wide crack). Severity: the standard grades by depth, which one image cannot measure; darkness stands
// in for it (a deeper hole is more shadowed): mean/median ≥ 0.45 low, 0.30–0.45 medium, < 0.30 high.
import { type Ctx, kernelPx, LocalMask, type Region, regionOf } from './context.ts';
import type { Mat } from './cv.ts';
import { edgeWidthPx, isSharp } from './edges.ts';
import type { Severity } from './types.ts';

export const POTHOLE_DARK = 0.55;
/** A pothole is at least this much darker than the ring around it (inside ÷ outside). */
export const POTHOLE_LOCAL = 0.7;
const LINE_SHARE = 2.5;
const MAX_DIAMETER_M = 1;
/** ASTM D6433's pothole severity table starts at 100 mm across. */
const MIN_DIAMETER_M = 0.1;

export interface Pothole extends Region {
  severity: Severity;
}
export interface PotholeFinding {
  potholes: Pothole[];
  /** The potholes' pixels (255), for the other stages to leave out. */
  mask: Mat;
  /** Dark soft-edged area (shadows, stains) in pixels, reported as a limitation. */
  softDarkPx: number;
}

export function findPotholes(ctx: Ctx, smooth: Mat): PotholeFinding {
  const { cv, s } = ctx;
  const dark = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const limit = ctx.median * POTHOLE_DARK;
  const g = ctx.gray.data;
  const pv = ctx.pavement.data;
  const dd = dark.data;
  for (let i = 0; i < dd.length; i++) if (pv[i] && g[i] < limit) dd[i] = 255;
  // The dark areas before opening, labelled: a blob that is a small part of a much larger dark
  // component is a widening of a dark line (crack sealant, a wide crack), not a hole.
  const labels = s.mat();
  const stats = s.mat();
  const centroids = s.mat();
  cv.connectedComponentsWithStats(dark, labels, stats, centroids, 8, cv.CV_32S);
  cv.morphologyEx(dark, dark, cv.MORPH_OPEN, s.kernel(cv.MORPH_RECT, kernelPx(ctx, 0.05, 3, 31)));
  const contours = s.track(new cv.MatVector());
  const hierarchy = s.mat();
  cv.findContours(dark, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  const mask = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const potholes: Pothole[] = [];
  let softDarkPx = 0;
  const minArea = (Math.PI / 4) * (MIN_DIAMETER_M / ctx.mpp) ** 2;
  const maxArea = (Math.PI / 4) * (MAX_DIAMETER_M / ctx.mpp) ** 2;
  for (let k = 0; k < contours.size(); k++) {
    const c = contours.get(k);
    const area = cv.contourArea(c);
    if (area < minArea) continue;
    const box = cv.minAreaRect(c);
    const long = Math.max(box.size.width, box.size.height);
    const short = Math.max(1, Math.min(box.size.width, box.size.height));
    const blob = new LocalMask(ctx, contours, k, 0);
    let sum = 0;
    let n = 0;
    const bm = blob.mask.data;
    for (let j = 0; j < bm.length; j++) {
      if (bm[j]) {
        sum += g[blob.index(j)];
        n++;
      }
    }
    blob.release();
    const ratio = n > 0 ? sum / n / ctx.median : 1;
    const around = edgeWidthPx(ctx, smooth, contours, k);
    const sharp = isSharp(ctx, around.widthPx);
    // Darker than its own surroundings, not just than the whole pavement (a dip inside a shadow is not a hole).
    const local = around.outside > 0 ? around.inside / around.outside : 1;
    const compact = long / short <= 3 && area / (long * short) >= 0.55;
    if (area > maxArea || !sharp) {
      softDarkPx += area;
      continue;
    }
    if (!compact || local > POTHOLE_LOCAL || partOfLine(ctx, c, labels, stats, area)) continue;
    cv.drawContours(mask, contours, k, [255, 255, 255, 255], -1);
    let severity: Severity = ratio >= 0.45 ? 'low' : ratio >= 0.3 ? 'medium' : 'high';
    // The standard's large holes (over 450 mm across) rate one level higher at the same depth.
    if (Math.sqrt((4 * area) / Math.PI) * ctx.mpp > 0.45) severity = severity === 'low' ? 'medium' : 'high';
    potholes.push({ ...regionOf(cv, c, n), severity });
  }
  return { potholes, mask, softDarkPx };
}

/** The blob's dark component (before opening) is over LINE_SHARE times its area and spans over 3 of its diameters. */
function partOfLine(ctx: Ctx, contour: Mat, labels: Mat, stats: Mat, area: number): boolean {
  const pts = contour.data32S;
  const label = labels.data32S[pts[1] * ctx.width + pts[0]];
  if (label <= 0) return false;
  // Rows of stats: left, top, width, height, area (OpenCV's CC_STAT_* order).
  const st = stats.data32S;
  const componentArea = st[label * 5 + 4];
  const span = Math.max(st[label * 5 + 2], st[label * 5 + 3]);
  const diameter = Math.sqrt((4 * area) / Math.PI);
  return componentArea > LINE_SHARE * area && span > 3 * diameter;
}
