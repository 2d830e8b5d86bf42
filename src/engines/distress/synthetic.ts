// Synthetic pavement images whose truth is known (GUIDE "Engines that look at images"): asphalt
// with aggregate texture, cracks of known length and width, alligator and block networks of known
// area, potholes and patches of known area, raveled zones, and the nuisances that fool detectors
// (shadows, oil stains, paint lines, sealed cracks, grass). Pure and seeded: the same category and
// seed give the same pixels and truth. Densities use the detector's units (types.ts DENSITY_UNIT).
import { blob, bounds, Canvas, edgeDistance, gauss, inside, type Pt, type Rgb, rng } from './synthetic-draw.ts';
import type { DistressType, PavementType, RawPixels, Severity } from './types.ts';

export const SCENE_CATEGORIES = [
  'clean',
  'cracks',
  'alligator',
  'block',
  'potholes',
  'patches',
  'raveling',
  'shadows',
  'paint_lines',
  'oil_stains',
  'sealed_cracks',
  'grass_edge',
  'grass',
] as const;
export type SceneCategory = (typeof SCENE_CATEGORIES)[number];

export interface TruthDistress {
  density_pct: number;
  severity: Severity;
}
export interface SceneTruth {
  pavement_pct: number;
  pavement_type: PavementType;
  distresses: Partial<Record<DistressType, TruthDistress>>;
}
export interface SyntheticScene {
  category: SceneCategory;
  seed: number;
  pixels: RawPixels;
  metersPerPixel: number;
  truth: SceneTruth;
}
export interface SceneOptions {
  size?: number;
  metersPerPixel?: number;
  surface?: PavementType;
}

const SQFT_PER_M2 = 10.7639;
const FT_PER_M = 3.28084;

/** Crack width in millimetres to ASTM D6433's longitudinal/transverse severity (docs/condition.md, "The built-in distress detector"). */
export function crackSeverity(widthMm: number): Severity {
  return widthMm < 10 ? 'low' : widthMm <= 76 ? 'medium' : 'high';
}

