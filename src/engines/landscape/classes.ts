// Per-pixel classes as masks (docs/landscape-detector.md, "How it works"): crowns (vegetation with
// a rough texture: trees and shrubs), lawn (vegetation that is smooth), and mulch (not vegetation,
// red-brown to dark brown, darker than bare soil, textured like bark). Each is cleaned with
// morphology sized in ground meters; a plant the lawn or a bed mostly surrounds joins it (the lawn
// rule, and the shrubs in a bed).
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { oddPx } from '#engines/paved/features.ts';
import { type Features, ROUGH_WINDOW_M } from './features.ts';
import type { PixelPoint } from './types.ts';

/** Texture (% of the local brightness, see features.ts) from which vegetation is a crown, not lawn … */
export const CROWN_ROUGHNESS = 6;
/** … when its rough piece holds a core this rough (lawn grain never makes one). */
export const CROWN_CORE_ROUGHNESS = 11;
/** Mulch: brightest channel at most this (bare soil and dry straw are lighter) … */
export const MULCH_MAX_VALUE = 150;
/**
 * … never smooth (bark chips; a brown roof, deck or patio of the same colour is smooth; % as
 * CROWN_ROUGHNESS), unless it is in shade (brightest channel under SHADED_MAX_VALUE), where the
 * texture is too faint to tell …
 */
export const MULCH_MIN_ROUGHNESS = 3;
const SHADED_MAX_VALUE = 70;
/** … saturation (max − min) ÷ max at least this (grey ground, gravel and pavement have less) … */
export const MULCH_MIN_SATURATION = 0.2;
/** … and red over green by this many grey levels, green not under blue by more than MULCH_BLUE_SLACK. */
export const MULCH_MIN_RED_OVER_GREEN = 5;
const MULCH_BLUE_SLACK = 6;
/** A plant (a piece of vegetation that is not lawn) joins the lawn or mulch that holds at least this share of its edge. */
export const SURROUNDED_SHARE = 0.6;
/** Gaps inside a crown up to this area are crown. */
export const CROWN_GAP_M2 = 3;

/** Lawn pieces under this are specks (a shrub's smooth side, a strip of verge), m². */
export const MIN_LAWN_M2 = 5;

export interface Masks {
  crown: Mat;
  lawn: Mat;
  mulch: Mat;
  /** Centres of the plants that stand in mulch (pieces of vegetation it surrounds), pixel coordinates. */
  plantsInMulch: PixelPoint[];
}

