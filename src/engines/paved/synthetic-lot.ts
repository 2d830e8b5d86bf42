// Synthetic parking lots whose truth is known (GUIDE "Engines that look at images"): a scene in
// local meters (east, north from the origin, which is the lot's centre) with a paved lot (asphalt,
// or a concrete pad), maybe a building inside it (a hole), trees whose canopies overhang the edge,
// grass around, painted stall rows and long lane / edge lines. Pure and seeded (Mulberry32): the
// same seed and options give the same scene. synthetic-lot-draw.ts rasterizes it.
//
// Truth (docs/measurement-detector.md, "Truth"): the paved area is the drawn lot polygon minus the
// building. Tree canopy over the pavement is NOT taken out of it (the pavement is there, under the
// tree, and a contractor seals it), although the detector only sees the visible surface: the
// canopy's share is reported apart (canopyOverPavementM2) so the error it causes can be told.
import { blob, inside, type Pt, type Rgb, rng } from '#engines/distress/synthetic-draw.ts';
import type { Meters } from './lot-geo.ts';
import type { PaintColour, PavedSurface } from './types.ts';

export interface PaintStroke {
  colour: PaintColour;
  from: Meters;
  to: Meters;
  widthM: number;
  /** 'stall' lines sit in rows; 'long' ones are lane and edge lines. */
  kind: 'stall' | 'long';
}

export interface Canopy {
  centre: Meters;
  radiusM: number;
  outline: Meters[];
}

export interface LotTruth {
  /** The lot polygon's area minus the building's, m². */
  pavedM2: number;
  /** Pavement under tree canopy (counted in pavedM2, invisible from above), m². */
  canopyOverPavementM2: number;
  /** Painted line length per colour, m (each line's length end to end). */
  lineLengthM: Record<PaintColour, number>;
  /** Stalls: N − 1 per row of N equally spaced stall lines. */
  stalls: number;
  /** Each stall's centre (midway between its two lines). */
  stallPoints: Meters[];
}

export type RoofKind = 'light' | 'brown' | 'red' | 'tan' | 'dark';

export interface LotScene {
  seed: number;
  surface: PavedSurface;
  /** Base grey of the surface (0–255). */
  tone: number;
  lot: Meters[];
  building: { outline: Meters[]; roof: Rgb } | null;
  /** Shadow cast by the building on the pavement (a nuisance; off unless asked). */
  shadow: Meters[] | null;
  trees: Canopy[];
  paint: PaintStroke[];
  /** 1 = fresh paint; lower blends it toward the pavement (faded paint). */
  paintOpacity: number;
  truth: LotTruth;
}

export interface LotOptions {
  surface?: PavedSurface;
  /** Draw a building inside the lot (default: half of the seeds). */
  building?: boolean;
  roof?: RoofKind;
  /** Trees along the lot's edges (default 2–5). */
  trees?: number;
  /** Rotate the whole lot (degrees, counter-clockwise; default −25…25 for half of the seeds, else 0). */
  rotationDeg?: number;
  /** The building casts a shadow on the pavement (a nuisance). */
  shadow?: boolean;
  /** Paint opacity 0..1 (default 1; faded paint is a nuisance). */
  paintOpacity?: number;
}

const ROOFS: Record<RoofKind, Rgb> = {
  light: [232, 231, 226],
  brown: [128, 92, 70],
  red: [150, 66, 56],
  tan: [196, 176, 140],
  dark: [72, 72, 75],
};

/** A layout box in the lot's own frame (u along, v across), to keep stall rows off. */
type Box = [number, number, number, number];

