// ASTM D6433 corrected-deduct-value curves, as digitized points: the corrected deduct value (CDV)
// at each total deduct value (TDV) for q deducts over 2.0. Figures from the
// `brandnewbox/pavement_condition_index` repository (MIT, © 2017 Andy Monroe),
// lib/pavement_condition_index/lookups/observed_corrected_deduct_values.rb, keeping only the curves
// read off the standard's charts (asphalt q = 1 to 7; concrete q = 1, 2, 3, 4, 6 and 9). Their
// estimated curves (asphalt q 8 to 10, concrete q 5, 7, 8, 10) are not used; docs/condition.md says
// what happens instead.

export interface CorrectedDeductCurves {
  /** Total deduct values at which the curves were read. */
  tdv: number[];
  /** q → CDV at each tdv. */
  q: Record<number, number[]>;
}

const TDV = [30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200];

export const ASPHALT_CDV_CURVES: CorrectedDeductCurves = {
  tdv: TDV,
  q: {
    1: [30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200],
    2: [21.9, 29.3, 36.9, 43.7, 50.4, 57.4, 63.7, 69.8, 75.4, 80.7, 85.6, 90.0, 93.9, 97.6, 101.3, 104.3, 106.7, 108.9],
    3: [16.7, 24.3, 31.1, 37.8, 44.8, 50.7, 56.9, 63.0, 68.3, 73.1, 78.3, 83.3, 88.0, 92.0, 96.3, 99.8, 103.0, 105.0],
    4: [12.4, 19.3, 26.3, 33.0, 39.4, 45.6, 51.1, 56.7, 62.4, 67.8, 73.1, 78.5, 82.8, 86.9, 90.4, 93.3, 95.9, 98.1],
    5: [9.3, 16.3, 22.8, 28.9, 35.2, 40.9, 46.7, 51.9, 57.0, 62.4, 67.2, 72.2, 76.7, 80.9, 84.8, 88.1, 91.1, 93.3],
    6: [6.1, 13.1, 19.8, 25.6, 31.7, 37.6, 43.0, 48.1, 53.3, 58.7, 63.1, 68.0, 72.8, 77.2, 81.3, 84.6, 87.6, 90.2],
    7: [6.1, 13.1, 19.8, 25.6, 31.7, 37.6, 43.0, 48.1, 53.3, 58.7, 63.1, 67.4, 71.3, 74.8, 77.2, 79.4, 81.1, 82.2],
  },
};

export const CONCRETE_CDV_CURVES: CorrectedDeductCurves = {
  tdv: TDV,
  q: {
    1: [30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200],
    2: [24.8, 32.2, 39.1, 45.9, 51.7, 57.4, 63.3, 69.1, 75.0, 80.2, 85.7, 90.6, 95.2, 99.8, 104.1, 108.1, 111.7, 114.6],
    3: [18.7, 25.7, 32.0, 38.1, 44.4, 50.7, 56.5, 62.0, 67.4, 72.4, 77.6, 82.8, 88.0, 92.8, 97.4, 101.7, 105.6, 108.5],
    4: [16.7, 23.0, 28.5, 34.6, 40.4, 46.1, 51.3, 56.9, 62.0, 67.2, 71.7, 76.7, 80.9, 85.2, 89.6, 93.5, 97.6, 101.7],
    6: [12.4, 18.0, 23.7, 29.4, 34.8, 40.4, 46.1, 51.3, 56.3, 61.1, 65.9, 70.4, 74.8, 79.1, 82.8, 86.7, 90.4, 93.1],
    9: [8.0, 14.3, 20.0, 25.4, 30.4, 34.8, 39.3, 44.1, 49.1, 53.5, 57.8, 62.8, 66.7, 70.9, 74.8, 78.7, 82.0, 85.7],
  },
};
