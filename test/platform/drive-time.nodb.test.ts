// Great-circle distance and the drive-time estimate: reference values and properties.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimateDriveHours, greatCircleKm } from '#platform/drive-time.ts';
import type { GeoPoint } from '#platform/geocoding.ts';

const p = (lat: number, lng: number): GeoPoint => ({ lat, lng });
const pointArb = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('greatCircleKm', () => {
  it('one degree of latitude is about 111.2 km', () => {
    expect(greatCircleKm(p(0, 0), p(1, 0))).toBeCloseTo(111.195, 3);
    expect(greatCircleKm(p(45, -93), p(46, -93))).toBeCloseTo(111.195, 3);
  });

  it('half the equator is π R', () => {
    expect(greatCircleKm(p(0, 0), p(0, 180))).toBeCloseTo(Math.PI * 6371.0088, 6);
    expect(greatCircleKm(p(90, 0), p(-90, 0))).toBeCloseTo(Math.PI * 6371.0088, 6);
  });

  it('LAX to JFK is within 0.5% of the published 2144 nm', () => {
    // Ed Williams' Aviation Formulary worked example: LAX (33°57'N 118°24'W) to JFK (40°38'N 73°47'W).
    const km = greatCircleKm(p(33 + 57 / 60, -(118 + 24 / 60)), p(40 + 38 / 60, -(73 + 47 / 60)));
    const published = 2144 * 1.852;
    expect(Math.abs(km - published) / published).toBeLessThan(0.005);
  });

  it('is zero for the same point and across the antimeridian it takes the short way', () => {
    expect(greatCircleKm(p(39.78, -89.65), p(39.78, -89.65))).toBe(0);
    expect(greatCircleKm(p(0, 179.5), p(0, -179.5))).toBeCloseTo(111.195, 3);
  });

  it('refuses coordinates that are not coordinates', () => {
    expect(() => greatCircleKm(p(Number.NaN, 0), p(0, 0))).toThrow(RangeError);
    expect(() => greatCircleKm(p(0, 0), p(91, 0))).toThrow(RangeError);
    expect(() => greatCircleKm(p(0, Infinity), p(0, 0))).toThrow(RangeError);
  });

  it('property: symmetric, non-negative, at most half the circumference', () => {
    fc.assert(
      fc.property(pointArb, pointArb, (a, b) => {
        const d = greatCircleKm(a, b);
        expect(greatCircleKm(b, a)).toBe(d);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.PI * 6371.0088 + 1e-9);
      }),
    );
  });

  it('property: triangle inequality', () => {
    // 1 m of slack: haversine loses precision near antipodal points (about R·√ε ≈ 0.1 m).
    fc.assert(
      fc.property(pointArb, pointArb, pointArb, (a, b, c) => {
        expect(greatCircleKm(a, c)).toBeLessThanOrEqual(greatCircleKm(a, b) + greatCircleKm(b, c) + 1e-3);
      }),
    );
  });
});

describe('estimateDriveHours', () => {
  it('is km × 1.3 ÷ 56 by default, rounded to 2 decimals', () => {
    // 111.195 km × 1.3 / 56 = 2.5813 h
    expect(estimateDriveHours(p(0, 0), p(1, 0))).toBe(2.58);
    // 111.195 km / 100 km/h = 1.11195 h
    expect(estimateDriveHours(p(0, 0), p(1, 0), { roadFactor: 1, speedKmh: 100 })).toBe(1.11);
    // 111.195 × 1.5 / 50 = 3.33585 h rounds up
    expect(estimateDriveHours(p(0, 0), p(1, 0), { roadFactor: 1.5, speedKmh: 50 })).toBe(3.34);
  });

  it('is 0 for the same point', () => {
    expect(estimateDriveHours(p(39.78, -89.65), p(39.78, -89.65))).toBe(0);
  });

  it('is at least 0.05 h (3 minutes) for two distinct points', () => {
    // 111 m apart: 0.0026 h before the floor
    expect(estimateDriveHours(p(0, 0), p(0.001, 0))).toBe(0.05);
    expect(estimateDriveHours(p(0, 0), p(1e-9, 0))).toBe(0.05);
    // 3 km: 0.0696 h, above the floor
    expect(estimateDriveHours(p(0, 0), p(0.027, 0))).toBe(0.07);
  });

  it('refuses a speed or road factor that is not positive', () => {
    expect(() => estimateDriveHours(p(0, 0), p(1, 0), { speedKmh: 0 })).toThrow(RangeError);
    expect(() => estimateDriveHours(p(0, 0), p(1, 0), { roadFactor: -1 })).toThrow(RangeError);
    expect(() => estimateDriveHours(p(0, 0), p(1, 0), { speedKmh: Number.NaN })).toThrow(RangeError);
  });

  it('property: symmetric, in hundredths, the floor or within half a hundredth of the formula', () => {
    fc.assert(
      fc.property(pointArb, pointArb, (a, b) => {
        const h = estimateDriveHours(a, b);
        expect(estimateDriveHours(b, a)).toBe(h);
        expect(Math.round(h * 100) / 100).toBe(h);
        const raw = (greatCircleKm(a, b) * 1.3) / 56;
        if (raw === 0) expect(h).toBe(0);
        else expect(h === 0.05 || Math.abs(h - raw) <= 0.005 + 1e-9).toBe(true);
        expect(h === 0 || h >= 0.05).toBe(true);
      }),
    );
  });
});
