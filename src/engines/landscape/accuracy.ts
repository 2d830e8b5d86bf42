// The landscape detector's measured accuracy on generated yards (docs/landscape-detector.md,
// "Measured accuracy"): per yard, the lawn area error against the truth (the drawn lawn minus the
// beds, mulch and soil in it; canopy over the lawn counted as lawn), the mulched-ground error (beds
// and plain mulch together, and each class apart), and trees and shrubs matched one to one with
// the truth's crowns. Pure: no printing, no clock.
import { ringAreaPx, type Spread, spread } from '#engines/paved/accuracy.ts';
import { detectLandscape } from './detect.ts';
import { syntheticYard, type TreeKind, type YardOptions, type YardScene, type YardTruth } from './synthetic-yard.ts';
import { drawYard } from './synthetic-yard-draw.ts';
import type { LandscapeAreaClass, LandscapeFindings, PixelPoint } from './types.ts';

/** Area found of one class (or all), m²: each outline minus its holes. */
export function foundAreaM2(f: LandscapeFindings, mpp: number, cls?: LandscapeAreaClass): number {
  let px = 0;
  for (const a of f.areas) {
    if (cls && a.class !== cls) continue;
    px += ringAreaPx(a.rings[0]) - a.rings.slice(1).reduce((s, r) => s + ringAreaPx(r), 0);
  }
  return px * mpp * mpp;
}

export interface YardAccuracy {
  seed: number;
  truth: YardTruth;
  lawnM2: number;
  bedM2: number;
  mulchM2: number;
  /** (found − true) ÷ true × 100. */
  lawnErrorPct: number;
  /** Beds and plain mulch together against the truth's beds and mulch together. */
  mulchedErrorPct: number;
  /** Per class, null where the yard has none of it. */
  bedErrorPct: number | null;
  mulchErrorPct: number | null;
  /** Trees (deciduous and evergreen) found, true, and found within a true crown's radius of its centre (one to one). */
  trees: number;
  treesTrue: number;
  treesMatched: number;
  /** Matched trees given the drawn foliage type. */
  treeKindRight: number;
  shrubs: number;
  shrubsTrue: number;
  shrubsMatched: number;
  /** |found radius − true radius| of each matched tree, m. */
  treeRadiusErrorM: number[];
}

export async function measureYard(scene: YardScene, metersPerPixel: number): Promise<YardAccuracy> {
  const drawn = drawYard(scene, metersPerPixel);
  const found = await detectLandscape(drawn.pixels, { metersPerPixel });
  const t = scene.truth;
  const lawnM2 = foundAreaM2(found, metersPerPixel, 'lawn');
  const bedM2 = foundAreaM2(found, metersPerPixel, 'bed');
  const mulchM2 = foundAreaM2(found, metersPerPixel, 'mulch');
  const pct = (a: number, b: number) => ((a - b) / b) * 100;
  const trees = found.objects.filter((o) => o.class !== 'shrub');
  const shrubs = found.objects.filter((o) => o.class === 'shrub');
  const treeTruth = t.trees.map((x) => ({
    point: drawn.toPixel(x.centre),
    radius: x.radiusM / metersPerPixel,
    kind: x.kind,
  }));
  const treeMatch = matchCrowns(trees, treeTruth);
  const shrubMatch = matchCrowns(
    shrubs,
    t.shrubs.map((x) => ({ point: drawn.toPixel(x.centre), radius: x.radiusM / metersPerPixel, kind: null })),
  );
  return {
    seed: scene.seed,
    truth: t,
    lawnM2,
    bedM2,
    mulchM2,
    lawnErrorPct: pct(lawnM2, t.lawnM2),
    mulchedErrorPct: pct(bedM2 + mulchM2, t.bedM2 + t.mulchM2),
    bedErrorPct: t.bedM2 > 0 ? pct(bedM2, t.bedM2) : null,
    mulchErrorPct: t.mulchM2 > 0 ? pct(mulchM2, t.mulchM2) : null,
    trees: trees.length,
    treesTrue: t.trees.length,
    treesMatched: treeMatch.length,
    treeKindRight: treeMatch.filter(([f, k]) => trees[f].class === treeTruth[k].kind).length,
    shrubs: shrubs.length,
    shrubsTrue: t.shrubs.length,
    shrubsMatched: shrubMatch.length,
    treeRadiusErrorM: treeMatch.map(([f, k]) => Math.abs(trees[f].radius_m - t.trees[k].radiusM)),
  };
}

