// A mask's regions as simplified polygons whose areas are the regions' pixel counts
// (docs/landscape-detector.md, "Outlines"). findContours runs through the centres of a region's
// border pixels, half a pixel inside its true edge, and simplifying a curved outline cuts its bulges
// as chords: both shrink the area, by about half a pixel times the perimeter and more, which on a
// 10 m² bed at 0.3 m per pixel is over 20%. So each simplified ring is grown (or shrunk) evenly
// until its area is the count of pixels it stands for, known exactly from the raw contour by Pick's
// theorem (a lattice polygon of area A with B boundary points holds A − B/2 + 1 points strictly
// inside): an outline stands for A + B/2 + 1 pixels (inside and on it), a hole for A − B/2 + 1.
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import type { PixelPoint } from './types.ts';

export interface TraceOptions {
  /** Regions under this many m² are dropped, holes under `minHoleM2` filled. */
  minAreaM2: number;
  minHoleM2: number;
  /** Simplification tolerance on the ground, m (never under 0.7 px). */
  toleranceM: number;
}

/** Each region of a mask: outline then holes, pixel coordinates (pixel centres at +0.5), rings open. */
export function traceRegions(cv: Cv, s: MatScope, mask: Mat, mpp: number, o: TraceOptions): PixelPoint[][][] {
  const contours = s.track(new cv.MatVector());
  const hierarchy = s.mat();
  cv.findContours(mask, contours, hierarchy, cv.RETR_CCOMP, cv.CHAIN_APPROX_NONE);
  const h = hierarchy.data32S;
  const px2 = mpp * mpp;
  const epsilon = Math.max(0.7, o.toleranceM / mpp);
  const approx = s.mat();
  const ring = (c: number, pixels: number): PixelPoint[] | null => {
    cv.approxPolyDP(contours.get(c), approx, epsilon, true);
    const d = approx.data32S;
    if (d.length < 6) return null;
    const out: PixelPoint[] = [];
    for (let k = 0; k < d.length; k += 2) out.push([d[k] + 0.5, d[k + 1] + 0.5]);
    return growTo(out, pixels);
  };
  /** Pixels an outline (+1) or a hole (−1) stands for, by Pick's theorem on the raw contour. */
  const pixelsOf = (c: number, side: 1 | -1) => {
    const contour = contours.get(c);
    return cv.contourArea(contour) + (side * contour.rows) / 2 + 1;
  };
  const regions: PixelPoint[][][] = [];
  // RETR_CCOMP: top-level contours are outlines, their children (next = h[4c], first child = h[4c + 2]) holes.
  for (let c = 0; c < contours.size(); c++) {
    if (h[c * 4 + 3] !== -1) continue;
    const pixels = pixelsOf(c, 1);
    if (pixels * px2 < o.minAreaM2) continue;
    const outline = ring(c, pixels);
    if (!outline) continue;
    const rings = [outline];
    for (let k = h[c * 4 + 2]; k !== -1; k = h[k * 4]) {
      const hole = pixelsOf(k, -1);
      if (hole * px2 < o.minHoleM2) continue;
      const r = ring(k, hole);
      if (r) rings.push(r);
    }
    regions.push(rings);
  }
  return regions;
}

/** Shoelace area of a ring, signed (positive when the sum runs counter-clockwise in x-right, y-down terms). */
function signedArea(ring: PixelPoint[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return a / 2;
}

function perimeter(ring: PixelPoint[]): number {
  let p = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    p += Math.hypot(ring[i][0] - ring[j][0], ring[i][1] - ring[j][1]);
  return p;
}

/**
 * Moves every edge of a ring by the same distance so its area becomes `target`: the distance is
 * the missing area over the perimeter, twice (the second step takes out the corners' share).
 */
export function growTo(ring: PixelPoint[], target: number): PixelPoint[] {
  let out = ring;
  for (let step = 0; step < 2; step++) {
    const d = (target - Math.abs(signedArea(out))) / perimeter(out);
    if (!Number.isFinite(d) || Math.abs(d) < 1e-4) break;
    out = offset(out, d);
  }
  return out;
}

/** Every edge moved `d` outward (negative: inward), corners mitred, very sharp corners capped. */
function offset(ring: PixelPoint[], d: number): PixelPoint[] {
  const n = ring.length;
  const sign = signedArea(ring) > 0 ? 1 : -1;
  // Outward unit normal of edge k (from point k to k + 1).
  const normals = ring.map((p, k) => {
    const q = ring[(k + 1) % n];
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
    return [(sign * (q[1] - p[1])) / len, (-sign * (q[0] - p[0])) / len] as const;
  });
  return ring.map((p, k) => {
    const a = normals[(k - 1 + n) % n];
    const b = normals[k];
    // The corner moves along the sum of the two normals, far enough that both edges move by d.
    const scale = d / Math.max(0.25, 1 + a[0] * b[0] + a[1] * b[1]);
    return [p[0] + (a[0] + b[0]) * scale, p[1] + (a[1] + b[1]) * scale];
  });
}
