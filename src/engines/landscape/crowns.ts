// Trees and shrubs as points (docs/landscape-detector.md, "Crowns"): the crown mask's distance
// transform peaks at each crown's centre, also where crowns touch or overlap (the union's outline
// pinches between them). Peaks are taken largest first; a lower one is a crown of its own when it
// lies outside every kept crown's inscribed circle and the distance dips between the two (a saddle),
// not along one elongated crown. Every crown pixel then goes to the nearest kept peak (nearest by
// power distance, d² − r², so a big crown keeps its side of the seam): the crown's centre is its
// pixels' centroid and its radius that of a circle of their area. Under SHRUB_MAX_DIAMETER_M
// across it is a shrub; a tree is evergreen when its mean colour is blue enough against its green.
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { labelImage, type Pieces, pieces } from './runs.ts';
import type { FoundObject } from './types.ts';

/** Crowns narrower than this are shrubs (a 2.5 m, about 8 ft, spread). */
export const SHRUB_MAX_DIAMETER_M = 3;
/** Crowns under this area are specks, not plants. */
export const MIN_CROWN_M2 = 0.4;
/** Mean blue ÷ mean green at which a tree reads evergreen (conifers are darker and bluer). */
export const EVERGREEN_BLUE_GREEN = 0.62;
/** A lower peak is its own crown when the distance along the way to a kept one drops under this share of its own. */
const SADDLE = 0.9;
/** A piece of crown larger than this many times its peaks' discs holds another crown. */
const UNEXPLAINED = 1.7;

interface Peak {
  x: number;
  y: number;
  r: number;
}

export function findCrowns(cv: Cv, s: MatScope, crown: Mat, rgb: Uint8Array, mpp: number): FoundObject[] {
  const w = crown.cols;
  const dist = s.mat();
  cv.distanceTransform(crown, dist, cv.DIST_L2, 5);
  const dilated = s.mat();
  cv.dilate(dist, dilated, s.kernel(cv.MORPH_RECT, 3));
  const dd = dist.data32F;
  const md = dilated.data32F;
  const minR = Math.max(1, 0.3 / mpp);
  const candidates: Peak[] = [];
  for (let i = 0; i < dd.length; i++)
    if (dd[i] >= minR && dd[i] >= md[i]) candidates.push({ x: i % w, y: Math.floor(i / w), r: dd[i] });
  candidates.sort((a, b) => b.r - a.r || a.y - b.y || a.x - b.x);
  const peaks: Peak[] = [];
  for (const c of candidates) {
    const own = peaks.every((p) => {
      const d = Math.hypot(p.x - c.x, p.y - c.y);
      if (d > p.r + c.r) return true;
      if (d < p.r) return false;
      return minAlong(dd, w, p, c) < Math.min(SADDLE * c.r, c.r - 1);
    });
    if (own) peaks.push(c);
  }
  const p = pieces(crown.data, w, crown.rows, 8);
  const ld = labelImage(p, w, crown.rows);
  addUnexplained(peaks, candidates, ld, p.area, p.count, w);
  return assign(p, ld, w, peaks, rgb, mpp);
}

/**
 * Where crowns overlap much, the union's outline hardly pinches between them (and at a coarse
 * scale the texture window fills the seam), so the saddle test sees one crown. A piece of crown
 * far larger than the discs of its peaks is more than one crown: the largest remaining peak well
 * outside the kept ones is added, until the discs account for the piece.
 */
function addUnexplained(peaks: Peak[], candidates: Peak[], ld: Int32Array, area: Int32Array, count: number, w: number) {
  const covered = new Float64Array(count);
  const label = (p: Peak) => ld[p.y * w + p.x];
  for (const p of peaks) covered[label(p)] += Math.PI * p.r * p.r;
  for (const c of candidates) {
    const k = label(c);
    if (area[k] <= UNEXPLAINED * covered[k]) continue;
    const apart = peaks.every((p) => label(p) !== k || Math.hypot(p.x - c.x, p.y - c.y) >= p.r);
    if (!apart) continue;
    peaks.push(c);
    covered[k] += Math.PI * c.r * c.r;
  }
}

/** The least distance-transform value on the straight way between two peaks. */
function minAlong(dd: Float32Array, w: number, a: Peak, b: Peak): number {
  const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
  let least = Number.POSITIVE_INFINITY;
  for (let k = 0; k <= steps; k++) {
    const x = Math.round(a.x + ((b.x - a.x) * k) / steps);
    const y = Math.round(a.y + ((b.y - a.y) * k) / steps);
    least = Math.min(least, dd[y * w + x]);
  }
  return least;
}

/** Each crown pixel to its connected piece's nearest peak; centroid, area and mean colour per peak. */
function assign(pc: Pieces, ld: Int32Array, w: number, peaks: Peak[], rgb: Uint8Array, mpp: number): FoundObject[] {
  const byPiece: number[][] = Array.from({ length: pc.count }, () => []);
  peaks.forEach((p, k) => {
    byPiece[ld[p.y * w + p.x]].push(k);
  });
  const n = peaks.length;
  const area = new Float64Array(n);
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const colour = new Float64Array(n * 3);
  const px = new Float64Array(n);
  const py = new Float64Array(n);
  const pr2 = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    px[k] = peaks[k].x;
    py[k] = peaks[k].y;
    pr2[k] = peaks[k].r * peaks[k].r;
  }
  // Run by run, in raster order (the sums add up in the order a pass over the pixels would).
  for (let r = 0; r < pc.runs; r++) {
    const list = byPiece[pc.label[r]];
    if (list.length === 0) continue;
    const y = pc.y[r];
    for (let x = pc.x0[r]; x < pc.x1[r]; x++) {
      let best = list[0];
      if (list.length > 1) {
        let bestD = Number.POSITIVE_INFINITY;
        for (const k of list) {
          const d = (px[k] - x) ** 2 + (py[k] - y) ** 2 - pr2[k];
          if (d < bestD) {
            bestD = d;
            best = k;
          }
        }
      }
      const i = (y * w + x) * 3;
      area[best]++;
      sx[best] += x;
      sy[best] += y;
      colour[best * 3] += rgb[i];
      colour[best * 3 + 1] += rgb[i + 1];
      colour[best * 3 + 2] += rgb[i + 2];
    }
  }
  const found: FoundObject[] = [];
  for (let k = 0; k < n; k++) {
    const m2 = area[k] * mpp * mpp;
    if (m2 < MIN_CROWN_M2) continue;
    const radius = Math.sqrt(m2 / Math.PI);
    const green = colour[k * 3 + 1];
    const evergreen = green > 0 && colour[k * 3 + 2] / green >= EVERGREEN_BLUE_GREEN;
    found.push({
      class: 2 * radius < SHRUB_MAX_DIAMETER_M ? 'shrub' : evergreen ? 'evergreen' : 'deciduous',
      point: [sx[k] / area[k] + 0.5, sy[k] / area[k] + 0.5],
      radius_m: Math.round(radius * 100) / 100,
    });
  }
  return found;
}
