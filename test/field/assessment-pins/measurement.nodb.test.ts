// The pin measurement rules (src/modules/field/assessment-pins/measurement.ts), pure.
import { describe, expect, it } from 'vitest';
import { cubicYards, measure, round2, squareFeet } from '#field/assessment-pins/measurement.ts';

describe('formulas', () => {
  it('square feet are length × width; cubic yards are L × W × (depth_in / 12) / 27, both to two decimals half up', () => {
    expect(squareFeet(12.5, 8)).toBe(100);
    expect(squareFeet(3.33, 3.33)).toBe(11.09); // 11.0889
    expect(cubicYards(10, 10, 4)).toBe(1.23); // 400 / 324 = 1.2345…
    expect(cubicYards(27, 12, 12)).toBe(12); // 27 × 12 × 1 / 27
    expect(cubicYards(100, 50, 3)).toBe(46.3); // 15000 / 324 = 46.296…
    expect(round2(1.005)).toBe(1.01);
    expect(round2(2.675)).toBe(2.68);
    expect(round2(0.1 + 0.2)).toBe(0.3);
  });
});

describe('measure', () => {
  it('infers the type from the dimensions, then the unit, then the service', () => {
    expect(measure({ length_ft: 10, width_ft: 20 }, null)).toMatchObject({
      type: 'dimensions',
      value: 200,
      unit: 'SF',
      data: { length_ft: 10, width_ft: 20 },
    });
    expect(measure({ length_ft: 10, width_ft: 20, depth_in: 6 }, 'sqft')).toMatchObject({
      type: 'volume',
      value: 3.7, // 1200 / 324 = 3.703…
      unit: 'CY',
      data: { length_ft: 10, width_ft: 20, depth_in: 6, area_sqft: 200 },
    });
    expect(measure({ value: 40, unit: 'LF' }, null)).toMatchObject({ type: 'lf', value: 40, unit: 'LF' });
    expect(measure({ value: 3 }, 'count')).toMatchObject({ type: 'count', value: 3, unit: 'EA' });
    expect(measure({}, 'count')).toMatchObject({ type: 'count', value: 1, unit: 'EA' });
    expect(measure({}, 'sqft')).toMatchObject({ type: 'sqft', value: null, unit: 'SF' });
    expect(measure({}, null)).toEqual({
      type: 'none',
      value: null,
      unit: null,
      data: {},
      length_ft: null,
      width_ft: null,
      depth_in: null,
    });
  });

  it('computed values win over a sent value; sqft and lf use a sent value first', () => {
    expect(measure({ type: 'dimensions', value: 5, length_ft: 2, width_ft: 3 }, null).value).toBe(6);
    expect(measure({ type: 'sqft', value: 5, length_ft: 2, width_ft: 3 }, null).value).toBe(5);
    expect(measure({ type: 'sqft', length_ft: 2, width_ft: 3 }, null).value).toBe(6);
    expect(measure({ type: 'lf', length_ft: 42.5 }, null).value).toBe(42.5);
    expect(measure({ type: 'none', value: 9 }, null).value).toBeNull();
    expect(measure({ type: 'count', data: { note: 'x' } }, null).data).toEqual({ note: 'x' });
  });

  it('refuses a unit that is not the type’s', () => {
    expect(() => measure({ type: 'sqft', unit: 'CY' }, null)).toThrow(
      'measurement_unit must be SF for a sqft measurement',
    );
    expect(() => measure({ type: 'none', unit: 'EA' }, null)).toThrow('measurement_unit must be empty');
  });
});
