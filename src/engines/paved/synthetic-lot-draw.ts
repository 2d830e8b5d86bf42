// Rasterizing a synthetic lot (synthetic-lot.ts): any window of the scene in Web Mercator global
// pixels (drawLotWindow), or the whole lot on a plain meter grid (drawLot). Every pixel's colour is
// a function of its global pixel coordinates and the scene alone (noise is a hash of the pixel's
// coordinates, never a running random stream; no neighbourhood filters), so the scene drawn as
// 256-px tiles and stitched is bit-identical to the same window drawn at once: the local tile
// server the measurement tests run serves exactly what an engine test sees.
import { Canvas, inside, type Pt, type Rgb, rng } from '#engines/distress/synthetic-draw.ts';
import { type GeoFrame, type Meters, mercatorMetersPerPixel, metersToGlobalPixel } from './lot-geo.ts';
import type { LotScene, LotTruth } from './synthetic-lot.ts';
import type { PaintColour, RawPixels } from './types.ts';

export interface LotWindow extends GeoFrame {
  /** Global pixel of the window's top-left corner at `zoom` (integers). */
  left: number;
  top: number;
  width: number;
  height: number;
}

const GRASS: Rgb = [84, 124, 58];
const CANOPY: Rgb = [46, 80, 40];
const PAINT: Record<PaintColour, Rgb> = { white: [246, 246, 240], yellow: [236, 190, 48] };
/** Shadow: the pavement keeps this share of its brightness. */
const SHADOW_KEEP = 0.5;

/** The scene's pixels in a window of Web Mercator global pixels at the window's zoom. */
export function drawLotWindow(scene: LotScene, window: LotWindow): RawPixels {
  const frame: GeoFrame = { originLat: window.originLat, originLng: window.originLng, zoom: window.zoom };
  for (const k of ['left', 'top', 'width', 'height'] as const)
    if (!Number.isInteger(window[k])) throw new RangeError(`${k} must be an integer`);
  return rasterize(scene, (m) => metersToGlobalPixel(frame, m), mercatorMetersPerPixel(frame), window);
}

export interface DrawnLot {
  pixels: RawPixels;
  truth: LotTruth;
  metersPerPixel: number;
  /** Scene meters → this image's pixel coordinates ([0, width] × [0, height], y down). */
  toPixel: (m: Meters) => [number, number];
}

/** The whole lot (and `marginM` of grass around it) on a plain grid of `metersPerPixel`, north up. */
export function drawLot(scene: LotScene, metersPerPixel: number, marginM = 6): DrawnLot {
  const pts = [...scene.lot, ...scene.trees.flatMap((t) => t.outline)];
  const west = Math.min(...pts.map((p) => p[0])) - marginM;
  const east = Math.max(...pts.map((p) => p[0])) + marginM;
  const south = Math.min(...pts.map((p) => p[1])) - marginM;
  const north = Math.max(...pts.map((p) => p[1])) + marginM;
  const toPixel = (m: Meters): [number, number] => [(m[0] - west) / metersPerPixel, (north - m[1]) / metersPerPixel];
  const width = Math.ceil((east - west) / metersPerPixel);
  const height = Math.ceil((north - south) / metersPerPixel);
  const pixels = rasterize(scene, toPixel, metersPerPixel, { left: 0, top: 0, width, height });
  return { pixels, truth: scene.truth, metersPerPixel, toPixel };
}

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

