// Patches: regions of distinctly different tone with straight, sharp edges. The tone image is the
// crack-free background (cracks.ts; so crack networks do not darken their area) smoothed over
// about 5 cm; pixels whose tone differs from the tone's median over the pavement by PATCH_TONE
// of it form candidates, opened
// to drop anything under about 6 cm. A candidate is a patch when it is large enough (at least
// 0.3 m across), polygonal (its outline simplifies to at most 8 corners), solid and close to its
// rotated bounding rectangle, and sharp-edged (shadows fade; a saw-cut patch edge does not),
// and not rough all over (that is raveling). Severity: low, or medium when cracks run inside it.
// Patches are found before cracks, whose search leaves out a band around every tone outline.
import { type Ctx, kernelPx, LocalMask, type Region, regionOf } from './context.ts';
import type { Mat } from './cv.ts';
import { edgeWidthPx, isSharp } from './edges.ts';
import type { Severity } from './types.ts';

export const PATCH_TONE = 0.15;
const MIN_SIDE_M = 0.3;

export interface Patch extends Region {
  /** The patch's pixels (255), to look for cracks inside it (patchSeverity). */
  mask: LocalMask;
}
export interface PatchFinding {
  patches: Patch[];
  /** Soft-edged tone regions (shadows, stains) in pixels, reported as a limitation. */
  softPx: number;
  /** A band around every tone region's outline, patch or not: crack detection leaves it out, since a
   * tone step's corners read as short dark lines. */
  outlines: Mat;
}

/** Low, or medium when cracks cover more than 1% of the patch (a patch in fair condition). */
export function patchSeverity(patch: Patch, cracks: Mat): Severity {
  const pd = patch.mask.mask.data;
  const kd = cracks.data;
  let n = 0;
  let cracked = 0;
  for (let j = 0; j < pd.length; j++) {
    if (!pd[j]) continue;
    n++;
    if (kd[patch.mask.index(j)]) cracked++;
  }
  return cracked > 0.01 * n ? 'medium' : 'low';
}

export function findPatches(
  ctx: Ctx,
  bg: Mat,
  smooth: Mat,
  exclude: Mat,
  roughness: Float32Array,
  roughLimit: number,
): PatchFinding {
  const { cv, s } = ctx;
  const tone = s.mat();
  const k = kernelPx(ctx, 0.05, 3, 31);
  cv.GaussianBlur(bg, tone, new cv.Size(k, k), 0);
  const cand = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const t = tone.data;
  const pv = ctx.pavement.data;
  const ex = exclude.data;
  const cd = cand.data;
  const hist = new Uint32Array(256);
  let total = 0;
  for (let i = 0; i < cd.length; i++) {
    if (pv[i]) {
      hist[t[i]]++;
      total++;
    }
  }
  let toneMedian = 0;
  let acc = hist[0];
  while (toneMedian < 255 && acc * 2 < total) {
    toneMedian++;
    acc += hist[toneMedian];
  }
  const limit = Math.max(10, PATCH_TONE * toneMedian);
  for (let i = 0; i < cd.length; i++) if (pv[i] && !ex[i] && Math.abs(t[i] - toneMedian) > limit) cd[i] = 255;
  cv.morphologyEx(cand, cand, cv.MORPH_OPEN, s.kernel(cv.MORPH_RECT, kernelPx(ctx, 0.06, 3, 41)));
  const contours = s.track(new cv.MatVector());
  const hierarchy = s.mat();
  cv.findContours(cand, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
  const patches: Patch[] = [];
  let softPx = 0;
  const minArea = (MIN_SIDE_M / ctx.mpp) ** 2;
  const approx = s.mat();
  const hull = s.mat();
  for (let c = 0; c < contours.size(); c++) {
    const contour = contours.get(c);
    const area = cv.contourArea(contour);
    if (area < minArea) continue;
    const region = s.track(new LocalMask(ctx, contours, c, 0));
    const rd = region.mask.data;
    const gd = ctx.gray.data;
    let sum = 0;
    let rough = 0;
    let n = 0;
    for (let j = 0; j < rd.length; j++) {
      if (!rd[j]) continue;
      const i = region.index(j);
      n++;
      sum += gd[i];
      if (roughness[i] > roughLimit) rough++;
    }
    const contrast = Math.abs(sum / Math.max(1, n) - toneMedian);
    const sharp = isSharp(ctx, edgeWidthPx(ctx, smooth, contours, c).widthPx);
    cv.approxPolyDP(contour, approx, 0.02 * cv.arcLength(contour, true), true);
    cv.convexHull(contour, hull, false, true);
    const box = cv.minAreaRect(contour);
    const solidity = area / Math.max(1, cv.contourArea(hull));
    const rectangularity = area / Math.max(1, box.size.width * box.size.height);
    const polygonal = approx.rows <= 10 && solidity >= 0.75 && rectangularity >= 0.55;
    if (!sharp) {
      softPx += n;
      continue;
    }
    if (!polygonal || rough > 0.5 * n) continue;
    patches.push({ ...regionOf(cv, contour, n), mask: region });
  }
  const outlines = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  cv.drawContours(outlines, contours, -1, [255, 255, 255, 255], kernelPx(ctx, 0.06, 3, 31));
  return { patches, softPx, outlines };
}