export function generateScene(category: SceneCategory, seed: number, options: SceneOptions = {}): SyntheticScene {
  const size = options.size ?? 320;
  const mpp = options.metersPerPixel ?? 0.005;
  const surface = options.surface ?? 'asphalt';
  const rand = rng(seed * 7919 + SCENE_CATEGORIES.indexOf(category) * 104729 + 1);
  const c = new Canvas(size, size);
  const grass = new Uint8Array(size * size);
  drawSurface(c, rand, surface);
  const truth: SceneTruth = { pavement_pct: 100, pavement_type: surface, distresses: {} };
  const pavementM2 = () => (size * size - count(grass)) * mpp * mpp;

  switch (category) {
    case 'clean':
      break;
    case 'cracks': {
      const n = 1 + Math.floor(rand() * 3);
      const sev = (['low', 'medium', 'high'] as const)[Math.floor(rand() * 3)];
      const widthMm = sev === 'low' ? 6 + rand() * 3 : sev === 'medium' ? 14 + rand() * 26 : 85 + rand() * 15;
      let lengthPx = 0;
      for (let k = 0; k < n; k++) lengthPx += drawCrack(c, rand, widthMm / 1000 / mpp, 0.35 + rand() * 0.15);
      truth.distresses.longitudinal_transverse_cracking = {
        density_pct: linearDensity(lengthPx * mpp, pavementM2()),
        severity: crackSeverity(widthMm),
      };
      break;
    }
    case 'alligator':
    case 'block': {
      const alligator = category === 'alligator';
      const frac = alligator ? 0.35 + rand() * 0.25 : 0.75 + rand() * 0.15;
      const cellM = alligator ? 0.09 + rand() * 0.06 : 0.35 + rand() * 0.2;
      const widthMm = alligator ? 6 + rand() * 12 : 8 + rand() * 20;
      const areaPx = drawNetwork(c, rand, frac, cellM / mpp, widthMm / 1000 / mpp);
      truth.distresses[alligator ? 'alligator_cracking' : 'block_cracking'] = {
        density_pct: (areaPx / (size * size)) * 100,
        severity: alligator ? (widthMm < 10 ? 'low' : widthMm <= 25 ? 'medium' : 'high') : crackSeverity(widthMm),
      };
      break;
    }
    case 'potholes': {
      const n = 1 + Math.floor(rand() * 3);
      let darkest = 1;
      const covered = new Uint8Array(size * size);
      for (let k = 0; k < n; k++) {
        const r = (0.06 + rand() * 0.08) / mpp;
        const depthMm = 15 + rand() * 60;
        const f = 0.55 - depthMm / 200;
        darkest = Math.min(darkest, f);
        drawArea(
          c,
          rand,
          blob(rand, r + rand() * (size - 2 * r), r + rand() * (size - 2 * r), r, r * (0.7 + rand() * 0.3), 0.3),
          (i) => c.scale(i, f, 1),
          1.5,
        );
      }
      // ASTM D6433 counts potholes: the density is potholes per 100 sq ft of pavement.
      truth.distresses.potholes = {
        density_pct: (n / (pavementM2() * SQFT_PER_M2)) * 100,
        severity: darkest >= 0.45 ? 'low' : darkest >= 0.3 ? 'medium' : 'high',
      };
      break;
    }
    case 'patches': {
      const n = 1 + Math.floor(rand() * 2);
      let area = 0;
      const covered = new Uint8Array(size * size);
      for (let k = 0; k < n; k++) {
        const w = size * (0.2 + rand() * 0.25);
        const h = size * (0.2 + rand() * 0.25);
        const x = rand() * (size - w);
        const y = rand() * (size - h);
        const delta = (rand() < 0.5 ? -1 : 1) * (24 + rand() * 16);
        const rect: Pt[] = [
          [x, y],
          [x + w, y],
          [x + w, y + h],
          [x, y + h],
        ];
        area += drawArea(c, rand, rect, (i) => c.scale(i, 1 + delta / 110, 1), 0, covered);
      }
      truth.distresses.patching = { density_pct: (area / (size * size)) * 100, severity: 'low' };
      break;
    }
    case 'raveling': {
      const whole = rand() < 0.3;
      const r = size * (0.25 + rand() * 0.15);
      const poly: Pt[] = whole
        ? [
            [0, 0],
            [size, 0],
            [size, size],
            [0, size],
          ]
        : blob(rand, r + rand() * (size - 2 * r), r + rand() * (size - 2 * r), r, r, 0.2);
      const area = drawArea(c, rand, poly, () => {}, 0);
      drawRaveling(c, rand, poly);
      truth.distresses.weathering_raveling = { density_pct: (area / (size * size)) * 100, severity: 'medium' };
      break;
    }
    case 'shadows': {
      const f = 0.45 + rand() * 0.2;
      const soft = 6 + rand() * 8;
      const cut = size * (0.3 + rand() * 0.4);
      const poly: Pt[] =
        rand() < 0.5
          ? [
              [-soft * 2, -soft * 2],
              [cut + rand() * size * 0.2, -soft * 2],
              [cut, size + soft * 2],
              [-soft * 2, size + soft * 2],
            ]
          : blob(rand, size / 2, size / 2, size * 0.3, size * 0.22, 0.6);
      softArea(c, poly, soft, (i, w) => c.scale(i, f, w));
      break;
    }
    case 'paint_lines': {
      const n = 1 + Math.floor(rand() * 2);
      for (let k = 0; k < n; k++) {
        const yellow = rand() < 0.4;
        const colour: Rgb = yellow ? [226, 186, 52] : [236, 236, 230];
        const w = (0.1 + rand() * 0.05) / mpp;
        const vertical = rand() < 0.5;
        const at = size * (0.25 + rand() * 0.5);
        const tilt = (rand() - 0.5) * size * 0.3;
        const a: Pt = vertical ? [at, -10] : [-10, at];
        const b: Pt = vertical ? [at + tilt, size + 10] : [size + 10, at + tilt];
        c.segment(a, b, w, (i, cov) => c.blend(i, colour, cov * 0.95));
      }
      break;
    }
    case 'oil_stains': {
      const n = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < n; k++) {
        const r = (0.08 + rand() * 0.1) / mpp;
        const f = 0.6 + rand() * 0.15;
        const poly = blob(rand, r + rand() * (size - 2 * r), r + rand() * (size - 2 * r), r, r * 0.8, 0.5);
        softArea(c, poly, 5, (i, w) => c.scale(i, f, w));
      }
      break;
    }
    case 'sealed_cracks': {
      // Crack sealant is a filled crack: ASTM counts it as a low-severity longitudinal/transverse crack.
      const n = 1 + Math.floor(rand() * 2);
      let lengthPx = 0;
      for (let k = 0; k < n; k++) lengthPx += drawCrack(c, rand, (0.04 + rand() * 0.02) / mpp, 0, [30, 30, 33]);
      truth.distresses.longitudinal_transverse_cracking = {
        density_pct: linearDensity(lengthPx * mpp, pavementM2()),
        severity: 'low',
      };
      break;
    }
    case 'grass_edge': {
      const w = size * (0.1 + rand() * 0.2);
      const poly: Pt[] = [
        [size - w, -1],
        [size + 1, -1],
        [size + 1, size + 1],
        [size - w - rand() * 20, size + 1],
      ];
      drawGrass(c, rand, poly, grass);
      truth.pavement_pct = 100 - (count(grass) / (size * size)) * 100;
      break;
    }
    case 'grass': {
      drawGrass(
        c,
        rand,
        [
          [-1, -1],
          [size + 1, -1],
          [size + 1, size + 1],
          [-1, size + 1],
        ],
        grass,
      );
      truth.pavement_pct = 0;
      break;
    }
  }
  // Sensor noise last, over everything.
  for (let i = 0; i < size * size; i++) {
    const n = gauss(rand) * 3.5;
    c.r[i] += n;
    c.g[i] += n;
    c.b[i] += n;
  }
  return { category, seed, pixels: c.toPixels(), metersPerPixel: mpp, truth };
}

