// How sharp a region's outline is: the width of its edge's transition. A saw-cut patch or a
// pothole's broken rim changes tone within a pixel or two; a shadow's penumbra or an oil stain
// fades over centimetres. Inside and outside tones are the means of the region eroded and of a
// ring around it; the transition pixels are those, within a band around the outline, whose
// lightly smoothed grey lies between 25% and 75% of the way from one to the other. Their count
// divided by the outline's length is the transition width in pixels.
import type { Ctx } from './context.ts';
import type { Mat, MatVector } from './cv.ts';

/** Edges whose 25–75% transition is narrower than this are sharp (about 2 px at 5 mm per pixel). */
export const SHARP_EDGE_M = 0.012;

export function edgeWidthPx(
  ctx: Ctx,
  smooth: Mat,
  contours: MatVector,
  idx: number,
): { widthPx: number; inside: number; outside: number } {
  const { cv, s } = ctx;
  const region = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  cv.drawContours(region, contours, idx, [255, 255, 255, 255], -1);
  const inner = s.mat();
  const near = s.mat();
  const far = s.mat();
  cv.erode(region, inner, s.kernel(cv.MORPH_ELLIPSE, 11));
  cv.dilate(region, near, s.kernel(cv.MORPH_ELLIPSE, 11));
  cv.dilate(region, far, s.kernel(cv.MORPH_ELLIPSE, 23));
  const g = smooth.data;
  const pv = ctx.pavement.data;
  const id = inner.data;
  const nd = near.data;
  const fd = far.data;
  let a = 0;
  let na = 0;
  let b = 0;
  let nb = 0;
  for (let i = 0; i < g.length; i++) {
    if (!pv[i]) continue;
    if (id[i]) {
      a += g[i];
      na++;
    } else if (fd[i] && !nd[i]) {
      b += g[i];
      nb++;
    }
  }
  if (na === 0 || nb === 0) return { widthPx: Number.POSITIVE_INFINITY, inside: 0, outside: 0 };
  a /= na;
  b /= nb;
  const lo = Math.min(a, b) + 0.25 * Math.abs(b - a);
  const hi = Math.min(a, b) + 0.75 * Math.abs(b - a);
  let t = 0;
  for (let i = 0; i < g.length; i++) if (pv[i] && nd[i] && !id[i] && g[i] >= lo && g[i] <= hi) t++;
  const length = cv.arcLength(contours.get(idx), true);
  return { widthPx: t / Math.max(1, length), inside: a, outside: b };
}
