// The detector's measured accuracy on generated lots (docs/measurement-detector.md, "Measured
// accuracy"): per lot, the paved-area error against the truth (drawn lot minus building; canopy
// over the pavement counted as paved, see synthetic-lot.ts), the painted length error per colour,
// the stall count error and whether the surface type was told right. Pure: no printing, no clock.
import { detectPaved } from './detect.ts';
import { type LotOptions, type LotScene, type LotTruth, syntheticLot } from './synthetic-lot.ts';
import { drawLot } from './synthetic-lot-draw.ts';
import type { PaintColour, PavedFindings, PavedSurface, PixelPoint } from './types.ts';

const COLOURS: PaintColour[] = ['white', 'yellow'];

/** Area of one ring in pixels² (shoelace). */
export function ringAreaPx(ring: PixelPoint[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(a) / 2;
}

/** Paved area found, m²: each outline minus its holes. */
export function foundAreaM2(f: PavedFindings, mpp: number, surface?: PavedSurface): number {
  let px = 0;
  for (const s of f.surfaces) {
    if (surface && s.surface !== surface) continue;
    px += ringAreaPx(s.rings[0]) - s.rings.slice(1).reduce((a, r) => a + ringAreaPx(r), 0);
  }
  return px * mpp * mpp;
}

/** Painted line length found per colour, m. */
export function foundLineLengthM(f: PavedFindings, mpp: number): Record<PaintColour, number> {
  const out: Record<PaintColour, number> = { white: 0, yellow: 0 };
  for (const l of f.lines)
    for (let k = 1; k < l.points.length; k++)
      out[l.colour] += Math.hypot(l.points[k][0] - l.points[k - 1][0], l.points[k][1] - l.points[k - 1][1]) * mpp;
  return out;
}

export interface LotAccuracy {
  seed: number;
  surface: PavedSurface;
  building: boolean;
  trees: number;
  truth: LotTruth;
  pavedM2: number;
  /** (found − true) ÷ true × 100. */
  areaErrorPct: number;
  /** The same against the visible pavement (truth minus canopy over it). */
  visibleAreaErrorPct: number;
  lineLengthM: Record<PaintColour, number>;
  /** Per colour drawn on the lot (null where none was drawn). */
  lineErrorPct: Record<PaintColour, number | null>;
  stalls: number;
  stallError: number;
  /** Found stalls within STALL_MATCH_M of a true stall centre (each true stall matched once). */
  stallsMatched: number;
  /** The larger share of the found area has the drawn surface type. */
  surfaceRight: boolean;
}

export async function measureLot(scene: LotScene, metersPerPixel: number): Promise<LotAccuracy> {
  const drawn = drawLot(scene, metersPerPixel);
  const found = await detectPaved(drawn.pixels, { metersPerPixel });
  const t = scene.truth;
  const pavedM2 = foundAreaM2(found, metersPerPixel);
  const lineLengthM = foundLineLengthM(found, metersPerPixel);
  const lineErrorPct = { white: null, yellow: null } as Record<PaintColour, number | null>;
  for (const c of COLOURS)
    if (t.lineLengthM[c] > 0) lineErrorPct[c] = ((lineLengthM[c] - t.lineLengthM[c]) / t.lineLengthM[c]) * 100;
  const same = foundAreaM2(found, metersPerPixel, scene.surface);
  return {
    seed: scene.seed,
    surface: scene.surface,
    building: scene.building !== null,
    trees: scene.trees.length,
    truth: t,
    pavedM2,
    areaErrorPct: ((pavedM2 - t.pavedM2) / t.pavedM2) * 100,
    visibleAreaErrorPct:
      ((pavedM2 - (t.pavedM2 - t.canopyOverPavementM2)) / (t.pavedM2 - t.canopyOverPavementM2)) * 100,
    lineLengthM,
    lineErrorPct,
    stalls: found.stalls.length,
    stallError: found.stalls.length - t.stalls,
    stallsMatched: matchStalls(
      found.stalls.map((s) => s.point),
      t.stallPoints.map(drawn.toPixel),
      STALL_MATCH_M / metersPerPixel,
    ),
    surfaceRight: same * 2 > pavedM2,
  };
}

/** A found stall is the true one when its point is within this distance of the true centre. */
export const STALL_MATCH_M = 1;

/** Greedy one-to-one matching of found points to true points within `radius` pixels. */
function matchStalls(found: PixelPoint[], truth: PixelPoint[], radius: number): number {
  const used = new Uint8Array(truth.length);
  let matched = 0;
  for (const p of found) {
    let best = -1;
    let bestD = radius;
    truth.forEach((q, k) => {
      const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
      if (!used[k] && d <= bestD) {
        best = k;
        bestD = d;
      }
    });
    if (best >= 0) {
      used[best] = 1;
      matched++;
    }
  }
  return matched;
}

export interface Spread {
  /** Lots the figure applies to. */
  n: number;
  meanAbs: number;
  maxAbs: number;
  /** Signed mean: the bias. */
  mean: number;
}

export interface AccuracyReport {
  lots: LotAccuracy[];
  areaErrorPct: Spread;
  visibleAreaErrorPct: Spread;
  lineErrorPct: Record<PaintColour, Spread>;
  /** Stall count error in % of the true count. */
  stallErrorPct: Spread;
  /** Found stalls that match a true one ÷ found, and true stalls matched ÷ true, over all lots. */
  stallPrecision: number;
  stallRecall: number;
  surfaceRight: number;
}

export interface AccuracyOptions {
  lots: number;
  /** First seed (default 1000; the tests use 1–8). */
  seed?: number;
  /** Default 0.12 m (zoom 20 at about 35° latitude). */
  metersPerPixel?: number;
  lot?: LotOptions;
}

export function spread(values: number[]): Spread {
  const n = values.length;
  if (n === 0) return { n, meanAbs: 0, maxAbs: 0, mean: 0 };
  return {
    n,
    meanAbs: values.reduce((a, v) => a + Math.abs(v), 0) / n,
    maxAbs: Math.max(...values.map(Math.abs)),
    mean: values.reduce((a, v) => a + v, 0) / n,
  };
}

export async function measureAccuracy(options: AccuracyOptions): Promise<AccuracyReport> {
  const lots: LotAccuracy[] = [];
  for (let k = 0; k < options.lots; k++)
    lots.push(await measureLot(syntheticLot((options.seed ?? 1000) + k, options.lot), options.metersPerPixel ?? 0.12));
  const line = (c: PaintColour) => spread(lots.flatMap((l) => (l.lineErrorPct[c] === null ? [] : [l.lineErrorPct[c]])));
  return {
    lots,
    areaErrorPct: spread(lots.map((l) => l.areaErrorPct)),
    visibleAreaErrorPct: spread(lots.map((l) => l.visibleAreaErrorPct)),
    lineErrorPct: { white: line('white'), yellow: line('yellow') },
    stallErrorPct: spread(lots.filter((l) => l.truth.stalls > 0).map((l) => (l.stallError / l.truth.stalls) * 100)),
    stallPrecision:
      sum(lots, (l) => l.stallsMatched) /
      Math.max(
        1,
        sum(lots, (l) => l.stalls),
      ),
    stallRecall:
      sum(lots, (l) => l.stallsMatched) /
      Math.max(
        1,
        sum(lots, (l) => l.truth.stalls),
      ),
    surfaceRight: lots.filter((l) => l.surfaceRight).length,
  };
}

function sum(lots: LotAccuracy[], f: (l: LotAccuracy) => number): number {
  return lots.reduce((a, l) => a + f(l), 0);
}