export function classMasks(cv: Cv, s: MatScope, f: Features, mpp: number): Masks {
  const { width, height } = f;
  const n = width * height;
  const crown = s.zeros(height, width, cv.CV_8UC1);
  const lawn = s.zeros(height, width, cv.CV_8UC1);
  const mulch = s.zeros(height, width, cv.CV_8UC1);
  const cd = crown.data;
  const ld = lawn.data;
  const md = mulch.data;
  const bark = s.zeros(height, width, cv.CV_8UC1);
  const bd = bark.data;
  const vd = f.veg.data;
  // Each pixel's own colour decides (a blur would mix a bed's edge with the lawn and lose it); the
  // grain of bark scales all three channels alike, so the tests below, ratios and differences of a
  // few levels, hold through it, and the closing and opening below take the rest.
  const sm = f.rgb;
  for (let i = 0; i < n; i++) {
    if (vd[i]) {
      if (f.rough[i] >= CROWN_ROUGHNESS) cd[i] = 255;
      continue;
    }
    if (f.vegetation[i] === Number.NEGATIVE_INFINITY) continue;
    const r = sm[i * 3];
    const g = sm[i * 3 + 1];
    const b = sm[i * 3 + 2];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    if (
      max <= MULCH_MAX_VALUE &&
      max - min >= MULCH_MIN_SATURATION * max &&
      r - g >= MULCH_MIN_RED_OVER_GREEN &&
      g + MULCH_BLUE_SLACK >= b
    ) {
      md[i] = 255;
      if (f.rough[i] >= MULCH_MIN_ROUGHNESS || max < SHADED_MAX_VALUE) bd[i] = 255;
    }
  }
  // Crowns: hysteresis keeps the rough pieces that hold a clearly rough core (lawn grain reads
  // rough in specks, never in a core); specks go (opening); gaps of deep shade inside a crown close.
  const ellipse = (m: number, min: number, max: number) => s.kernel(cv.MORPH_ELLIPSE, oddPx(m, mpp, min, max));
  keepCored(cv, s, crown, f, ellipse(0.3, 3, 5));
  cv.morphologyEx(crown, crown, cv.MORPH_OPEN, ellipse(0.3, 3, 5));
  cv.morphologyEx(crown, crown, cv.MORPH_CLOSE, ellipse(0.5, 3, 9));
  // A smoother patch inside a crown (a flat of sunlit leaves) is still the crown.
  fillHoles(cv, s, crown, CROWN_GAP_M2 / (mpp * mpp));
  // Lawn: vegetation that is not crown, slivers and specks opened away.
  for (let i = 0; i < n; i++) if (vd[i] && !cd[i]) ld[i] = 255;
  cv.morphologyEx(lawn, lawn, cv.MORPH_CLOSE, ellipse(0.4, 3, 5));
  cv.morphologyEx(lawn, lawn, cv.MORPH_OPEN, ellipse(0.6, 3, 7));
  // Specks of smooth green (a small shrub's smooth side at a coarse scale) are plants, not lawn.
  dropSmall(cv, s, lawn, MIN_LAWN_M2 / (mpp * mpp));
  // Mulch-coloured ground counts where it is textured like bark, or within the texture window of
  // such (the window straddling a smooth neighbour, a roof or a path, makes a bed's edge read smooth).
  cv.dilate(bark, bark, ellipse(ROUGH_WINDOW_M, 3, 11));
  cv.bitwise_and(mulch, bark, mulch);
  cv.morphologyEx(mulch, mulch, cv.MORPH_CLOSE, ellipse(0.3, 3, 5));
  // The lawn rule: ground under a crown that lawn surrounds is lawn. Shrubs in a bed are the bed's.
  const plant = s.mat();
  cv.bitwise_not(lawn, plant);
  cv.bitwise_and(plant, f.veg, plant);
  const reach = ellipse(0.3, 3, 5);
  fillSurrounded(cv, s, lawn, plant, reach);
  const plantsInMulch = fillSurrounded(cv, s, mulch, plant, reach);
  cv.morphologyEx(mulch, mulch, cv.MORPH_OPEN, ellipse(0.5, 3, 5));
  // Mulch never takes ground the lawn holds (a crown hole filled in both).
  cv.subtract(mulch, lawn, mulch);
  return { crown, lawn, mulch, plantsInMulch };
}

/** Fills the holes of `mask` (pieces of its complement that do not reach the image's edge) of at most `maxPixels`. */
function fillHoles(cv: Cv, s: MatScope, mask: Mat, maxPixels: number): void {
  const rest = s.mat();
  cv.bitwise_not(mask, rest);
  const labels = s.mat();
  const stats = s.mat();
  const centroids = s.mat();
  const count = cv.connectedComponentsWithStats(rest, labels, stats, centroids, 4, cv.CV_32S);
  const st = stats.data32S;
  const w = mask.cols;
  const h = mask.rows;
  const ld = labels.data32S;
  const chosen = new Uint8Array(count);
  // stats rows: left, top, width, height, area.
  for (let k = 1; k < count; k++) {
    const [left, top, bw, bh, area] = [st[k * 5], st[k * 5 + 1], st[k * 5 + 2], st[k * 5 + 3], st[k * 5 + 4]];
    const enclosed = left > 0 && top > 0 && left + bw < w && top + bh < h;
    if (enclosed && area <= maxPixels) chosen[k] = 1;
  }
  const md = mask.data;
  for (let i = 0; i < ld.length; i++) if (chosen[ld[i]]) md[i] = 255;
}

