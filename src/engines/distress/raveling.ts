// Weathering and raveling: a surface that has lost its fines is rough. Roughness is the local
// standard deviation of grey over a window about 5 cm wide (box filters of the image and of its
// square) after clipping the dark side (roughnessMap), divided by the local mean so it depends
// neither on exposure nor on shade. Pixels rougher than
// RAVEL_ROUGH (potholes and paint left out) are opened with an 8 cm square (so the edges of
// patches and shadows, a thin band, drop out) and counted as area. Severity by mean roughness
// inside: < 0.24 low, 0.24–0.34 medium, above high (our proxy for the standard's descriptions
// of aggregate loss; docs/condition.md, "The built-in distress detector").
import { type Ctx, kernelPx, type Region } from './context.ts';
import type { Mat } from './cv.ts';
import type { Severity } from './types.ts';

export const RAVEL_ROUGH = 0.1;

/**
 * Local standard deviation over median grey, per pixel, of the image with its dark side clipped
 * at 0.9 × the background: exposed stones (lighter than the binder) make a raveled surface rough,
 * while cracks, stains and shadows (all darker) add nothing, so a crack is never read as raveling.
 */
export function roughnessMap(ctx: Ctx, bg: Mat): Float32Array {
  const { cv, s } = ctx;
  // The reference is the brighter of the background and a median over 50 cm: inside a crack too
  // wide for the background's window (which then sits mostly on the crack) the wider one still
  // sees the surface. A closing would not do: it rides on the bright stones of a raveled surface.
  const wide = s.mat();
  cv.medianBlur(ctx.gray, wide, kernelPx(ctx, 0.5, 7, 121));
  const g = ctx.gray.data;
  const b = bg.data;
  const w = wide.data;
  const clipped = new Float32Array(g.length);
  for (let i = 0; i < g.length; i++) clipped[i] = Math.max(g[i], 0.9 * Math.max(b[i], w[i])) / 255;
  const f = s.track(cv.matFromArray(ctx.height, ctx.width, cv.CV_32F, clipped));
  const sq = s.mat();
  cv.multiply(f, f, sq);
  const k = kernelPx(ctx, 0.05, 3, 41);
  const mean = s.mat();
  const meanSq = s.mat();
  cv.blur(f, mean, new cv.Size(k, k));
  cv.blur(sq, meanSq, new cv.Size(k, k));
  const m = mean.data32F;
  const m2 = meanSq.data32F;
  const out = new Float32Array(m.length);
  // Over the local mean, not the image's median: a lit half next to a shadowed half is not rougher.
  for (let i = 0; i < m.length; i++) out[i] = Math.sqrt(Math.max(0, m2[i] - m[i] * m[i])) / Math.max(m[i], 4 / 255);
  return out;
}

export interface RavelingFinding {
  region: Region | undefined;
  severity: Severity;
  /** The raveled pixels (255): crack detection leaves them out (a raveled surface is all dark pits). */
  mask: Mat;
}

export function findRaveling(ctx: Ctx, rough: Float32Array, exclude: Mat, judge: boolean): RavelingFinding {
  const { cv, s } = ctx;
  const mask = s.zeros(ctx.height, ctx.width, cv.CV_8UC1);
  const md = mask.data;
  const pv = ctx.pavement.data;
  const ex = exclude.data;
  if (judge) for (let i = 0; i < md.length; i++) if (pv[i] && !ex[i] && rough[i] > RAVEL_ROUGH) md[i] = 255;
  cv.morphologyEx(mask, mask, cv.MORPH_OPEN, s.kernel(cv.MORPH_RECT, kernelPx(ctx, 0.08, 3, 61)));
  let n = 0;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  let x0 = ctx.width;
  let y0 = ctx.height;
  let x1 = 0;
  let y1 = 0;
  for (let i = 0; i < md.length; i++) {
    if (!md[i]) continue;
    const x = i % ctx.width;
    const y = (i - x) / ctx.width;
    n++;
    sum += rough[i];
    sx += x;
    sy += y;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (n === 0) return { region: undefined, severity: 'low', mask };
  const mean = sum / n;
  const severity: Severity = mean < 0.24 ? 'low' : mean <= 0.34 ? 'medium' : 'high';
  return { region: { amount: n, x0, y0, x1, y1, cx: sx / n, cy: sy / n }, severity, mask };
}
