// Rasterizing a synthetic yard (synthetic-yard.ts): any window of the scene in Web Mercator global
// pixels (drawYardWindow, what a local tile server serves), or the whole yard on a plain meter grid
// (drawYard). As for the paved generator's lots, every pixel's colour is a function of its global
// pixel coordinates and the scene alone (noise is hashed from coordinates, textures are value noise
// on a ground-meter lattice, no neighbourhood filters), so 256-px tiles stitched together are
// bit-identical to the same window drawn at once.
import { Canvas, inside, type Pt, type Rgb, rng } from '#engines/distress/synthetic-draw.ts';
import { type GeoFrame, type Meters, mercatorMetersPerPixel, metersToGlobalPixel } from '#engines/paved/lot-geo.ts';
import type { RawPixels } from './types.ts';
import type { MulchKind, RoofKind, YardScene, YardTruth } from './synthetic-yard.ts';

export interface YardWindow extends GeoFrame {
  /** Global pixel of the window's top-left corner at `zoom` (integers). */
  left: number;
  top: number;
  width: number;
  height: number;
}

const GROUND: Rgb = [138, 133, 122];
const STREET: Rgb = [82, 82, 86];
const SIDEWALK: Rgb = [188, 186, 180];
const DRIVE = { asphalt: [92, 92, 95] as Rgb, concrete: [182, 180, 174] as Rgb };
const SOIL: Rgb = [172, 150, 120];
const MULCH: Record<MulchKind, Rgb> = { brown: [104, 72, 50], red: [124, 62, 44], dark: [76, 54, 40] };
const ROOF: Record<RoofKind, Rgb> = {
  grey: [112, 112, 116],
  dark: [64, 64, 68],
  light: [214, 211, 204],
  brown: [124, 88, 66],
};
const DECIDUOUS: Rgb = [74, 110, 46];
const EVERGREEN: Rgb = [36, 64, 54];
const SHRUBS: Rgb[] = [
  [62, 104, 48],
  [44, 82, 58],
  [80, 112, 54],
];
/** Ground in a tree's shadow keeps this share of its brightness. */
const SHADOW_KEEP = 0.55;
/** The sun is in the south-east: crowns are lit on that side. */
const SUN: Meters = [Math.SQRT1_2, -Math.SQRT1_2];

/** The scene's pixels in a window of Web Mercator global pixels at the window's zoom. */
export function drawYardWindow(scene: YardScene, window: YardWindow): RawPixels {
  for (const k of ['left', 'top', 'width', 'height'] as const)
    if (!Number.isInteger(window[k])) throw new RangeError(`${k} must be an integer`);
  const frame: GeoFrame = { originLat: window.originLat, originLng: window.originLng, zoom: window.zoom };
  const mpp = mercatorMetersPerPixel(frame);
  const [ox, oy] = metersToGlobalPixel(frame, [0, 0]);
  return rasterize(
    scene,
    (m) => metersToGlobalPixel(frame, m),
    (x, y) => [(x - ox) * mpp, (oy - y) * mpp],
    mpp,
    window,
  );
}

export interface DrawnYard {
  pixels: RawPixels;
  truth: YardTruth;
  metersPerPixel: number;
  /** Scene meters → this image's pixel coordinates ([0, width] × [0, height], y down). */
  toPixel: (m: Meters) => [number, number];
}

/** The whole yard (and `marginM` of bare ground around it) on a plain grid of `metersPerPixel`, north up. */
export function drawYard(scene: YardScene, metersPerPixel: number, marginM = 4): DrawnYard {
  const [w, s, e, n] = scene.extent;
  const west = w - marginM;
  const north = n + marginM;
  const toPixel = (m: Meters): [number, number] => [(m[0] - west) / metersPerPixel, (north - m[1]) / metersPerPixel];
  const width = Math.ceil((e + marginM - west) / metersPerPixel);
  const height = Math.ceil((north - (s - marginM)) / metersPerPixel);
  const pixels = rasterize(
    scene,
    toPixel,
    (x, y) => [west + x * metersPerPixel, north - y * metersPerPixel],
    metersPerPixel,
    { left: 0, top: 0, width, height },
  );
  return { pixels, truth: scene.truth, metersPerPixel, toPixel };
}

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

type Box = [number, number, number, number];

