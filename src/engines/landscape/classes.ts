// Per-pixel classes as masks (docs/landscape-detector.md, "How it works"): crowns (vegetation with
// a rough texture: trees and shrubs), lawn (vegetation that is smooth), and mulch (not vegetation,
// red-brown to dark brown, darker than bare soil, textured like bark). Each is cleaned with
// morphology sized in ground meters; a plant the lawn or a bed mostly surrounds joins it (the lawn
// rule, and the shrubs in a bed).
import type { Cv, Mat, MatScope } from '#engines/distress/cv.ts';
import { oddPx } from '#engines/paved/features.ts';
import { type Features, ROUGH_WINDOW_M } from './features.ts';
import { type Element, ellipse as ellipseOf, Packed } from './morph.ts';
import { type Pieces, paint, pieces } from './runs.ts';
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

/** The texture levels the classes read (features.ts tells the texture only this far). */
export const ROUGH_LEVELS = [MULCH_MIN_ROUGHNESS, CROWN_ROUGHNESS, CROWN_CORE_ROUGHNESS] as const;

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
  const { width: w, height: h } = f;
  const n = w * h;
  // The masks are worked on as plain arrays (morph.ts, runs.ts); OpenCV gets the crowns' and the
  // areas' at the end, for the distance transform and the contours.
  const cd = new Uint8Array(n);
  const ld = new Uint8Array(n);
  const md = new Uint8Array(n);
  const bd = new Uint8Array(n);
  const vd = f.veg;
  const rough = f.rough;
  colourClasses(f, cd, md, bd);
  const ellipse = (m: number, min: number, max: number) => ellipseOf(cv, s, oddPx(m, mpp, min, max));
  const p = new Packed(w, h);
  // Crowns: hysteresis keeps the rough pieces that hold a clearly rough core (lawn grain reads
  // rough in specks, never in a core); specks go (opening); gaps of deep shade inside a crown close.
  const small = ellipse(0.3, 3, 5);
  keepCored(p, cd, rough, small);
  p.unpack(p.close(p.open(p.pack(cd), small), ellipse(0.5, 3, 9)), cd);
  // A smoother patch inside a crown (a flat of sunlit leaves) is still the crown.
  fillHoles(cd, w, h, CROWN_GAP_M2 / (mpp * mpp));
  // Lawn: vegetation that is not crown, slivers and specks opened away.
  andNot(vd, cd, ld);
  p.unpack(p.open(p.close(p.pack(ld), ellipse(0.4, 3, 5)), ellipse(0.6, 3, 7)), ld);
  // Specks of smooth green (a small shrub's smooth side at a coarse scale) are plants, not lawn.
  dropSmall(ld, w, h, MIN_LAWN_M2 / (mpp * mpp));
  // Mulch-coloured ground counts where it is textured like bark, or within the texture window of
  // such (the window straddling a smooth neighbour, a roof or a path, makes a bed's edge read smooth).
  {
    const bark = p.dilate(p.pack(bd), ellipse(ROUGH_WINDOW_M, 3, 11));
    const mulch = p.pack(md);
    for (let i = 0; i < mulch.length; i++) mulch[i] &= bark[i];
    p.unpack(p.close(mulch, ellipse(0.3, 3, 5)), md);
  }
  // The lawn rule: ground under a crown that lawn surrounds is lawn. Shrubs in a bed are the bed's.
  const plant = new Uint8Array(n);
  andNot(vd, ld, plant);
  const plantPieces = pieces(plant, w, h, 4);
  const reach = ellipse(0.3, 3, 5);
  fillSurrounded(p, ld, plant, plantPieces, reach);
  const plantsInMulch = fillSurrounded(p, md, plant, plantPieces, reach);
  p.unpack(p.open(p.pack(md), ellipse(0.5, 3, 5)), md);
  // Mulch never takes ground the lawn holds (a crown hole filled in both).
  clearWhere(md, ld);
  const asMat = (d: Uint8Array) => {
    const m = s.zeros(h, w, cv.CV_8UC1);
    m.data.set(d);
    return m;
  };
  return { crown: asMat(cd), lawn: asMat(ld), mulch: asMat(md), plantsInMulch };
}

/**
 * Each pixel's own colour decides (a blur would mix a bed's edge with the lawn and lose it); the
 * grain of bark scales all three channels alike, so the tests below, ratios and differences of a
 * few levels, hold through it, and the closing and opening in classMasks take the rest. Crown:
 * vegetation that is rough; mulch: mulch-coloured; bark: mulch-coloured and textured (or shaded).
 */
function colourClasses(f: Features, crown: Uint8Array, mulch: Uint8Array, bark: Uint8Array): void {
  const n = f.width * f.height;
  const { veg, rough, dark, rgb } = f;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    if (veg[i] !== 0) {
      if (rough[i] >= CROWN_ROUGHNESS) crown[i] = 255;
      continue;
    }
    if (dark[i] !== 0) continue;
    const r = rgb[j];
    const g = rgb[j + 1];
    const b = rgb[j + 2];
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    if (max > MULCH_MAX_VALUE || r - g < MULCH_MIN_RED_OVER_GREEN || g + MULCH_BLUE_SLACK < b) continue;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    if (max - min >= MULCH_MIN_SATURATION * max) {
      mulch[i] = 255;
      if (rough[i] >= MULCH_MIN_ROUGHNESS || max < SHADED_MAX_VALUE) bark[i] = 255;
    }
  }
}