function rasterize(scene: LotScene, toPx: (m: Meters) => [number, number], mpp: number, f: Frame): RawPixels {
  const c = new Canvas(f.width, f.height);
  const ring = (r: Meters[]): Pt[] => r.map(toPx);
  const lot = ring(scene.lot);
  const building = scene.building ? ring(scene.building.outline) : null;
  const shadow = scene.shadow ? ring(scene.shadow) : null;
  const trees = scene.trees.map((t) => ring(t.outline));
  const origin = toPx([0, 0]);
  const seed = scene.seed >>> 0;
  // Slow tone drift over the pavement (tens of meters), in ground meters so every zoom sees the same.
  const r = rng(seed + 99);
  const [l1, l2, p1, p2] = [25 + r() * 50, 25 + r() * 50, r() * 6.3, r() * 6.3];
  const drift = (gx: number, gy: number) =>
    5 * Math.sin((2 * Math.PI * (gx - origin[0]) * mpp) / l1 + p1) +
    4 * Math.sin((2 * Math.PI * (origin[1] - gy) * mpp) / l2 + p2);

  /** Visit the pixels whose centres fall in a global-pixel box: index, global centre, integer pixel. */
  const each = (
    box: [number, number, number, number],
    fn: (i: number, x: number, y: number, px: number, py: number) => void,
  ) => {
    const xa = Math.max(0, Math.floor(box[0]) - f.left);
    const ya = Math.max(0, Math.floor(box[1]) - f.top);
    const xb = Math.min(f.width - 1, Math.ceil(box[2]) - f.left);
    const yb = Math.min(f.height - 1, Math.ceil(box[3]) - f.top);
    for (let y = ya; y <= yb; y++)
      for (let x = xa; x <= xb; x++) fn(y * f.width + x, f.left + x + 0.5, f.top + y + 0.5, f.left + x, f.top + y);
  };
  const all: [number, number, number, number] = [f.left, f.top, f.left + f.width, f.top + f.height];

  // Grass everywhere: green with strong pixel-to-pixel texture.
  each(all, (i, _x, _y, px, py) => {
    const v = 0.8 + 0.4 * hash(seed, px, py);
    set(c, i, [GRASS[0] * v, GRASS[1] * v, GRASS[2] * v]);
  });
  // The pavement: a grey with drift and fine noise.
  each(bbox(lot), (i, x, y, px, py) => {
    if (!inside(lot, x, y)) return;
    const g = scene.tone + drift(x, y) + noise(seed + 1, px, py, 4);
    set(c, i, [g - 1, g, g + 2]);
  });
  if (building && scene.building) {
    const roof = scene.building.roof;
    each(bbox(building), (i, x, y, px, py) => {
      if (!inside(building, x, y)) return;
      const n = noise(seed + 2, px, py, 3);
      set(c, i, [roof[0] + n, roof[1] + n, roof[2] + n]);
    });
  }
  for (const s of scene.paint) {
    const a = toPx(s.from);
    const b = toPx(s.to);
    const w = s.widthM / mpp;
    const colour = PAINT[s.colour];
    const pad = w / 2 + 1;
    each(
      [Math.min(a[0], b[0]) - pad, Math.min(a[1], b[1]) - pad, Math.max(a[0], b[0]) + pad, Math.max(a[1], b[1]) + pad],
      (i, x, y) => {
        const cover = coverage(a, b, w, x, y);
        if (cover > 0) c.blend(i, colour, cover * scene.paintOpacity);
      },
    );
  }
  if (shadow)
    each(bbox(shadow), (i, x, y) => {
      if (inside(shadow, x, y) && inside(lot, x, y) && !(building && inside(building, x, y)))
        c.scale(i, SHADOW_KEEP, 1);
    });
  for (const t of trees)
    each(bbox(t), (i, x, y, px, py) => {
      if (!inside(t, x, y)) return;
      const v = 0.75 + 0.5 * hash(seed + 3, px, py);
      set(c, i, [CANOPY[0] * v, CANOPY[1] * v, CANOPY[2] * v]);
    });
  // Sensor noise: a little per channel, over everything.
  each(all, (i, _x, _y, px, py) => {
    c.r[i] += noise(seed + 4, px, py, 1.5);
    c.g[i] += noise(seed + 5, px, py, 1.5);
    c.b[i] += noise(seed + 6, px, py, 1.5);
  });
  return c.toPixels();
}

function set(c: Canvas, i: number, v: Rgb): void {
  c.r[i] = v[0];
  c.g[i] = v[1];
  c.b[i] = v[2];
}

function bbox(poly: Pt[]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of poly) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/** Anti-aliased coverage (0..1) of a pixel centred at (x, y) by a segment `w` pixels wide. */
function coverage(a: Pt, b: Pt, w: number, x: number, y: number): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  const d = Math.hypot(x - (a[0] + t * dx), y - (a[1] + t * dy));
  return Math.max(0, Math.min(1, w / 2 + 0.5 - d, w));
}

/** A uniform 0..1 value from a pixel's integer coordinates (a 32-bit integer hash, murmur3's finaliser). */
function hash(seed: number, px: number, py: number): number {
  let h = (Math.imul(px | 0, 0x27d4eb2d) ^ Math.imul(py | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Zero-mean noise of standard deviation `sigma` (triangular: the sum of two hashes). */
function noise(seed: number, px: number, py: number, sigma: number): number {
  return (hash(seed, px, py) + hash(seed + 7919, px, py) - 1) * Math.sqrt(6) * sigma;
}
