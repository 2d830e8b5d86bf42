// The synthetic lot generator and its rasterizer (docs/measurement-detector.md, "Synthetic lots"):
// seeded scenes with consistent truth, the Web Mercator conversion against its published constants,
// and the property the tile-server tests rely on: a window drawn at once equals the same window cut
// from stitched 256-px tiles, pixel for pixel.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  latLngToGlobalPixel,
  mercatorMetersPerPixel,
  metersToGlobalPixel,
  metersToLatLng,
} from '#engines/paved/lot-geo.ts';
import { polygonArea, syntheticLot } from '#engines/paved/synthetic-lot.ts';
import { drawLot, drawLotWindow } from '#engines/paved/synthetic-lot-draw.ts';

const FRAME = { originLat: 35.2, originLng: -97.4, zoom: 20 };

describe('synthetic lots', () => {
  it('the same seed gives the same scene and pixels; another seed another', () => {
    const a = syntheticLot(3);
    expect(syntheticLot(3)).toEqual(a);
    expect(syntheticLot(4).lot).not.toEqual(a.lot);
    expect(
      Buffer.from(drawLot(a, 0.2).pixels.data).equals(Buffer.from(drawLot(syntheticLot(3), 0.2).pixels.data)),
    ).toBe(true);
  });

  it('truth: paved = lot − building; stalls = lines − 1 per row; lengths per colour add up', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const s = syntheticLot(seed);
      const building = s.building ? polygonArea(s.building.outline) : 0;
      expect(s.truth.pavedM2).toBeCloseTo(polygonArea(s.lot) - building, 6);
      expect(s.truth.canopyOverPavementM2).toBeGreaterThanOrEqual(0);
      expect(s.truth.canopyOverPavementM2).toBeLessThan(0.05 * s.truth.pavedM2);
      const stallLines = s.paint.filter((p) => p.kind === 'stall');
      expect(s.truth.stalls).toBeGreaterThan(0);
      expect(s.truth.stalls).toBeLessThan(stallLines.length);
      expect(s.truth.stallPoints).toHaveLength(s.truth.stalls);
      for (const p of stallLines) {
        const len = Math.hypot(p.to[0] - p.from[0], p.to[1] - p.from[1]);
        expect(len).toBeGreaterThanOrEqual(4.5 - 1e-9);
        expect(len).toBeLessThanOrEqual(5.5 + 1e-9);
      }
      const sum = s.paint.reduce((a, p) => a + Math.hypot(p.to[0] - p.from[0], p.to[1] - p.from[1]), 0);
      expect(s.truth.lineLengthM.white + s.truth.lineLengthM.yellow).toBeCloseTo(sum, 6);
    }
  });

  it('options: a building, no trees, a concrete pad', () => {
    const s = syntheticLot(7, { building: true, trees: 0, surface: 'concrete' });
    expect(s.building).not.toBeNull();
    expect(s.trees).toHaveLength(0);
    expect(s.surface).toBe('concrete');
    expect(s.truth.canopyOverPavementM2).toBe(0);
  });
});

describe('meters to Web Mercator global pixels', () => {
  it('matches the published constants: 156,543.03392 m per pixel at zoom 0 on the equator; the world is 256·2^z', () => {
    expect(mercatorMetersPerPixel({ originLat: 0, originLng: 0, zoom: 0 })).toBeCloseTo(156543.03392, 3);
    expect(latLngToGlobalPixel(0, 0, 0)).toEqual([128, 128]);
    const [x, y] = latLngToGlobalPixel(20, 0, 180);
    expect(x).toBe(256 * 2 ** 20);
    expect(y).toBeCloseTo(128 * 2 ** 20, 6);
  });

  it('an offset of d meters is d ÷ metersPerPixel pixels, east right and north up (within 0.1%)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.integer({ min: 15, max: 21 }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        (lat, lng, zoom, east, north) => {
          fc.pre(Math.hypot(east, north) > 1);
          const frame = { originLat: lat, originLng: lng, zoom };
          const mpp = mercatorMetersPerPixel(frame);
          const [x0, y0] = metersToGlobalPixel(frame, [0, 0]);
          const [x1, y1] = metersToGlobalPixel(frame, [east, north]);
          if (Math.abs(east) > 0.5) expect(Math.sign(x1 - x0)).toBe(Math.sign(east));
          if (Math.abs(north) > 0.5) expect(Math.sign(y0 - y1)).toBe(Math.sign(north));
          const px = Math.hypot(x1 - x0, y1 - y0);
          expect(Math.abs(px * mpp - Math.hypot(east, north)) / Math.hypot(east, north)).toBeLessThan(1e-3);
          const [la, ln] = metersToLatLng(frame, [east, north]);
          expect(Math.abs(la - lat)).toBeLessThan(0.003);
          expect(Math.abs(ln - lng)).toBeLessThan(0.01);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('drawing a window of the scene', () => {
  it('a window drawn at once equals the same window cut from stitched 256-px tiles', () => {
    const scene = syntheticLot(11, { building: true });
    const [ox, oy] = latLngToGlobalPixel(FRAME.zoom, FRAME.originLat, FRAME.originLng);
    // Not aligned to tiles on purpose.
    const win = { ...FRAME, left: Math.floor(ox) - 333, top: Math.floor(oy) - 271, width: 700, height: 560 };
    const whole = drawLotWindow(scene, win).data;
    const tx0 = Math.floor(win.left / 256);
    const ty0 = Math.floor(win.top / 256);
    const tx1 = Math.floor((win.left + win.width - 1) / 256);
    const ty1 = Math.floor((win.top + win.height - 1) / 256);
    const cut = new Uint8Array(win.width * win.height * 3);
    for (let ty = ty0; ty <= ty1; ty++)
      for (let tx = tx0; tx <= tx1; tx++) {
        const tile = drawLotWindow(scene, { ...FRAME, left: tx * 256, top: ty * 256, width: 256, height: 256 });
        expect(tile.width).toBe(256);
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
    // And the window shows the lot: grey pavement at the origin, green grass in a corner.
    const at = (x: number, y: number) => Array.from(whole.slice((y * win.width + x) * 3, (y * win.width + x) * 3 + 3));
    const centre = at(333, 271);
    expect(Math.max(...centre) - Math.min(...centre)).toBeLessThan(40);
    const corner = at(2, 2);
    expect(corner[1]).toBeGreaterThan(corner[0]);
  });

  it('refuses a window that is not in whole pixels', () => {
    expect(() => drawLotWindow(syntheticLot(1), { ...FRAME, left: 0.5, top: 0, width: 10, height: 10 })).toThrow(
      RangeError,
    );
  });
});