export function syntheticLot(seed: number, options: LotOptions = {}): LotScene {
  const rand = rng(seed * 2654435761 + 12345);
  const surface = options.surface ?? (rand() < 0.7 ? 'asphalt' : 'concrete');
  const tone = surface === 'asphalt' ? 72 + rand() * 40 : 160 + rand() * 28;
  const W = 45 + rand() * 60;
  const H = 35 + rand() * 40;
  const rotate = options.rotationDeg ?? (rand() < 0.5 ? (rand() - 0.5) * 50 : 0);
  const cos = Math.cos((rotate * Math.PI) / 180);
  const sin = Math.sin((rotate * Math.PI) / 180);
  const toScene = ([u, v]: Pt): Meters => [u * cos - v * sin, u * sin + v * cos];
  const hasBuilding = options.building ?? rand() < 0.5;

  // The lot: a rectangle with one northern corner cut off (west or east, away from the building).
  const chamfer = 4 + rand() * 10;
  const buildingEast = rand() < 0.5;
  const cutWest = buildingEast;
  const local: Pt[] = cutWest
    ? [
        [-W / 2, -H / 2],
        [W / 2, -H / 2],
        [W / 2, H / 2],
        [-W / 2 + chamfer, H / 2],
        [-W / 2, H / 2 - chamfer],
      ]
    : [
        [-W / 2, -H / 2],
        [W / 2, -H / 2],
        [W / 2, H / 2 - chamfer],
        [W / 2 - chamfer, H / 2],
        [-W / 2, H / 2],
      ];
  const obstacles: Box[] = [
    cutWest
      ? [-W / 2, H / 2 - chamfer - 1, -W / 2 + chamfer + 1, H / 2]
      : [W / 2 - chamfer - 1, H / 2 - chamfer - 1, W / 2, H / 2],
  ];

  let buildingLocal: Pt[] | null = null;
  if (hasBuilding) {
    const bw = 10 + rand() * Math.min(16, W * 0.25);
    const bh = 9 + rand() * Math.min(14, H * 0.3);
    const u0 = buildingEast ? W / 2 - 4 - bw : -W / 2 + 4;
    const v0 = -H / 2 + 4 + rand() * (H - 8 - bh);
    buildingLocal = [
      [u0, v0],
      [u0 + bw, v0],
      [u0 + bw, v0 + bh],
      [u0, v0 + bh],
    ];
    obstacles.push([u0 - 3, v0 - 2, u0 + bw + 3, v0 + bh + 2]);
  }

  // Paint: an edge line along the south side, stall rows across, lane lines down the aisles.
  const colour: PaintColour = rand() < 0.7 ? 'white' : 'yellow';
  const width = 0.1 + rand() * 0.03;
  const paint: PaintStroke[] = [];
  const longColour = (): PaintColour => (rand() < 0.5 ? 'yellow' : colour);
  const lineLocal = (a: Pt, b: Pt, c: PaintColour, kind: PaintStroke['kind']) =>
    paint.push({ colour: c, from: toScene(a), to: toScene(b), widthM: width, kind });
  if (rand() < 0.7) lineLocal([-W / 2 + 3, -H / 2 + 1], [W / 2 - 3, -H / 2 + 1], longColour(), 'long');
  const spacing = 2.5 + rand() * 0.4;
  const depth = 4.5 + rand() * 1.0;
  const aisle = 6.5 + rand() * 1.0;
  let stalls = 0;
  const stallPoints: Meters[] = [];
  for (let v0 = -H / 2 + 2.5; v0 + depth + 1.5 <= H / 2; v0 += depth + aisle) {
    let uMin = -W / 2 + 3;
    let uMax = W / 2 - 3;
    for (const [a0, b0, a1, b1] of obstacles) {
      if (b1 < v0 || b0 > v0 + depth) continue;
      if (a0 + a1 > 0) uMax = Math.min(uMax, a0);
      else uMin = Math.max(uMin, a1);
    }
    const n = Math.floor((uMax - uMin) / spacing) + 1;
    if (n >= 3) {
      for (let k = 0; k < n; k++)
        lineLocal([uMin + k * spacing, v0], [uMin + k * spacing, v0 + depth], colour, 'stall');
      stalls += n - 1;
      for (let k = 0; k + 1 < n; k++) stallPoints.push(toScene([uMin + (k + 0.5) * spacing, v0 + depth / 2]));
    }
    const laneV = v0 + depth + aisle / 2;
    if (laneV + aisle / 2 + depth + 1.5 <= H / 2 && rand() < 0.5) {
      // A lane line down the aisle's middle, clear of obstacles in its band.
      let a = -W / 2 + 5;
      let b = W / 2 - 5;
      for (const [a0, b0, a1, b1] of obstacles) {
        if (b1 < laneV - 0.5 || b0 > laneV + 0.5) continue;
        if (a0 + a1 > 0) b = Math.min(b, a0 - 2);
        else a = Math.max(a, a1 + 2);
      }
      if (b - a >= 12) lineLocal([a, laneV], [b, laneV], longColour(), 'long');
    }
  }

  const lot = local.map(toScene);
  const building = buildingLocal
    ? {
        outline: buildingLocal.map(toScene),
        roof: ROOFS[options.roof ?? (['light', 'brown', 'red', 'tan'] as const)[Math.floor(rand() * 4)]],
      }
    : null;

  // Trees: canopies centred near the lot's edges (some overhang), never over paint or the building.
  const trees: Canopy[] = [];
  const wanted = options.trees ?? 2 + Math.floor(rand() * 4);
  for (let tries = 0; trees.length < wanted && tries < 60; tries++) {
    const r = 2.2 + rand() * 2.3;
    const edge = Math.floor(rand() * local.length);
    const p = local[edge];
    const q = local[(edge + 1) % local.length];
    const t = 0.1 + rand() * 0.8;
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
    // Outward normal of a counter-clockwise ring: (dy, −dx).
    const nx = (q[1] - p[1]) / len;
    const ny = -(q[0] - p[0]) / len;
    const out = (rand() - 0.3) * r;
    const c: Pt = [p[0] + (q[0] - p[0]) * t + nx * out, p[1] + (q[1] - p[1]) * t + ny * out];
    const centre = toScene(c);
    if (paint.some((s) => segmentDistance(centre, s.from, s.to) < r * 1.4 + 0.6)) continue;
    if (building && nearRing(building.outline, centre, r * 1.4 + 1)) continue;
    if (trees.some((o) => Math.hypot(o.centre[0] - centre[0], o.centre[1] - centre[1]) < r + o.radiusM)) continue;
    trees.push({ centre, radiusM: r, outline: blob(rand, centre[0], centre[1], r, r * (0.85 + rand() * 0.15), 0.25) });
  }

  // The shadow: the building's footprint pushed 3–6 m to the north-east, minus the footprint.
  let shadow: Meters[] | null = null;
  if (options.shadow && building) {
    const d = 3 + rand() * 3;
    shadow = shadowOf(building.outline, d * 0.8, d * 0.6);
  }

  const lineLengthM: Record<PaintColour, number> = { white: 0, yellow: 0 };
  for (const s of paint) lineLengthM[s.colour] += Math.hypot(s.to[0] - s.from[0], s.to[1] - s.from[1]);
  const pavedM2 = polygonArea(lot) - (building ? polygonArea(building.outline) : 0);
  return {
    seed,
    surface,
    tone,
    lot,
    building,
    shadow,
    trees,
    paint,
    paintOpacity: options.paintOpacity ?? 1,
    truth: {
      pavedM2,
      canopyOverPavementM2: canopyOverPavement(lot, building?.outline ?? null, trees),
      lineLengthM,
      stalls,
      stallPoints,
    },
  };
}

