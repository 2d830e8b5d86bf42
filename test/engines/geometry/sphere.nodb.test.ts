// The geometry engine (engines/geometry): areas on the sphere by turf's Chamberlain–Duquette
// method, lengths by haversine, against hand-worked references, and the properties a takeoff
// relies on: area is the same whichever point a ring starts at and whichever way it winds; a hole
// subtracts exactly its own area; a point set read as [lat, lng] or as [lng, lat] then swapped
// measures the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  areaIn,
  feet,
  type LatLng,
  lineLengthM,
  openRing,
  pointInPolygon,
  polygonAreaM2,
  quantityOf,
  ringAreaM2,
  squareFeet,
  whyNot,
} from '#engines/geometry/index.ts';

/** The sphere turf measures on: the mean Earth radius (IUGG), 6,371,008.8 m. */
const R = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

describe('references', () => {
  it('a 1° × 1° cell at the equator is R² × Δλ × (sin φ2 − sin φ1)', () => {
    const cell: LatLng[] = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
    ];
    const exact = R * R * rad(1) * (Math.sin(rad(1)) - Math.sin(0));
    expect(ringAreaM2(cell)).toBeCloseTo(exact, -1);
  });

  it('a 100 m square lot at 40° N is 10,000 m², 107,639 sq ft, within 0.5%', () => {
    const dLat = 100 / ((Math.PI / 180) * R);
    const dLng = dLat / Math.cos(rad(40));
    const lot: LatLng[] = [
      [40, -83],
      [40, -83 + dLng],
      [40 + dLat, -83 + dLng],
      [40 + dLat, -83],
    ];
    expect(Math.abs(ringAreaM2(lot) - 10_000) / 10_000).toBeLessThan(0.005);
    expect(Math.abs(quantityOf({ type: 'polygon', rings: [lot] }) - 107_639.1) / 107_639).toBeLessThan(0.005);
  });

  it('a meridian line of 0.001° is R × 0.001 × π/180 m', () => {
    expect(
      lineLengthM([
        [40, -83],
        [40.001, -83],
      ]),
    ).toBeCloseTo(R * rad(0.001), 6);
    expect(feet(0.3048)).toBeCloseTo(1, 12);
  });

  it('units: an acre is 43,560 sq ft, a square yard 9, a square meter 10.7639', () => {
    expect(areaIn(43_560, 'acres')).toBe(1);
    expect(areaIn(90, 'sy')).toBe(10);
    expect(squareFeet(1)).toBeCloseTo(10.7639104, 6);
    expect(areaIn(10.7639104167, 'sm')).toBeCloseTo(1, 9);
  });

  it('refuses what is not a shape', () => {
    expect(whyNot({ type: 'line', points: [[1, 1]] })).toMatch(/2 or more/);
    expect(
      whyNot({
        type: 'polygon',
        rings: [
          [
            [0, 0],
            [0, 1],
            [0, 2],
          ],
        ],
      }),
    ).toMatch(/area/);
    expect(whyNot({ type: 'point', point: [91, 0] })).toMatch(/latitude/);
    expect(
      openRing([
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ]),
    ).toHaveLength(3);
  });
});

// Lots of 10 to 300 m a side somewhere in the continental US.
const lot = fc
  .record({
    lat: fc.double({ min: 25, max: 48, noNaN: true }),
    lng: fc.double({ min: -124, max: -67, noNaN: true }),
    w: fc.double({ min: 10, max: 300, noNaN: true }),
    h: fc.double({ min: 10, max: 300, noNaN: true }),
    jiggle: fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), { minLength: 8, maxLength: 8 }),
  })
  .map(({ lat, lng, w, h, jiggle }) => {
    const m = 1 / 111_320;
    const k = 1 / Math.cos(rad(lat));
    // A convex-ish quadrilateral: the corners of a w × h box moved by up to a fifth of a side.
    const corners: Array<[number, number]> = [
      [0, 0],
      [w, 0],
      [w, h],
      [0, h],
    ];
    return corners.map(
      ([x, y], i): LatLng => [lat + (y + jiggle[2 * i] * h) * m, lng + (x + jiggle[2 * i + 1] * w) * m * k],
    );
  });

describe('properties', () => {
  it('area does not depend on the starting point or the winding', () => {
    fc.assert(
      fc.property(lot, fc.integer({ min: 0, max: 3 }), (ring, shift) => {
        const a = ringAreaM2(ring);
        const rotated = [...ring.slice(shift), ...ring.slice(0, shift)];
        expect(ringAreaM2(rotated)).toBeCloseTo(a, 6);
        expect(ringAreaM2([...ring].reverse())).toBeCloseTo(a, 6);
      }),
    );
  });

  it('a hole subtracts exactly its own area', () => {
    fc.assert(
      fc.property(lot, fc.double({ min: 0.1, max: 0.6, noNaN: true }), (ring, f) => {
        const c: LatLng = [ring.reduce((t, p) => t + p[0], 0) / 4, ring.reduce((t, p) => t + p[1], 0) / 4];
        // The ring shrunk toward its centre lies inside it (the ring is star-shaped from c).
        const hole = ring.map(([la, ln]): LatLng => [c[0] + (la - c[0]) * f, c[1] + (ln - c[1]) * f]);
        expect(hole.every((p) => pointInPolygon(p, [ring]))).toBe(true);
        expect(polygonAreaM2([ring, hole])).toBeCloseTo(ringAreaM2(ring) - ringAreaM2(hole), 4);
      }),
    );
  });

  it('[lat, lng] and [lng, lat] swapped back measure the same', () => {
    fc.assert(
      fc.property(lot, (ring) => {
        const geo = ring.map(([la, ln]) => [ln, la] as [number, number]);
        const back = geo.map(([ln, la]): LatLng => [la, ln]);
        expect(quantityOf({ type: 'polygon', rings: [back] })).toBe(quantityOf({ type: 'polygon', rings: [ring] }));
        expect(quantityOf({ type: 'line', points: back })).toBe(quantityOf({ type: 'line', points: ring }));
      }),
    );
  });
});