/** `out` set where `a` is and `b` is not (out starts clear). */
function andNot(a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) if (a[i] !== 0 && b[i] === 0) out[i] = 255;
}

/** `mask` cleared where `where` is set. */
function clearWhere(mask: Uint8Array, where: Uint8Array): void {
  for (let i = 0; i < mask.length; i++) if (where[i] !== 0) mask[i] = 0;
}

/** Fills the holes of `mask` (pieces of its complement that do not reach the image's edge) of at most `maxPixels`. */
function fillHoles(mask: Uint8Array, w: number, h: number, maxPixels: number): void {
  const p = pieces(mask, w, h, 4, false);
  const chosen = new Uint8Array(p.count);
  for (let k = 1; k < p.count; k++) {
    const enclosed = p.left[k] > 0 && p.top[k] > 0 && p.right[k] < w && p.bottom[k] < h;
    if (enclosed && p.area[k] <= maxPixels) chosen[k] = 1;
  }
  paint(p, w, mask, chosen, 255);
}
/**
 * Adds to `mask` every piece of `plant` whose edge is mostly `mask` (SURROUNDED_SHARE of its
 * outside neighbours, within ~0.3 m): a tree standing in the lawn, a shrub standing in a bed. Measured on the
 * edge, not as a hole, so a crown that comes near a bed or a path is still the lawn's.
 */
function fillSurrounded(packed: Packed, mask: Uint8Array, plant: Uint8Array, p: Pieces, reach: Element): PixelPoint[] {
  const { w, h, stride } = packed;
  // Mixed pixels at a crown's edge (green and brown blurred together) are often neither class:
  // the mask grown by ~0.3 m is what counts as holding the edge.
  const near = packed.dilate(packed.pack(mask), reach);
  const nd = (x: number, y: number) => Packed.at(near, stride, x, y);
  const edge = new Int32Array(p.count);
  const held = new Int32Array(p.count);
  // The outside neighbours of a run: the pixels left and right of it (never plant: a run is a
  // whole stretch) and those above and below it that are not plant (a plant pixel next to one is
  // in its 4-connected piece). Off the image counts as not held: a crown cut by the frame is not
  // known to be surrounded.
  for (let r = 0; r < p.runs; r++) {
    const k = p.label[r];
    const y = p.y[r];
    const a = p.x0[r];
    const b = p.x1[r];
    const o = y * w;
    let e = 2;
    let hd = 0;
    if (a > 0 && nd(a - 1, y)) hd++;
    if (b < w && nd(b, y)) hd++;
    if (y === 0) e += b - a;
    else
      for (let x = a; x < b; x++)
        if (!plant[o - w + x]) {
          e++;
          if (nd(x, y - 1)) hd++;
        }
    if (y === h - 1) e += b - a;
    else
      for (let x = a; x < b; x++)
        if (!plant[o + w + x]) {
          e++;
          if (nd(x, y + 1)) hd++;
        }
    edge[k] += e;
    held[k] += hd;
  }
  const chosen = new Uint8Array(p.count);
  const centres: PixelPoint[] = [];
  for (let k = 1; k < p.count; k++)
    if (held[k] >= SURROUNDED_SHARE * edge[k]) {
      chosen[k] = 1;
      centres.push([p.sumX[k] / p.area[k] + 0.5, p.sumY[k] / p.area[k] + 0.5]);
    }
  paint(p, w, mask, chosen, 255);
  return centres;
}

/** Removes the pieces of `mask` under `minPixels`. */
function dropSmall(mask: Uint8Array, w: number, h: number, minPixels: number): void {
  const p = pieces(mask, w, h, 8);
  const small = new Uint8Array(p.count);
  for (let k = 1; k < p.count; k++) if (p.area[k] < minPixels) small[k] = 1;
  paint(p, w, mask, small, 0);
}

/** Keeps the pieces of `crown` that hold a core: pixels of CROWN_CORE_ROUGHNESS that survive an opening. */
function keepCored(packed: Packed, crown: Uint8Array, rough: Uint8Array, element: Element): void {
  const { w, h } = packed;
  const kd = new Uint8Array(w * h);
  for (let i = 0; i < kd.length; i++) if (crown[i] && rough[i] >= CROWN_CORE_ROUGHNESS) kd[i] = 255;
  const core = packed.open(packed.pack(kd), element);
  const p = pieces(crown, w, h, 8);
  const uncored = new Uint8Array(p.count).fill(1);
  for (let r = 0; r < p.runs; r++) {
    const k = p.label[r];
    if (uncored[k] && packed.any(core, p.y[r], p.x0[r], p.x1[r])) uncored[k] = 0;
  }
  paint(p, w, crown, uncored, 0);
}