/**
 * Adds to `mask` every piece of `plant` whose edge is mostly `mask` (SURROUNDED_SHARE of its
 * outside neighbours, within ~0.3 m): a tree standing in the lawn, a shrub standing in a bed. Measured on the
 * edge, not as a hole, so a crown that comes near a bed or a path is still the lawn's.
 */
function fillSurrounded(cv: Cv, s: MatScope, mask: Mat, plant: Mat, reach: Mat): PixelPoint[] {
  // Mixed pixels at a crown's edge (green and brown blurred together) are often neither class:
  // the mask grown by ~0.3 m is what counts as holding the edge.
  const near = s.mat();
  cv.dilate(mask, near, reach);
  const nd = near.data;
  const labels = s.mat();
  const stats = s.mat();
  const centroids = s.mat();
  const count = cv.connectedComponentsWithStats(plant, labels, stats, centroids, 4, cv.CV_32S);
  const ld = labels.data32S;
  const md = mask.data;
  const w = mask.cols;
  const h = mask.rows;
  const edge = new Int32Array(count);
  const held = new Int32Array(count);
  /** A neighbour outside the piece (−1: off the image, which counts as not held: a crown cut by the frame is not known to be surrounded). */
  const visit = (j: number, k: number) => {
    if (j >= 0 && ld[j] === k) return;
    edge[k]++;
    if (j >= 0 && nd[j]) held[k]++;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const k = ld[i];
      if (k === 0) continue;
      visit(x > 0 ? i - 1 : -1, k);
      visit(x < w - 1 ? i + 1 : -1, k);
      visit(y > 0 ? i - w : -1, k);
      visit(y < h - 1 ? i + w : -1, k);
    }
  const chosen = new Uint8Array(count);
  const centres: PixelPoint[] = [];
  const c = centroids.data64F;
  for (let k = 1; k < count; k++)
    if (held[k] >= SURROUNDED_SHARE * edge[k]) {
      chosen[k] = 1;
      centres.push([c[k * 2] + 0.5, c[k * 2 + 1] + 0.5]);
    }
  for (let i = 0; i < ld.length; i++) if (chosen[ld[i]]) md[i] = 255;
  return centres;
}

/** Removes the pieces of `mask` under `minPixels`. */
function dropSmall(cv: Cv, s: MatScope, mask: Mat, minPixels: number): void {
  const labels = s.mat();
  const stats = s.mat();
  const centroids = s.mat();
  const count = cv.connectedComponentsWithStats(mask, labels, stats, centroids, 8, cv.CV_32S);
  const st = stats.data32S;
  const small = new Uint8Array(count);
  for (let k = 1; k < count; k++) if (st[k * 5 + 4] < minPixels) small[k] = 1;
  const ld = labels.data32S;
  const md = mask.data;
  for (let i = 0; i < ld.length; i++) if (small[ld[i]]) md[i] = 0;
}

/** Keeps the pieces of `crown` that hold a core: pixels of CROWN_CORE_ROUGHNESS that survive an opening. */
function keepCored(cv: Cv, s: MatScope, crown: Mat, f: Features, kernel: Mat): void {
  const core = s.zeros(crown.rows, crown.cols, cv.CV_8UC1);
  const kd = core.data;
  const cd = crown.data;
  for (let i = 0; i < kd.length; i++) if (cd[i] && f.rough[i] >= CROWN_CORE_ROUGHNESS) kd[i] = 255;
  cv.morphologyEx(core, core, cv.MORPH_OPEN, kernel);
  const labels = s.mat();
  const stats = s.mat();
  const centroids = s.mat();
  const count = cv.connectedComponentsWithStats(crown, labels, stats, centroids, 8, cv.CV_32S);
  const ld = labels.data32S;
  const cored = new Uint8Array(count);
  for (let i = 0; i < ld.length; i++) if (kd[i]) cored[ld[i]] = 1;
  for (let i = 0; i < ld.length; i++) if (cd[i] && !cored[ld[i]]) cd[i] = 0;
}
