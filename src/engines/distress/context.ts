// What every detection stage shares: the OpenCV module and the Mats of one detection, the scale,
// and the prepared images (docs/condition-detector.md, "Pipeline").
import type { Cv, Mat, MatScope } from './cv.ts';

/** A set of pixels a stage found, kept for `where` and for the other stages to leave out. */
export interface Region {
  /** Pixel count (area) or length in pixels (linear) this region contributes. */
  amount: number;
  /** Bounding box and centroid in analysis pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
}

export interface Ctx {
  cv: Cv;
  s: MatScope;
  width: number;
  height: number;
  /** Metres per analysis pixel. */
  mpp: number;
  /** Grey levels with paint and non-pavement replaced by the pavement's median, so they make no edges. */
  gray: Mat;
  /** Rated pavement (255) within the rated area. */
  pavement: Mat;
  /** Bright paint markings (255). */
  paint: Mat;
  /** Median grey level of the rated pavement. */
  median: number;
  /** Rated pavement pixel count. */
  pavementPx: number;
}

/** Odd kernel size covering `meters` at this scale, within [min, max] pixels. */
export function kernelPx(ctx: Ctx, meters: number, min: number, max: number): number {
  const k = Math.round(meters / ctx.mpp);
  const c = Math.max(min, Math.min(max, k));
  return c % 2 === 0 ? c + 1 : c;
}

/** Bounding box and centroid of a region from its contour's moments and bounding points. */
export function regionOf(cv: Cv, contour: Mat, amount: number): Region {
  const m = cv.moments(contour, false);
  const pts = contour.data32S;
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < pts.length; k += 2) {
    x0 = Math.min(x0, pts[k]);
    x1 = Math.max(x1, pts[k]);
    y0 = Math.min(y0, pts[k + 1]);
    y1 = Math.max(y1, pts[k + 1]);
  }
  const cx = m.m00 > 0 ? m.m10 / m.m00 : (x0 + x1) / 2;
  const cy = m.m00 > 0 ? m.m01 / m.m00 : (y0 + y1) / 2;
  return { amount, x0, y0, x1, y1, cx, cy };
}

/** Mean of `values` over pixels where `mask` is set (both single-channel 8-bit, same size). */
export function maskedMean(values: Uint8Array, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      sum += values[i];
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}
