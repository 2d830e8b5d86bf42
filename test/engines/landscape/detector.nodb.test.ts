// The built-in landscape detector held to the tolerances on generated yards whose truth is
// known (docs/landscape-detector.md, "Tolerances"). Seeds 1–8 here, at 0.12 m per pixel (zoom 20
// at about 35° latitude) and 0.3 (zoom 19 near the equator, zoom 18 at 60°); the doc's figures use
// seeds 1000 on.
import { beforeAll, describe, expect, it } from 'vitest';
import { inside } from '#engines/distress/synthetic-draw.ts';
import { type AccuracyReport, foundAreaM2, measureAccuracy } from '#engines/landscape/accuracy.ts';
import { detectLandscape, type LandscapeFindings, landscapeClassesDetected } from '#engines/landscape/index.ts';
import { syntheticYard } from '#engines/landscape/synthetic-yard.ts';
import { drawYard } from '#engines/landscape/synthetic-yard-draw.ts';
import { ringAreaPx } from '#engines/paved/accuracy.ts';

const SCALES = [0.12, 0.3];
const reports = new Map<number, AccuracyReport>();

beforeAll(async () => {
  for (const mpp of SCALES) reports.set(mpp, await measureAccuracy({ yards: 8, seed: 1, metersPerPixel: mpp }));
});

describe.each(SCALES)('landscape detector at %s m per pixel: generated yards within the tolerances', (mpp) => {
  it('lawn area within ±5% of the truth on every yard (canopy over the lawn counted as lawn)', () => {
    for (const y of reports.get(mpp)?.yards ?? [])
      expect(Math.abs(y.lawnErrorPct), `yard ${y.seed}`).toBeLessThanOrEqual(5);
  });

  it('mulched ground (beds and plain mulch) within ±10% on every yard', () => {
    for (const y of reports.get(mpp)?.yards ?? [])
      expect(Math.abs(y.mulchedErrorPct), `yard ${y.seed}`).toBeLessThanOrEqual(10);
  });

  it('tree count exactly the truth on every yard, each found tree within a true crown (one to one)', () => {
    const r = reports.get(mpp) as AccuracyReport;
    expect(r.yards).toHaveLength(8);
    for (const y of r.yards) {
      expect(y.trees, `yard ${y.seed}`).toBe(y.treesTrue);
      expect(y.treesMatched, `yard ${y.seed}`).toBe(y.treesTrue);
    }
    expect(r.treeKindRight).toBeGreaterThanOrEqual(0.9);
  });
});

