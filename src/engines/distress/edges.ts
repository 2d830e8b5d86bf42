// How sharp a region's outline is: the width of its edge's transition. A saw-cut patch or a
// pothole's broken rim changes tone within a pixel or two; a shadow's penumbra or an oil stain
// fades over centimetres. Inside and outside tones are the means of the region eroded and of a
// ring around it; the transition pixels are those, within a band around the outline, whose
// lightly smoothed grey lies between 25% and 75% of the way from one to the other. Their count
// less those texture would put there by chance, divided by the outline's length (leaving out the
// image's border) is the transition width in pixels.
import { type Ctx, LocalMask } from './context.ts';
import type { Mat, MatVector } from './cv.ts';

/**
 * Edges whose 25–75% transition is narrower than this are sharp: 8.5 mm, and never less than 1.7
 * pixels (a sharp edge still spans a pixel or so). Measured on generated images at 5 mm per
 * pixel: patch and pothole edges 0.5–7 mm, shadow penumbras 10–27 mm.
 */
export const SHARP_EDGE_M = 0.0085;
export const SHARP_EDGE_MIN_PX = 1.7;

export function isSharp(ctx: Ctx, widthPx: number): boolean {
  return widthPx < Math.max(SHARP_EDGE_MIN_PX, SHARP_EDGE_M / ctx.mpp);
}

export function edgeWidthPx(
  ctx: Ctx,
  smooth: Mat,
  contours: MatVector,
  idx: number,
): { widthPx: number; inside: number; outside: number } {
  const local = new LocalMask(ctx, contours, idx, 12);
  const inner = local.morph(-5);
  const near = local.morph(5);
  const far = local.morph(11);
  try {
    const g = smooth.data;
    const pv = ctx.pavement.data;
    const id = inner.data;
    const nd = near.data;
    const fd = far.data;
    let a = 0;
    let na = 0;
    let b = 0;
    let nb = 0;
    for (let j = 0; j < id.length; j++) {
      const i = local.index(j);
      if (!pv[i]) continue;
      if (id[j]) {
        a += g[i];
        na++;
      } else if (fd[j] && !nd[j]) {
        b += g[i];
        nb++;
      }
    }
    if (na === 0 || nb === 0) return { widthPx: Number.POSITIVE_INFINITY, inside: 0, outside: 0 };
    a /= na;
    b /= nb;
    const lo = Math.min(a, b) + 0.25 * Math.abs(b - a);
    const hi = Math.min(a, b) + 0.75 * Math.abs(b - a);
    // Texture puts some pixels in the 25–75% range away from any edge too: count that rate inside
    // and outside and take what the band would hold by chance off its count.
    let t = 0;
    let band = 0;
    let chanceIn = 0;
    let chanceOut = 0;
    for (let j = 0; j < id.length; j++) {
      const i = local.index(j);
      if (!pv[i]) continue;
      const mid = g[i] >= lo && g[i] <= hi;
      if (id[j]) {
        if (mid) chanceIn++;
      } else if (nd[j]) {
        band++;
        if (mid) t++;
      } else if (fd[j] && mid) chanceOut++;
    }
    t = Math.max(0, t - (band * (chanceIn / na + chanceOut / nb)) / 2);
    const length = innerLength(contours.get(idx).data32S, ctx.width, ctx.height);
    return { widthPx: t / Math.max(1, length), inside: a, outside: b };
  } finally {
    inner.delete();
    near.delete();
    far.delete();
    local.release();
  }
}

/** Outline length without the stretches along the image's border, where there is no edge to measure. */
function innerLength(pts: Int32Array, width: number, height: number): number {
  const onBorder = (x: number, y: number) => x <= 1 || y <= 1 || x >= width - 2 || y >= height - 2;
  let total = 0;
  const n = pts.length / 2;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    const [x0, y0, x1, y1] = [pts[k * 2], pts[k * 2 + 1], pts[j * 2], pts[j * 2 + 1]];
    if (onBorder(x0, y0) && onBorder(x1, y1)) continue;
    total += Math.hypot(x1 - x0, y1 - y0);
  }
  return total;
}
