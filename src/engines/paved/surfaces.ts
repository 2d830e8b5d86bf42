// Paved regions (docs/measurement-detector.md, "Paved regions"): grey, smooth pixels whose tone is
// that of asphalt (dark grey) or concrete (light grey), paint joined to the surface it lies on,
// cleaned by a closing (paint, joints, specks) and an opening (kerbs, roof edges, thin grey bits),
// then traced as outlines with their holes (buildings, islands, tree canopies inside) and
// simplified. Regions under MIN_REGION_M2 and holes under MIN_HOLE_M2 are dropped.
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { type Features, oddPx } from './features.ts';
import type { FoundSurface, PavedSurface, PixelPoint } from './types.ts';

/** Grey-level bands: darker is deep shadow, lighter a white roof. */
export const TONE_MIN = 35;
export const ASPHALT_MAX = 148;
export const CONCRETE_MAX = 218;
/** Texture (grey levels, see roughness) above which a grey area is too rough to be pavement (gravel, rooftop ballast). */
const MAX_ROUGHNESS = 12;
export const MIN_REGION_M2 = 50;
export const MIN_HOLE_M2 = 2;
/**
 * Contours run through the centres of the paved region's border pixels, half a pixel inside its
 * true edge: outlines are grown and holes shrunk by that half pixel, which takes away a bias of
 * −(perimeter × ½ px) in area (about −0.6% on a generated lot at 0.12 m per pixel).
 */
const EDGE_PX = 0.5;

export interface SurfaceMasks {
  asphalt: Mat;
  concrete: Mat;
  /** Either surface (255), after cleaning: where paint counts as on the pavement. */
  paved: Mat;
}

export function surfaceMasks(cv: Cv, s: MatScope, f: Features, paint: Mat, mpp: number): SurfaceMasks {
  const rough = roughness(cv, s, f, paint, mpp);
  const asphalt = s.zeros(f.height, f.width, cv.CV_8UC1);
  const concrete = s.zeros(f.height, f.width, cv.CV_8UC1);
  const ad = asphalt.data;
  const cd = concrete.data;
  const ed = f.grey.data;
  const td = f.tone.data;
  const gd = f.gray.data;
  const pd = paint.data;
  for (let i = 0; i < ad.length; i++) {
    // A pixel's own grey level decides (a median would blur the lot's edge into the grass), except
    // on paint, where the tone around it tells the surface.
    const t = pd[i] ? td[i] : gd[i];
    if (t < TONE_MIN || t > CONCRETE_MAX) continue;
    // Paint lies on the surface: it joins whichever the tone around it says.
    if (!pd[i] && (!ed[i] || rough[i] > MAX_ROUGHNESS)) continue;
    if (t <= ASPHALT_MAX) ad[i] = 255;
    else cd[i] = 255;
  }
  const close = s.kernel(cv.MORPH_RECT, oddPx(0.6, mpp, 3, 31));
  const open = s.kernel(cv.MORPH_RECT, oddPx(1.2, mpp, 3, 61));
  for (const m of [asphalt, concrete]) {
    cv.morphologyEx(m, m, cv.MORPH_CLOSE, close);
    cv.morphologyEx(m, m, cv.MORPH_OPEN, open);
  }
  // Closing each mask can let them overlap by a few pixels at an asphalt/concrete seam: asphalt yields.
  cv.subtract(asphalt, concrete, asphalt);
  const paved = s.mat();
  cv.bitwise_or(asphalt, concrete, paved);
  return { asphalt, concrete, paved };
}

/**
 * Texture: the root mean square, over ~0.5 m, of the grey level's departure from its median (the
 * tone). A median keeps step edges, so a lot's edge against grass is not rough; gravel and rooftop
 * ballast are. Paint is taken out (it is the tone there).
 */
function roughness(cv: Cv, s: MatScope, f: Features, paint: Mat, mpp: number): Float32Array {
  const g = s.mat();
  f.gray.copyTo(g);
  f.tone.copyTo(g, paint);
  const g32 = s.mat();
  const t32 = s.mat();
  g.convertTo(g32, cv.CV_32F);
  f.tone.convertTo(t32, cv.CV_32F);
  cv.subtract(g32, t32, g32);
  cv.multiply(g32, g32, g32);
  const k = oddPx(0.5, mpp, 3, 9);
  cv.blur(g32, t32, new cv.Size(k, k));
  const v = t32.data32F;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = Math.sqrt(v[i]);
  return out;
}

/** Outlines with holes of one surface's mask, in pixel coordinates (pixel centres at +0.5). */
export function traceSurfaces(cv: Cv, s: MatScope, mask: Mat, surface: PavedSurface, mpp: number): FoundSurface[] {
  const contours = s.track(new cv.MatVector());
  const hierarchy = s.mat();
  cv.findContours(mask, contours, hierarchy, cv.RETR_CCOMP, cv.CHAIN_APPROX_SIMPLE);
  const h = hierarchy.data32S;
  const px2 = mpp * mpp;
  const epsilon = Math.max(0.75, 0.1 / mpp);
  const approx = s.mat();
  const ring = (c: number, grow: number): PixelPoint[] => {
    cv.approxPolyDP(contours.get(c), approx, epsilon, true);
    const d = approx.data32S;
    const out: PixelPoint[] = [];
    for (let k = 0; k < d.length; k += 2) out.push([d[k] + 0.5, d[k + 1] + 0.5]);
    return offsetRing(out, grow);
  };
  const found: FoundSurface[] = [];
  // RETR_CCOMP: top-level contours are outlines, their children (next = h[4c], first child = h[4c + 2]) holes.
  for (let c = 0; c < contours.size(); c++) {
    if (h[c * 4 + 3] !== -1) continue;
    if (cv.contourArea(contours.get(c)) * px2 < MIN_REGION_M2) continue;
    const rings = [ring(c, EDGE_PX)];
    for (let k = h[c * 4 + 2]; k !== -1; k = h[k * 4]) {
      if (cv.contourArea(contours.get(k)) * px2 >= MIN_HOLE_M2) rings.push(ring(k, -EDGE_PX));
    }
    found.push({ surface, rings });
  }
  return found;
}

/** Moves every edge of a ring `d` pixels outward (negative: inward), corners mitred. */
function offsetRing(ring: PixelPoint[], d: number): PixelPoint[] {
  const n = ring.length;
  let twice = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) twice += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  // Outward normal of an edge (dx, dy) is (dy, −dx) when the shoelace sum is positive.
  const sign = twice > 0 ? 1 : -1;
  const normal = (a: PixelPoint, b: PixelPoint): PixelPoint => {
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    return [(sign * (b[1] - a[1])) / len, (-sign * (b[0] - a[0])) / len];
  };
  return ring.map((p, i) => {
    const n1 = normal(ring[(i - 1 + n) % n], p);
    const n2 = normal(p, ring[(i + 1) % n]);
    // Mitre: the corner moves so both edges move by d; capped at very sharp corners.
    const k = d / Math.max(0.25, 1 + n1[0] * n2[0] + n1[1] * n2[1]);
    return [p[0] + (n1[0] + n2[0]) * k, p[1] + (n1[1] + n2[1]) * k];
  });
}