/** Shoelace area, m². */
export function polygonArea(ring: Meters[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(a) / 2;
}

function segmentDistance(p: Meters, a: Meters, b: Meters): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Whether a point is inside a ring or within `d` of its edges. */
function nearRing(ring: Meters[], p: Meters, d: number): boolean {
  if (inside(ring, p[0], p[1])) return true;
  return ring.some((a, i) => segmentDistance(p, a, ring[(i + 1) % ring.length]) < d);
}

/** Canopy over the pavement, counted on a 5 cm grid (overlapping canopies once). */
function canopyOverPavement(lot: Meters[], building: Meters[] | null, trees: Canopy[]): number {
  const step = 0.05;
  const seen = new Set<string>();
  let n = 0;
  for (const t of trees) {
    const xs = t.outline.map((p) => p[0]);
    const ys = t.outline.map((p) => p[1]);
    for (let x = Math.floor(Math.min(...xs) / step); x <= Math.ceil(Math.max(...xs) / step); x++)
      for (let y = Math.floor(Math.min(...ys) / step); y <= Math.ceil(Math.max(...ys) / step); y++) {
        const px = (x + 0.5) * step;
        const py = (y + 0.5) * step;
        if (!inside(t.outline, px, py) || !inside(lot, px, py) || (building && inside(building, px, py))) continue;
        const key = `${x},${y}`;
        if (seen.has(key)) continue;
        seen.add(key);
        n++;
      }
  }
  return n * step * step;
}

/** The footprint swept by (dx, dy): the convex hull of it and its shifted copy (a rectangle's shadow). */
function shadowOf(outline: Meters[], dx: number, dy: number): Meters[] {
  const pts: Meters[] = [...outline, ...outline.map(([x, y]): Meters => [x + dx, y + dy])];
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Meters, a: Meters, b: Meters) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Meters[]) => {
    const h: Meters[] = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(pts), ...half([...pts].reverse())];
}