describe('landscape detector: what it returns', () => {
  const MPP = 0.12;

  it('rings open, outline first, inside the image; objects of the detected classes with a radius', async () => {
    const { pixels } = drawYard(syntheticYard(5), MPP);
    const found = await detectLandscape(pixels, { metersPerPixel: MPP });
    expect(found.areas.length).toBeGreaterThan(0);
    for (const a of found.areas) {
      expect(landscapeClassesDetected.areas).toContain(a.class);
      for (const r of a.rings) {
        expect(r.length).toBeGreaterThanOrEqual(3);
        expect(r[0]).not.toEqual(r[r.length - 1]);
        for (const [x, y] of r) {
          expect(x).toBeGreaterThanOrEqual(-1);
          expect(x).toBeLessThanOrEqual(pixels.width + 1);
          expect(y).toBeGreaterThanOrEqual(-1);
          expect(y).toBeLessThanOrEqual(pixels.height + 1);
        }
      }
      for (const hole of a.rings.slice(1)) expect(ringAreaPx(hole)).toBeLessThan(ringAreaPx(a.rings[0]));
    }
    for (const o of found.objects) {
      expect(landscapeClassesDetected.objects).toContain(o.class);
      expect(o.radius_m).toBeGreaterThan(0);
    }
    expect(found.objects.some((o) => o.class === 'shrub')).toBe(true);
    // Every bed holds a plant; shrubs in the yard's bed along the house make it a bed, not mulch.
    expect(found.areas.some((a) => a.class === 'bed')).toBe(true);
  });

  it('the lawn rule: ground under a tree standing in the lawn is lawn, not a hole in it', async () => {
    const scene = syntheticYard(3, { lawnTrees: 3 });
    const drawn = drawYard(scene, MPP);
    const found = await detectLandscape(drawn.pixels, { metersPerPixel: MPP });
    const lawnTrees = scene.trees.filter((t) => inside(scene.lawn, t.centre[0], t.centre[1]));
    expect(lawnTrees.length).toBeGreaterThan(0);
    for (const t of lawnTrees) {
      const [x, y] = drawn.toPixel(t.centre);
      const holding = found.areas.filter((a) => a.class === 'lawn' && inside(a.rings[0], x, y));
      expect(holding).toHaveLength(1);
      expect(holding[0].rings.slice(1).some((h) => inside(h, x, y))).toBe(false);
    }
    expect(Math.abs(foundAreaM2(found, MPP, 'lawn') / scene.truth.lawnM2 - 1)).toBeLessThanOrEqual(0.05);
  });

  it('touching crowns come back as two trees', async () => {
    let pairs = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const scene = syntheticYard(seed, { touchingPair: true, lawnTrees: 2, backTrees: 0 });
      const [a, b] = scene.trees;
      if (!a || !b || Math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) >= a.radiusM + b.radiusM)
        continue;
      pairs++;
      const found = await detectLandscape(drawYard(scene, MPP).pixels, { metersPerPixel: MPP });
      expect(
        found.objects.filter((o) => o.class !== 'shrub'),
        `yard ${seed}`,
      ).toHaveLength(2);
    }
    expect(pairs).toBeGreaterThanOrEqual(5);
  });

  it('RGBA gives what RGB gives', async () => {
    const { pixels } = drawYard(syntheticYard(2), 0.25);
    const rgba = new Uint8Array(pixels.width * pixels.height * 4);
    for (let i = 0; i < pixels.width * pixels.height; i++) {
      rgba.set(pixels.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    const a = await detectLandscape(pixels, { metersPerPixel: 0.25 });
    const b = await detectLandscape({ ...pixels, channels: 4, data: rgba }, { metersPerPixel: 0.25 });
    expect(b).toEqual(a);
  });

  it('a blank image finds nothing: black, mid grey, white', async () => {
    const none: LandscapeFindings = { areas: [], objects: [] };
    for (const v of [0, 128, 255]) {
      const data = new Uint8Array(300 * 200 * 3).fill(v);
      expect(await detectLandscape({ width: 300, height: 200, channels: 3, data }, { metersPerPixel: 0.12 })).toEqual(
        none,
      );
    }
  });

  it('refuses bad input', async () => {
    const ok = { width: 2, height: 2, channels: 3 as const, data: new Uint8Array(12) };
    await expect(detectLandscape({ ...ok, data: new Uint8Array(11) }, { metersPerPixel: 0.1 })).rejects.toThrow(
      RangeError,
    );
    await expect(detectLandscape({ ...ok, width: 0 }, { metersPerPixel: 0.1 })).rejects.toThrow(RangeError);
    await expect(detectLandscape({ ...ok, height: 1.5 }, { metersPerPixel: 0.1 })).rejects.toThrow(RangeError);
    await expect(detectLandscape({ ...ok, channels: 2 as 3 }, { metersPerPixel: 0.1 })).rejects.toThrow(RangeError);
    await expect(detectLandscape(ok, { metersPerPixel: 0 })).rejects.toThrow(RangeError);
    await expect(detectLandscape(ok, { metersPerPixel: Number.NaN })).rejects.toThrow(RangeError);
  });

  it('names the classes it can find', () => {
    expect(landscapeClassesDetected).toEqual({
      areas: ['lawn', 'mulch', 'bed'],
      objects: ['deciduous', 'evergreen', 'shrub'],
    });
  });
});