function count(a: Uint8Array): number {
  let n = 0;
  for (const v of a) n += v;
  return n;
}

function linearDensity(lengthM: number, areaM2: number): number {
  return ((lengthM * FT_PER_M) / (areaM2 * SQFT_PER_M2)) * 100;
}

/** Asphalt (or concrete): a grey base with a slow tone drift and exposed aggregate specks. */
function drawSurface(c: Canvas, rand: () => number, surface: PavementType): void {
  const g0 = surface === 'asphalt' ? 88 + rand() * 30 : 160 + rand() * 25;
  const tint: Rgb = [g0 + rand() * 4 - 2, g0 + rand() * 4 - 2, g0 + rand() * 5];
  c.fill(tint);
  const fx = (rand() * 2 + 1) / c.width;
  const fy = (rand() * 2 + 1) / c.height;
  const ph = rand() * 6;
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const i = y * c.width + x;
      const drift = 4 * Math.sin(2 * Math.PI * (x * fx + y * fy) + ph);
      const n = gauss(rand) * 4 + drift;
      c.r[i] += n;
      c.g[i] += n;
      c.b[i] += n;
    }
  }
  const specks = Math.floor((c.width * c.height) / 45);
  for (let k = 0; k < specks; k++) {
    const x = rand() * c.width;
    const y = rand() * c.height;
    const r = 0.6 + rand() * 1.1;
    const d = (rand() < 0.5 ? -1 : 1) * (10 + rand() * 18);
    c.box(x - r, y - r, x + r, y + r, (i, px, py) => {
      if (Math.hypot(px - x, py - y) <= r) c.scale(i, 1 + d / 110, 1);
    });
  }
}

/**
 * A crack: a meandering polyline from an interior point toward two opposite edges, mostly along
 * or across the lane. Returns its length in pixels (only the part inside the image).
 */
function drawCrack(c: Canvas, rand: () => number, widthPx: number, darkness: number, colour?: Rgb): number {
  const along = rand() < 0.5 ? 0 : Math.PI / 2;
  const heading0 = along + gauss(rand) * 0.25;
  const start: Pt = [c.width * (0.2 + rand() * 0.6), c.height * (0.2 + rand() * 0.6)];
  const budget = c.width * (0.4 + rand() * 0.8);
  let total = 0;
  for (const dir of [0, Math.PI]) {
    let p = start;
    let heading = heading0 + dir;
    let run = 0;
    while (run < budget / 2) {
      heading += gauss(rand) * 0.18 + (heading0 + dir - heading) * 0.15;
      const step = 6;
      const q: Pt = [p[0] + Math.cos(heading) * step, p[1] + Math.sin(heading) * step];
      if (q[0] < 1 || q[1] < 1 || q[0] > c.width - 1 || q[1] > c.height - 1) break;
      c.segment(p, q, widthPx, (i, cov) => (colour ? c.blend(i, colour, cov) : c.scale(i, darkness, cov)));
      total += step;
      run += step;
      p = q;
    }
  }
  return total;
}

