// Unit conversions for measured quantities. The international foot is exactly 0.3048 m (1959
// agreement; NIST SP 811 appendix B), so these are exact to the double: a square foot is
// 0.09290304 m², a square yard 9 ft², an acre 43,560 ft².

export const METERS_PER_FOOT = 0.3048;
export const SQUARE_METERS_PER_SQUARE_FOOT = METERS_PER_FOOT * METERS_PER_FOOT;
export const SQUARE_FEET_PER_SQUARE_YARD = 9;
export const SQUARE_FEET_PER_ACRE = 43_560;

export const squareFeet = (squareMeters: number) => squareMeters / SQUARE_METERS_PER_SQUARE_FOOT;
export const feet = (meters: number) => meters / METERS_PER_FOOT;

export type AreaUnit = 'sf' | 'sy' | 'sm' | 'acres';

/** An area given in square feet, in another unit. */
export function areaIn(sqft: number, unit: AreaUnit): number {
  switch (unit) {
    case 'sf':
      return sqft;
    case 'sy':
      return sqft / SQUARE_FEET_PER_SQUARE_YARD;
    case 'sm':
      return sqft * SQUARE_METERS_PER_SQUARE_FOOT;
    case 'acres':
      return sqft / SQUARE_FEET_PER_ACRE;
  }
}

/** A quantity as answered: rounded half away from zero to `places` decimals. */
export function rounded(value: number, places = 2): number {
  const f = 10 ** places;
  return (Math.sign(value) * Math.round(Math.abs(value) * f + Number.EPSILON * f)) / f;
}