interface TrueCrown {
  point: PixelPoint;
  /** Pixels. */
  radius: number;
  kind: TreeKind | null;
}

/** One-to-one matches [found index, true index], closest pairs first, each within the true crown's radius. */
export function matchCrowns(found: { point: PixelPoint }[], truth: TrueCrown[]): [number, number][] {
  const pairs: [number, number, number][] = [];
  found.forEach((f, i) => {
    truth.forEach((t, k) => {
      const d = Math.hypot(f.point[0] - t.point[0], f.point[1] - t.point[1]);
      if (d <= t.radius) pairs.push([i, k, d]);
    });
  });
  pairs.sort((a, b) => a[2] - b[2]);
  const usedF = new Set<number>();
  const usedT = new Set<number>();
  const out: [number, number][] = [];
  for (const [i, k] of pairs) {
    if (usedF.has(i) || usedT.has(k)) continue;
    usedF.add(i);
    usedT.add(k);
    out.push([i, k]);
  }
  return out;
}

export interface AccuracyReport {
  yards: YardAccuracy[];
  lawnErrorPct: Spread;
  mulchedErrorPct: Spread;
  bedErrorPct: Spread;
  mulchErrorPct: Spread;
  /** Yards whose tree count is exactly the truth's. */
  treeCountExact: number;
  /** Matched ÷ found and matched ÷ true over all yards. */
  treePrecision: number;
  treeRecall: number;
  /** Matched trees given the right foliage type ÷ matched trees. */
  treeKindRight: number;
  treeRadiusErrorM: Spread;
  shrubPrecision: number;
  shrubRecall: number;
}

export interface AccuracyOptions {
  yards: number;
  /** First seed (default 1000; the tests use 1–8). */
  seed?: number;
  /** Default 0.12 m (zoom 20 at about 35° latitude). */
  metersPerPixel?: number;
  yard?: YardOptions;
}

export async function measureAccuracy(options: AccuracyOptions): Promise<AccuracyReport> {
  const yards: YardAccuracy[] = [];
  for (let k = 0; k < options.yards; k++)
    yards.push(
      await measureYard(syntheticYard((options.seed ?? 1000) + k, options.yard), options.metersPerPixel ?? 0.12),
    );
  const sum = (f: (y: YardAccuracy) => number) => yards.reduce((a, y) => a + f(y), 0);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 1);
  const some = (f: (y: YardAccuracy) => number | null) =>
    spread(yards.flatMap((y) => (f(y) === null ? [] : [f(y) as number])));
  return {
    yards,
    lawnErrorPct: spread(yards.map((y) => y.lawnErrorPct)),
    mulchedErrorPct: spread(yards.map((y) => y.mulchedErrorPct)),
    bedErrorPct: some((y) => y.bedErrorPct),
    mulchErrorPct: some((y) => y.mulchErrorPct),
    treeCountExact: yards.filter((y) => y.trees === y.treesTrue).length,
    treePrecision: ratio(
      sum((y) => y.treesMatched),
      sum((y) => y.trees),
    ),
    treeRecall: ratio(
      sum((y) => y.treesMatched),
      sum((y) => y.treesTrue),
    ),
    treeKindRight: ratio(
      sum((y) => y.treeKindRight),
      sum((y) => y.treesMatched),
    ),
    treeRadiusErrorM: spread(yards.flatMap((y) => y.treeRadiusErrorM)),
    shrubPrecision: ratio(
      sum((y) => y.shrubsMatched),
      sum((y) => y.shrubs),
    ),
    shrubRecall: ratio(
      sum((y) => y.shrubsMatched),
      sum((y) => y.shrubsTrue),
    ),
  };
}