/** A crack network over a centred-ish rectangle: a jittered grid of cells, boundary included. Returns its area in px. */
function drawNetwork(c: Canvas, rand: () => number, frac: number, cellPx: number, widthPx: number): number {
  const side = Math.sqrt(frac) * c.width;
  const nx = Math.max(2, Math.round((side * (0.8 + rand() * 0.4)) / cellPx));
  const ny = Math.max(2, Math.round((frac * c.width * c.height) / (nx * cellPx) / cellPx));
  const w = Math.min(c.width - 8, nx * cellPx);
  const h = Math.min(c.height - 8, ny * cellPx);
  const x0 = 4 + rand() * (c.width - 8 - w);
  const y0 = 4 + rand() * (c.height - 8 - h);
  const pts: Pt[][] = [];
  for (let j = 0; j <= ny; j++) {
    const row: Pt[] = [];
    for (let i = 0; i <= nx; i++) {
      const edgeX = i === 0 || i === nx;
      const edgeY = j === 0 || j === ny;
      const jx = edgeX ? 0 : (rand() - 0.5) * 0.5 * (w / nx);
      const jy = edgeY ? 0 : (rand() - 0.5) * 0.5 * (h / ny);
      row.push([x0 + (i * w) / nx + jx, y0 + (j * h) / ny + jy]);
    }
    pts.push(row);
  }
  const darkness = 0.4 + rand() * 0.15;
  const draw = (a: Pt, b: Pt) => c.segment(a, b, widthPx, (i, cov) => c.scale(i, darkness, cov));
  for (let j = 0; j <= ny; j++)
    for (let i = 0; i <= nx; i++) {
      if (i < nx) draw(pts[j][i], pts[j][i + 1]);
      if (j < ny) draw(pts[j][i], pts[j + 1][i]);
    }
  return w * h;
}

/** Fill a polygon (hard edge with `rim` px of soft border); returns the pixel count inside not already `covered`. */
function drawArea(
  c: Canvas,
  rand: () => number,
  poly: Pt[],
  paint: (i: number) => void,
  rim: number,
  covered?: Uint8Array,
): number {
  const [x0, y0, x1, y1] = bounds(poly);
  let n = 0;
  c.box(x0, y0, x1, y1, (i, x, y) => {
    if (!inside(poly, x, y)) return;
    if (!covered?.[i]) n++;
    if (covered) covered[i] = 1;
    paint(i);
    if (rim > 0 && edgeDistance(poly, x, y) < rim) c.scale(i, 1.15, 0.5 + rand() * 0.5);
  });
  return n;
}

/** Darken (or tint) a polygon with a soft edge `soft` px wide: weight 1 inside, fading across the outline. */
function softArea(c: Canvas, poly: Pt[], soft: number, paint: (i: number, w: number) => void): void {
  const [x0, y0, x1, y1] = bounds(poly);
  c.box(x0 - soft, y0 - soft, x1 + soft, y1 + soft, (i, x, y) => {
    const d = edgeDistance(poly, x, y) * (inside(poly, x, y) ? 1 : -1);
    const w = Math.max(0, Math.min(1, 0.5 + d / soft));
    if (w > 0) paint(i, w);
  });
}

/** Loss of fines: dense dark pits and bright exposed stones inside the polygon. */
function drawRaveling(c: Canvas, rand: () => number, poly: Pt[]): void {
  const [x0, y0, x1, y1] = bounds(poly);
  const n = Math.floor(((x1 - x0) * (y1 - y0)) / 9);
  for (let k = 0; k < n; k++) {
    const x = x0 + rand() * (x1 - x0);
    const y = y0 + rand() * (y1 - y0);
    if (!inside(poly, x, y)) continue;
    const r = 0.8 + rand() * 1.6;
    const f = rand() < 0.55 ? 0.45 + rand() * 0.2 : 1.35 + rand() * 0.3;
    c.box(x - r, y - r, x + r, y + r, (i, px, py) => {
      if (Math.hypot(px - x, py - y) <= r) c.scale(i, f, 1);
    });
  }
}

function drawGrass(c: Canvas, rand: () => number, poly: Pt[], grass: Uint8Array): void {
  const [x0, y0, x1, y1] = bounds(poly);
  c.box(x0, y0, x1, y1, (i, x, y) => {
    if (!inside(poly, x, y)) return;
    grass[i] = 1;
    const v = 0.75 + rand() * 0.5;
    c.r[i] = 62 * v;
    c.g[i] = 118 * v;
    c.b[i] = 44 * v;
  });
}
