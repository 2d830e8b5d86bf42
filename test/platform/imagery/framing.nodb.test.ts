// Framing a place (framing.ts) as properties over random polygons and points: the outline always
// sits inside the image at least the margin from each edge, the default zoom is the finest up to
// 20 that fits FIT_PX, and the reported centre, bounds and meters per pixel agree with the window.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ZOOM,
  FIT_PX,
  frameOf,
  MIN_MARGIN_M,
  MIN_ZOOM,
  POINT_SQUARE_M,
} from '#platform/imagery/framing.ts';
import { ImageryPlaceRefused, type LatLng } from '#platform/imagery/imagery.ts';
import { metersPerPixel, toPixel } from '#platform/imagery/web-mercator.ts';

/** A polygon of `n` points on a circle of `radius` meters around (lat, lng), turned by `turn`. */
function ring(lat: number, lng: number, radius: number, n: number, turn: number): { polygon: LatLng[] } {
  const polygon: LatLng[] = [];
  for (let i = 0; i < n; i++) {
    const a = turn + (2 * Math.PI * i) / n;
    polygon.push([
      lat + (radius * Math.sin(a)) / 111_320,
      lng + (radius * Math.cos(a)) / (111_320 * Math.cos((lat * Math.PI) / 180)),
    ]);
  }
  return { polygon };
}

const polygons = fc
  .record({
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    lng: fc.double({ min: -179, max: 179, noNaN: true }),
    radius: fc.double({ min: 3, max: 1500, noNaN: true }),
    n: fc.integer({ min: 3, max: 9 }),
    turn: fc.double({ min: 0, max: 6.3, noNaN: true }),
  })
  .map(({ lat, lng, radius, n, turn }) => ring(lat, lng, radius, n, turn));

describe('framing', () => {
  it('keeps the whole outline inside the image, at least the margin from every edge (property)', () => {
    fc.assert(
      fc.property(polygons, (place) => {
        const frame = frameOf(place);
        const margin = MIN_MARGIN_M / frame.metersPerPixel;
        for (const [x, y] of frame.outline!) {
          expect(x).toBeGreaterThanOrEqual(margin * 0.99);
          expect(y).toBeGreaterThanOrEqual(margin * 0.99);
          expect(frame.width - x).toBeGreaterThanOrEqual(margin * 0.99);
          expect(frame.height - y).toBeGreaterThanOrEqual(margin * 0.99);
        }
      }),
    );
  });

  it('picks the finest zoom up to 20 whose image fits FIT_PX (property)', () => {
    fc.assert(
      fc.property(polygons, (place) => {
        const frame = frameOf(place);
        expect(frame.zoom).toBeGreaterThanOrEqual(MIN_ZOOM);
        expect(frame.zoom).toBeLessThanOrEqual(DEFAULT_MAX_ZOOM);
        if (frame.zoom > MIN_ZOOM) expect(Math.max(frame.width, frame.height)).toBeLessThanOrEqual(FIT_PX);
        if (frame.zoom < DEFAULT_MAX_ZOOM) {
          // One zoom finer does not fit: over FIT_PX, or over MAX_PX and refused.
          const finer = (() => {
            try {
              const f = frameOf(place, frame.zoom + 1);
              return Math.max(f.width, f.height);
            } catch (err) {
              expect(err).toBeInstanceOf(ImageryPlaceRefused);
              return Number.POSITIVE_INFINITY;
            }
          })();
          expect(finer).toBeGreaterThan(FIT_PX);
        }
      }),
    );
  });

  it('reports the centre, bounds and scale of the window it cut (property)', () => {
    fc.assert(
      fc.property(polygons, fc.integer({ min: 16, max: 21 }), (place, zoom) => {
        let frame: ReturnType<typeof frameOf>;
        try {
          frame = frameOf(place, zoom);
        } catch {
          return; // too large for that zoom: refused, tested elsewhere
        }
        const nw = toPixel(frame.bounds.north, frame.bounds.west, zoom);
        const se = toPixel(frame.bounds.south, frame.bounds.east, zoom);
        expect(nw.x).toBeCloseTo(frame.left, 4);
        expect(nw.y).toBeCloseTo(frame.top, 4);
        expect(se.x - nw.x).toBeCloseTo(frame.width, 4);
        expect(se.y - nw.y).toBeCloseTo(frame.height, 4);
        const centre = toPixel(frame.lat, frame.lng, zoom);
        expect(centre.x).toBeCloseTo(frame.left + frame.width / 2, 4);
        expect(centre.y).toBeCloseTo(frame.top + frame.height / 2, 4);
        expect(frame.metersPerPixel).toBe(metersPerPixel(frame.lat, zoom));
      }),
    );
  });

  it('frames a point in a POINT_SQUARE_M square at zoom 20', () => {
    for (const lat of [0, 35, 60, -45]) {
      const frame = frameOf({ point: { lat, lng: 20 } });
      expect(frame.zoom).toBe(20);
      expect(frame.outline).toBeNull();
      // Rounded out to whole pixels: up to two pixels more than the square.
      expect(frame.width * frame.metersPerPixel).toBeGreaterThanOrEqual(POINT_SQUARE_M - 0.01);
      expect((frame.width - 2) * frame.metersPerPixel).toBeLessThanOrEqual(POINT_SQUARE_M + 0.01);
      expect(Math.abs(frame.width - frame.height)).toBeLessThanOrEqual(1);
    }
  });
});
