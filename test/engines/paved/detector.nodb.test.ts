// The built-in paved-surface detector held to stated tolerances on generated lots whose truth is
// known (docs/measurement-detector.md, "Tolerances"). Seeds 1–8 here; the doc's figures use 1000 on.
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  type AccuracyReport,
  foundAreaM2,
  foundLineLengthM,
  measureAccuracy,
  ringAreaPx,
} from '#engines/paved/accuracy.ts';
import { detectPaved, type PavedFindings } from '#engines/paved/index.ts';
import { polygonArea, syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { drawLot, drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';
import { mercatorMetersPerPixel, metersToGlobalPixel } from '#engines/paved/lot-geo.ts';

/** Zoom 20 at about 35° latitude. */
const MPP = 0.12;
let report: AccuracyReport;

beforeAll(async () => {
  report = await measureAccuracy({ lots: 8, seed: 1, metersPerPixel: MPP });
});

describe('paved-surface detector: generated lots within the stated tolerances', () => {
  it('paved area within ±5% of the truth on every lot', () => {
    for (const l of report.lots) expect(Math.abs(l.areaErrorPct), `lot ${l.seed}`).toBeLessThanOrEqual(5);
  });

  it('painted line length within ±10% per colour on every lot', () => {
    let checked = 0;
    for (const l of report.lots)
      for (const c of ['white', 'yellow'] as const) {
        const e = l.lineErrorPct[c];
        if (e === null) {
          expect(l.lineLengthM[c], `lot ${l.seed} ${c} found where none was drawn`).toBeLessThan(1);
          continue;
        }
        checked++;
        expect(Math.abs(e), `lot ${l.seed} ${c}`).toBeLessThanOrEqual(10);
      }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('stalls where they are: precision and recall of stall centres (within 1 m) at least 98%', () => {
    expect(report.stallPrecision).toBeGreaterThanOrEqual(0.98);
    expect(report.stallRecall).toBeGreaterThanOrEqual(0.98);
  });

  it('stall count within ±5% on every lot, and the surface type told right', () => {
    for (const l of report.lots) {
      expect(Math.abs(l.stallError), `lot ${l.seed}`).toBeLessThanOrEqual(Math.ceil(0.05 * l.truth.stalls));
      expect(l.surfaceRight, `lot ${l.seed}`).toBe(true);
    }
  });
});

describe('paved-surface detector: what it returns', () => {
  it('a lot with a building and trees: the building is a hole, the area within ±5%', async () => {
    for (const seed of [21, 22]) {
      const scene = syntheticLot(seed, { building: true, trees: 5 });
      const drawn = drawLot(scene, MPP);
      const found = await detectPaved(drawn.pixels, { metersPerPixel: MPP });
      const area = foundAreaM2(found, MPP);
      expect(Math.abs(area - scene.truth.pavedM2) / scene.truth.pavedM2).toBeLessThanOrEqual(0.05);
      const building = scene.building?.outline ?? [];
      const buildingM2 = polygonArea(building);
      const c = drawn.toPixel([
        building.reduce((a, p) => a + p[0], 0) / building.length,
        building.reduce((a, p) => a + p[1], 0) / building.length,
      ]);
      // The hole that holds the building's centre has the building's area (±5%).
      const holes = found.surfaces.flatMap((s) => s.rings.slice(1)).filter((r) => contains(r, c));
      expect(holes).toHaveLength(1);
      expect(Math.abs(ringAreaPx(holes[0]) * MPP * MPP - buildingM2) / buildingM2).toBeLessThanOrEqual(0.05);
      expect(scene.trees.length).toBeGreaterThan(0);
    }
  });

  it('rings: outline first, open, in pixel coordinates inside the image; lines of 2+ points; stalls between lines', async () => {
    const scene = syntheticLot(5);
    const { pixels } = drawLot(scene, MPP);
    const found = await detectPaved(pixels, { metersPerPixel: MPP });
    expect(found.surfaces.length).toBeGreaterThan(0);
    for (const s of found.surfaces) {
      for (const r of s.rings) {
        expect(r.length).toBeGreaterThanOrEqual(3);
        expect(r[0]).not.toEqual(r[r.length - 1]);
        for (const [x, y] of r) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(pixels.width);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(pixels.height);
        }
      }
      for (const hole of s.rings.slice(1)) expect(ringAreaPx(hole)).toBeLessThan(ringAreaPx(s.rings[0]));
    }
    for (const l of found.lines) expect(l.points.length).toBeGreaterThanOrEqual(2);
    expect(found.stalls.length).toBe(scene.truth.stalls);
    for (const st of found.stalls) expect(found.surfaces.some((s) => contains(s.rings[0], st.point))).toBe(true);
  });

  it('JPEG (quality 80, as tile servers send): area ±5%, line length ±10%, stalls ±5%', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const scene = syntheticLot(seed);
      const { pixels } = drawLot(scene, MPP);
      const { width, height } = pixels;
      const jpeg = await sharp(Buffer.from(pixels.data), { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer();
      const data = new Uint8Array(await sharp(jpeg).raw().toBuffer());
      const found = await detectPaved({ width, height, channels: 3, data }, { metersPerPixel: MPP });
      const t = scene.truth;
      expect(Math.abs(foundAreaM2(found, MPP) - t.pavedM2) / t.pavedM2, `lot ${seed} area`).toBeLessThanOrEqual(0.05);
      const length = foundLineLengthM(found, MPP);
      for (const c of ['white', 'yellow'] as const)
        if (t.lineLengthM[c] > 0)
          expect(Math.abs(length[c] - t.lineLengthM[c]) / t.lineLengthM[c], `lot ${seed} ${c}`).toBeLessThanOrEqual(
            0.1,
          );
      expect(Math.abs(found.stalls.length - t.stalls), `lot ${seed} stalls`).toBeLessThanOrEqual(
        Math.ceil(0.05 * t.stalls),
      );
    }
  });

  it('RGBA gives what RGB gives', async () => {
    const { pixels } = drawLot(syntheticLot(2), 0.2);
    const rgba = new Uint8Array(pixels.width * pixels.height * 4);
    for (let i = 0; i < pixels.width * pixels.height; i++) {
      rgba.set(pixels.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    const a = await detectPaved(pixels, { metersPerPixel: 0.2 });
    const b = await detectPaved({ ...pixels, channels: 4, data: rgba }, { metersPerPixel: 0.2 });
    expect(b).toEqual(a);
  });

  it('grass only: nothing found', async () => {
    // A window 2 km east of the lot.
    const frame = { originLat: 35.2, originLng: -97.4, zoom: 20 };
    const [x, y] = metersToGlobalPixel(frame, [2000, 0]);
    const pixels = drawLotWindow(syntheticLot(3), {
      ...frame,
      left: Math.round(x),
      top: Math.round(y),
      width: 400,
      height: 300,
    });
    const found: PavedFindings = await detectPaved(pixels, { metersPerPixel: mercatorMetersPerPixel(frame) });
    expect(found).toEqual({ surfaces: [], lines: [], stalls: [] });
  });

  it('refuses bad input', async () => {
    const ok = { width: 2, height: 2, channels: 3 as const, data: new Uint8Array(12) };
    await expect(detectPaved({ ...ok, data: new Uint8Array(11) }, { metersPerPixel: 0.1 })).rejects.toThrow(RangeError);
    await expect(detectPaved({ ...ok, width: 0 }, { metersPerPixel: 0.1 })).rejects.toThrow(RangeError);
    await expect(detectPaved(ok, { metersPerPixel: 0 })).rejects.toThrow(RangeError);
  });
});

/** Even-odd point in ring. */
function contains(ring: [number, number][], [x, y]: [number, number]): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}
