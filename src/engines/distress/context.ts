// What every detection stage shares: the OpenCV module and the Mats of one detection, the scale,
// and the prepared images (docs/condition.md, "Pipeline").
import type { Cv, Mat, MatScope, MatVector } from './cv.ts';

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

/**
 * One contour's filled mask in a window around it (its bounding box plus `margin`), so per-region
 * work costs the region's size, not the image's. Not tracked by the scope: call release().
 */
export class LocalMask {
  readonly mask: Mat;
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  constructor(
    readonly ctx: Ctx,
    contours: MatVector,
    idx: number,
    margin: number,
  ) {
    const { cv } = ctx;
    const r = cv.boundingRect(contours.get(idx));
    this.x0 = Math.max(0, r.x - margin);
    this.y0 = Math.max(0, r.y - margin);
    this.w = Math.min(ctx.width, r.x + r.width + margin) - this.x0;
    this.h = Math.min(ctx.height, r.y + r.height + margin) - this.y0;
    this.mask = new cv.Mat(this.h, this.w, cv.CV_8UC1, [0, 0, 0, 0]);
    const none = new cv.Mat();
    try {
      cv.drawContours(
        this.mask,
        contours,
        idx,
        [255, 255, 255, 255],
        -1,
        cv.LINE_8,
        none,
        0,
        new cv.Point(-this.x0, -this.y0),
      );
    } finally {
      none.delete();
    }
  }
  /** The image index of window pixel j. */
  index(j: number): number {
    const x = j % this.w;
    return (this.y0 + (j - x) / this.w) * this.ctx.width + this.x0 + x;
  }
  /** A new window-sized Mat: the mask dilated (d > 0) or eroded (d < 0) by a disc of |d| px radius. */
  morph(d: number): Mat {
    const { cv } = this.ctx;
    const out = new cv.Mat();
    const k = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(2 * Math.abs(d) + 1, 2 * Math.abs(d) + 1));
    try {
      if (d > 0) cv.dilate(this.mask, out, k);
      else cv.erode(this.mask, out, k);
    } finally {
      k.delete();
    }
    return out;
  }
  release(): void {
    this.mask.delete();
  }
  /** So a MatScope can track it. */
  delete(): void {
    this.release();
  }
}
