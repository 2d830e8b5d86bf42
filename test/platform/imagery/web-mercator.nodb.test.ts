// Web Mercator tile math against published values (@mapbox/tilebelt's tests; the OpenStreetMap
// wiki's "Zoom levels" table) and properties (round trips, orientation).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromPixel,
  MAX_LATITUDE,
  metersPerPixel,
  tileOf,
  TILE_PX,
  toPixel,
  worldPx,
} from '#platform/imagery/web-mercator.ts';

describe('web mercator', () => {
  it('puts the corners and the centre of the world where the tile scheme does', () => {
    expect(toPixel(0, 0, 0)).toEqual({ x: 128, y: 128 });
    const nw = toPixel(MAX_LATITUDE, -180, 3);
    expect(nw.x).toBe(0);
    expect(nw.y).toBeCloseTo(0, 6);
    const se = toPixel(-MAX_LATITUDE, 180, 3);
    expect(se.x).toBe(worldPx(3));
    expect(se.y).toBeCloseTo(worldPx(3), 6);
    expect(MAX_LATITUDE).toBeCloseTo(85.0511287798, 9);
  });

  it('agrees with the published test values of @mapbox/tilebelt', () => {
    // From mapbox/tilebelt test/index.test.ts (MIT): pointToTile, pointToTileFraction, tileToBBOX.
    const dc = toPixel(38.91326516559442, -77.03239381313323, 10);
    expect(tileOf(dc.x, dc.y)).toEqual({ x: 292, y: 391 });
    const centre = toPixel(0, 0, 10);
    expect(tileOf(centre.x, centre.y)).toEqual({ x: 512, y: 512 });
    const omaha = toPixel(41.26000108568697, -95.93965530395508, 9);
    expect(omaha.x / TILE_PX).toBeCloseTo(119.552490234375, 9);
    expect(omaha.y / TILE_PX).toBeCloseTo(191.47119140625, 9);
    // Tile 5/10 at zoom 10: its north-west and south-east corners.
    const nw = fromPixel(5 * TILE_PX, 10 * TILE_PX, 10);
    expect(nw.lng).toBeCloseTo(-178.2421875, 10);
    expect(nw.lat).toBeCloseTo(84.73838712095339, 10);
    const se = fromPixel(6 * TILE_PX, 11 * TILE_PX, 10);
    expect(se.lng).toBeCloseTo(-177.890625, 10);
    expect(se.lat).toBeCloseTo(84.7060489350415, 10);
  });

  it('gives meters per pixel as 156543.03392 × cos(lat) ÷ 2^z', () => {
    expect(metersPerPixel(0, 0)).toBeCloseTo(156543.03392, 5);
    // The wiki's "Zoom levels" table: 0.1493 m at zoom 20 on the equator, half that at 60°.
    expect(metersPerPixel(0, 20)).toBeCloseTo(0.149291, 5);
    expect(metersPerPixel(60, 20)).toBeCloseTo(0.0746455, 6);
    expect(metersPerPixel(60, 20) / metersPerPixel(0, 20)).toBeCloseTo(0.5, 12);
  });

  it('round-trips a point through pixels at every zoom (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.integer({ min: 0, max: 22 }),
        (lat, lng, z) => {
          const p = toPixel(lat, lng, z);
          const back = fromPixel(p.x, p.y, z);
          expect(back.lat).toBeCloseTo(lat, 9);
          expect(back.lng).toBeCloseTo(lng, 9);
          expect(p.x).toBeGreaterThanOrEqual(0);
          expect(p.x).toBeLessThanOrEqual(worldPx(z));
        },
      ),
    );
  });

  it('keeps north up and east right: y falls as latitude rises, x rises with longitude (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -84, max: 84, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: 1e-6, max: 1, noNaN: true }),
        (lat, lng, d) => {
          const p = toPixel(lat, lng, 18);
          expect(toPixel(lat + d, lng, 18).y).toBeLessThan(p.y);
          expect(toPixel(lat, lng + d, 18).x).toBeGreaterThan(p.x);
        },
      ),
    );
  });

  it('numbers tiles by whole 256 px steps', () => {
    expect(TILE_PX).toBe(256);
    expect(tileOf(255.9, 256)).toEqual({ x: 0, y: 1 });
    expect(tileOf(512, 767.5)).toEqual({ x: 2, y: 2 });
  });
});
