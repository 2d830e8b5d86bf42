// The synthetic yard generator and its rasterizer (docs/landscape-detector.md, "Synthetic yards"):
// seeded scenes whose truth adds up, the layout rules the truth relies on (crowns over the lawn
// wholly inside it, shrubs wholly inside their beds), and the property a local tile server relies
// on: a window drawn at once equals the same window cut from stitched 256-px tiles.
import { describe, expect, it } from 'vitest';
import { inside } from '#engines/distress/synthetic-draw.ts';
import { SHRUB_MAX_DIAMETER_M } from '#engines/landscape/crowns.ts';
import { syntheticYard } from '#engines/landscape/synthetic-yard.ts';
import { drawYard, drawYardWindow } from '#engines/landscape/synthetic-yard-draw.ts';
import { latLngToGlobalPixel } from '#engines/paved/lot-geo.ts';
import { polygonArea } from '#engines/paved/synthetic-lot.ts';

const FRAME = { originLat: 35.2, originLng: -97.4, zoom: 20 };

describe('synthetic yards', () => {
  it('the same seed gives the same scene and pixels; another seed another', () => {
    const a = syntheticYard(3);
    expect(syntheticYard(3)).toEqual(a);
    expect(syntheticYard(4).lawn).not.toEqual(a.lawn);
    const once = drawYard(a, 0.3).pixels.data;
    expect(Buffer.from(once).equals(Buffer.from(drawYard(syntheticYard(3), 0.3).pixels.data))).toBe(true);
  });

  it('truth adds up: lawn = lawn polygon − what lies in it; beds and mulch are their polygons', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = syntheticYard(seed);
      const [foundation, ...rest] = s.patches;
      expect(foundation.kind).toBe('bed');
      const sum = (kind: string, list = s.patches) =>
        list.filter((p) => p.kind === kind).reduce((a, p) => a + polygonArea(p.outline), 0);
      const inLawn = sum('bed', rest) + sum('mulch', rest) + sum('soil', rest);
      expect(s.truth.lawnM2).toBeCloseTo(polygonArea(s.lawn) - inLawn, 6);
      expect(s.truth.bedM2).toBeCloseTo(sum('bed'), 6);
      expect(s.truth.mulchM2).toBeCloseTo(sum('mulch'), 6);
      expect(s.truth.lawnM2).toBeGreaterThan(150);
      expect(s.truth.bedM2).toBeGreaterThan(5);
      // Everything in the lawn lies wholly inside it.
      for (const p of rest) for (const [x, y] of p.outline) expect(inside(s.lawn, x, y), `seed ${seed}`).toBe(true);
      expect(s.truth.trees.length).toBe(s.trees.length);
      expect(s.truth.shrubs.length).toBe(s.shrubs.length);
      expect(s.trees.length).toBeGreaterThan(0);
    }
  });

  it('crowns: trees 1.9 m in radius or more, shrubs well under the shrub threshold; a shrub in a bed lies inside it', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = syntheticYard(seed);
      for (const t of s.trees) expect(t.radiusM).toBeGreaterThanOrEqual(1.9);
      for (const sh of s.shrubs) {
        expect(2 * sh.radiusM).toBeLessThan(SHRUB_MAX_DIAMETER_M);
        const bed = s.patches.find((p) => p.kind === 'bed' && inside(p.outline, sh.centre[0], sh.centre[1]));
        if (bed) for (const [x, y] of sh.outline) expect(inside(bed.outline, x, y), `seed ${seed}`).toBe(true);
        else for (const [x, y] of sh.outline) expect(inside(s.lawn, x, y), `seed ${seed}`).toBe(true);
      }
      // A crown whose centre is over the lawn is wholly over it (the lawn rule is then exact).
      for (const t of s.trees)
        if (inside(s.lawn, t.centre[0], t.centre[1]))
          for (const [x, y] of t.outline) expect(inside(s.lawn, x, y), `seed ${seed}`).toBe(true);
    }
  });

  it('options: trees, a touching pair, roof, mulch, a dry lawn', () => {
    const s = syntheticYard(7, { lawnTrees: 0, backTrees: 0, roof: 'brown', mulch: 'red', dry: true });
    expect(s.trees).toHaveLength(0);
    expect(s.house.roof).toBe('brown');
    expect(s.mulch).toBe('red');
    expect(s.lawnColour[0]).toBeGreaterThan(s.lawnColour[2]);
    const p = syntheticYard(2, { lawnTrees: 2, backTrees: 0, touchingPair: true });
    const [a, b] = p.trees;
    expect(Math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])).toBeLessThan(a.radiusM + b.radiusM);
  });
});

describe('drawing a window of the yard', () => {
  it('a window drawn at once equals the same window cut from stitched 256-px tiles', () => {
    const scene = syntheticYard(11);
    const [ox, oy] = latLngToGlobalPixel(FRAME.zoom, FRAME.originLat, FRAME.originLng);
    // Not aligned to tiles on purpose.
    const win = { ...FRAME, left: Math.floor(ox) - 201, top: Math.floor(oy) - 177, width: 420, height: 380 };
    const whole = drawYardWindow(scene, win).data;
    const cut = new Uint8Array(win.width * win.height * 3);
    for (let ty = Math.floor(win.top / 256); ty <= Math.floor((win.top + win.height - 1) / 256); ty++)
      for (let tx = Math.floor(win.left / 256); tx <= Math.floor((win.left + win.width - 1) / 256); tx++) {
        const tile = drawYardWindow(scene, { ...FRAME, left: tx * 256, top: ty * 256, width: 256, height: 256 });
        for (let y = 0; y < 256; y++) {
          const gy = ty * 256 + y - win.top;
          if (gy < 0 || gy >= win.height) continue;
          for (let x = 0; x < 256; x++) {
            const gx = tx * 256 + x - win.left;
            if (gx < 0 || gx >= win.width) continue;
            for (let c = 0; c < 3; c++) cut[(gy * win.width + gx) * 3 + c] = tile.data[(y * 256 + x) * 3 + c];
          }
        }
      }
    expect(Buffer.from(cut).equals(Buffer.from(whole))).toBe(true);
    // And the window shows the yard: some green (lawn or crowns) and some bare ground.
    let green = 0;
    for (let i = 0; i < win.width * win.height; i++) if (whole[i * 3 + 1] > whole[i * 3] + 20) green++;
    expect(green).toBeGreaterThan(0.1 * win.width * win.height);
    expect(green).toBeLessThan(0.9 * win.width * win.height);
  });

  it('refuses a window that is not in whole pixels', () => {
    expect(() => drawYardWindow(syntheticYard(1), { ...FRAME, left: 0.5, top: 0, width: 10, height: 10 })).toThrow(
      RangeError,
    );
  });
});