function rasterize(
  scene: YardScene,
  toPx: (m: Meters) => [number, number],
  toM: (x: number, y: number) => Meters,
  mpp: number,
  f: Frame,
): RawPixels {
  const c = new Canvas(f.width, f.height);
  const seed = scene.seed >>> 0;
  const ring = (r: Meters[]): Pt[] => r.map(toPx);
  /** Visit the pixels whose centres fall in a global-pixel box: index, global centre, integer pixel. */
  const each = (box: Box, fn: (i: number, x: number, y: number, px: number, py: number) => void) => {
    const xa = Math.max(0, Math.floor(box[0]) - f.left);
    const ya = Math.max(0, Math.floor(box[1]) - f.top);
    const xb = Math.min(f.width - 1, Math.ceil(box[2]) - f.left);
    const yb = Math.min(f.height - 1, Math.ceil(box[3]) - f.top);
    for (let y = ya; y <= yb; y++)
      for (let x = xa; x <= xb; x++) fn(y * f.width + x, f.left + x + 0.5, f.top + y + 0.5, f.left + x, f.top + y);
  };
  /** Fill a polygon: `colour(i, meters, px, py)` gives each covered pixel's colour. */
  const fill = (poly: Pt[], colour: (m: Meters, px: number, py: number) => Rgb) =>
    each(bbox(poly), (i, x, y, px, py) => {
      if (inside(poly, x, y)) set(c, i, colour(toM(x, y), px, py));
    });
  const all: Box = [f.left, f.top, f.left + f.width, f.top + f.height];
  /** Multiplicative texture: 1 ± `amount` of value noise on a `cellM` lattice, plus pixel grain. */
  const grain = (k: number, m: Meters, px: number, py: number, cellM: number, amount: number, pixel: number) =>
    1 +
    amount * (2 * valueNoise(seed + k, m[0] / cellM, m[1] / cellM) - 1) +
    pixel * (2 * hash(seed + k + 1, px, py) - 1);
  const tint = (rgb: Rgb, v: number): Rgb => [rgb[0] * v, rgb[1] * v, rgb[2] * v];

  each(all, (i, x, y, px, py) => set(c, i, tint(GROUND, grain(10, toM(x, y), px, py, 2, 0.06, 0.07))));
  fill(ring(scene.street), (m, px, py) => tint(STREET, grain(12, m, px, py, 3, 0.03, 0.04)));
  fill(ring(scene.sidewalk), (m, px, py) => tint(SIDEWALK, grain(14, m, px, py, 3, 0.02, 0.03)));
  fill(ring(scene.drive.outline), (m, px, py) => tint(DRIVE[scene.drive.surface], grain(16, m, px, py, 3, 0.03, 0.04)));
  const [sx, sy] = scene.stripe.across;
  fill(ring(scene.lawn), (m, px, py) => {
    // Mowing stripes: alternate bands a little lighter and darker, with soft shoulders.
    const t = (m[0] * sx + m[1] * sy) / scene.stripe.widthM;
    const stripe = 1 + 0.05 * Math.max(-1, Math.min(1, 3 * Math.sin(Math.PI * t)));
    return tint(scene.lawnColour, stripe * grain(18, m, px, py, 3, 0.06, 0.06));
  });
  for (const p of scene.patches) {
    if (p.kind === 'soil') fill(ring(p.outline), (m, px, py) => tint(SOIL, grain(20, m, px, py, 1, 0.06, 0.05)));
    else fill(ring(p.outline), (m, px, py) => tint(MULCH[scene.mulch], grain(22, m, px, py, 0.2, 0.15, 0.1)));
  }
  // Shadows fall on the ground, not on the roof: the crowns' outlines pushed to the north-west,
  // overlapping shadows darkening once.
  const house = ring(scene.house.outline);
  const shaded = new Uint8Array(f.width * f.height);
  for (const crown of [...scene.trees, ...scene.shrubs]) {
    const [dx, dy] = [scene.shadow[0] * crown.radiusM, scene.shadow[1] * crown.radiusM];
    const shadow = ring(crown.outline.map(([e, n]): Meters => [e + dx, n + dy]));
    each(bbox(shadow), (i, x, y) => {
      if (!shaded[i] && inside(shadow, x, y) && !inside(house, x, y)) {
        shaded[i] = 1;
        c.scale(i, SHADOW_KEEP, 1);
      }
    });
  }
  fill(house, (m, px, py) => tint(ROOF[scene.house.roof], grain(24, m, px, py, 4, 0.02, 0.03)));
  scene.shrubs.forEach((s, k) => {
    const base = SHRUBS[k % SHRUBS.length];
    fill(ring(s.outline), (m, px, py) =>
      tint(base, crownShade(s.centre, s.radiusM, m) * grain(30 + k, m, px, py, 0.25, 0.4, 0.08)),
    );
  });
  scene.trees.forEach((t, k) => {
    const base = t.kind === 'evergreen' ? EVERGREEN : DECIDUOUS;
    const v = 0.9 + 0.2 * hash(seed + 40, k, 0);
    const cell = t.kind === 'evergreen' ? 0.45 : 0.6;
    // Clumps of foliage and the shade between them: three octaves of lumps, deep to fine.
    fill(ring(t.outline), (m, px, py) =>
      tint(
        base,
        v *
          crownShade(t.centre, t.radiusM, m) *
          grain(50 + k, m, px, py, cell, 0.4, 0.08) *
          grain(70 + k, m, px, py, cell / 2.2, 0.25, 0) *
          grain(90 + k, m, px, py, cell / 4.5, 0.2, 0),
      ),
    );
  });
  // Sensor noise: a little per channel, over everything.
  each(all, (i, _x, _y, px, py) => {
    c.r[i] += 3 * (hash(seed + 4, px, py) - 0.5);
    c.g[i] += 3 * (hash(seed + 5, px, py) - 0.5);
    c.b[i] += 3 * (hash(seed + 6, px, py) - 0.5);
  });
  return c.toPixels();
}

/** A crown is lit on the sun's side and darker toward its rim. */
function crownShade(centre: Meters, r: number, m: Meters): number {
  const dx = (m[0] - centre[0]) / r;
  const dy = (m[1] - centre[1]) / r;
  const lit = 1 + 0.22 * (dx * SUN[0] + dy * SUN[1]);
  return lit * (0.8 + 0.2 * Math.max(0, 1 - dx * dx - dy * dy));
}

function set(c: Canvas, i: number, v: Rgb): void {
  c.r[i] = v[0];
  c.g[i] = v[1];
  c.b[i] = v[2];
}

function bbox(poly: Pt[]): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of poly) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/** A uniform 0..1 value for an integer lattice point: the first draw of a Mulberry32 seeded from it. */
function hash(seed: number, ix: number, iy: number): number {
  return rng(Math.imul(ix | 0, 0x27d4eb2d) ^ Math.imul(iy | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x2545f491))();
}

/** Value noise (0..1): lattice values smoothly interpolated, the lattice one unit apart. */
function valueNoise(seed: number, x: number, y: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash(seed, ix, iy);
  const b = hash(seed, ix + 1, iy);
  const c = hash(seed, ix, iy + 1);
  const d = hash(seed, ix + 1, iy + 1);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}
