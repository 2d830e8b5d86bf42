// ASTM D6433 jointed-concrete deduct curves, as digitized points: deduct value at each density
// (% of slabs) on the chart's linear axis, for the slab distresses the concrete visual estimate
// uses. Figures from the `brandnewbox/pavement_condition_index` repository (MIT, © 2017 Andy
// Monroe), lib/pavement_condition_index/lookups/observed_deduct_values.rb (their
// patching_large_and_utility_cuts is our patching_large, scaling_map_cracking_crazing our scaling).
// Kept verbatim; how they are read is in curves.ts and docs/condition.md.
import type { DeductCurveSet } from './curves.ts';

const X = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

export const CONCRETE_DEDUCT_CURVES: DeductCurveSet = {
  corner_break: {
    x: X,
    low: [0.0, 8.7, 17.0, 24.8, 31.5, 36.9, 41.7, 45.2, 47.4, 49.3, 50.6],
    medium: [0.0, 15.6, 28.5, 38.9, 46.7, 52.8, 56.3, 58.9, 60.7, 62.4, 64.1],
    high: [0.0, 24.6, 40.9, 52.2, 60.2, 67.0, 71.9, 75.2, 76.7, 78.5, 79.4],
  },
  divided_slab: {
    x: X,
    low: [0.0, 9.6, 18.9, 27.2, 33.9, 38.9, 43.3, 46.5, 48.3, 49.8, 50.2],
    medium: [0.0, 20.7, 34.4, 43.7, 50.7, 56.9, 62.0, 66.5, 70.0, 73.0, 75.4],
    high: [0.0, 31.7, 50.4, 61.7, 68.7, 74.6, 79.1, 82.8, 86.1, 89.1, 92.2],
  },
  durability_cracking: {
    x: X,
    low: [0.0, 3.5, 7.0, 9.8, 12.8, 15.7, 18.1, 20.2, 21.5, 22.2, 22.2],
    medium: [0.0, 9.8, 18.0, 24.4, 29.6, 33.9, 37.0, 38.9, 40.9, 42.4, 43.5],
    high: [0.0, 23.0, 38.5, 48.5, 55.4, 60.0, 63.1, 65.6, 67.4, 68.9, 70.0],
  },
  faulting: {
    x: X,
    low: [0.0, 2.0, 6.9, 13.3, 18.9, 21.5, 24.1, 25.9, 27.4, 28.9, 30.0],
    medium: [0.0, 8.0, 15.7, 23.7, 32.2, 39.4, 44.8, 48.5, 50.9, 52.8, 53.9],
    high: [0.0, 15.6, 29.3, 40.4, 50.7, 60.4, 68.1, 73.9, 78.1, 81.3, 83.1],
  },
  // The standard rates joint seal damage once for the whole sample unit, by severity, not by density.
  joint_seal_damage: {
    x: X,
    low: [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
    medium: [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0],
    high: [8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0],
  },
  linear_cracking: {
    x: X,
    low: [0.0, 5.6, 10.4, 14.6, 17.4, 19.8, 21.1, 22.2, 23.0, 23.3, 23.5],
    medium: [0.0, 8.1, 14.8, 20.0, 24.1, 27.2, 29.8, 32.2, 34.8, 36.9, 38.5],
    high: [0.0, 18.9, 29.6, 36.1, 41.1, 45.9, 50.0, 54.1, 57.6, 61.3, 65.4],
  },
  patching_large: {
    x: X,
    low: [0.0, 2.0, 6.7, 11.7, 15.6, 18.7, 21.3, 23.5, 25.4, 26.9, 28.1],
    medium: [0.0, 5.6, 12.4, 20.0, 27.6, 33.3, 37.6, 41.1, 44.1, 46.9, 48.7],
    high: [0.0, 16.3, 29.1, 38.9, 46.7, 52.6, 57.6, 62.0, 65.9, 69.4, 72.6],
  },
  patching_small: {
    x: X,
    low: [0.0, 0.0, 0.9, 2.0, 3.0, 3.5, 3.7, 4.1, 4.3, 4.3, 4.3],
    medium: [0.0, 2.2, 4.4, 7.0, 9.4, 11.9, 13.7, 15.0, 15.4, 15.9, 15.7],
    high: [0.0, 4.8, 9.1, 12.8, 16.1, 18.5, 21.3, 23.5, 24.8, 25.2, 25.4],
  },
  // Rated without severity levels: one curve for all three.
  popouts: {
    x: X,
    low: [0.0, 2.2, 4.1, 5.9, 7.8, 9.8, 12.0, 13.7, 14.6, 15.2, 15.4],
    medium: [0.0, 2.2, 4.1, 5.9, 7.8, 9.8, 12.0, 13.7, 14.6, 15.2, 15.4],
    high: [0.0, 2.2, 4.1, 5.9, 7.8, 9.8, 12.0, 13.7, 14.6, 15.2, 15.4],
  },
  scaling: {
    x: X,
    low: [0.0, 2.2, 4.3, 6.1, 7.8, 9.4, 10.2, 10.6, 11.1, 11.5, 11.7],
    medium: [0.0, 8.3, 14.1, 18.3, 21.1, 23.5, 25.6, 27.4, 28.9, 29.8, 30.6],
    high: [0.0, 18.0, 28.7, 35.4, 40.6, 45.2, 49.4, 53.5, 57.4, 61.3, 65.0],
  },
  // Rated without severity levels: one curve for all three.
  shrinkage_cracks: {
    x: X,
    low: [0.0, 0.0, 0.0, 0.9, 2.0, 2.8, 3.1, 3.3, 3.7, 3.7, 3.7],
    medium: [0.0, 0.0, 0.0, 0.9, 2.0, 2.8, 3.1, 3.3, 3.7, 3.7, 3.7],
    high: [0.0, 0.0, 0.0, 0.9, 2.0, 2.8, 3.1, 3.3, 3.7, 3.7, 3.7],
  },
  spalling_corner: {
    x: X,
    low: [0.0, 1.1, 3.1, 5.6, 8.1, 10.2, 11.1, 12.4, 13.7, 14.6, 15.0],
    medium: [0.0, 2.6, 6.3, 9.8, 13.3, 16.1, 18.5, 20.6, 21.7, 22.2, 22.4],
    high: [0.0, 7.0, 12.6, 16.9, 20.4, 23.1, 25.2, 27.6, 29.1, 30.0, 30.6],
  },
  spalling_joint: {
    x: X,
    low: [0.0, 2.4, 4.6, 6.7, 8.5, 10.2, 11.3, 12.2, 12.8, 12.8, 12.2],
    medium: [0.0, 4.4, 8.9, 13.1, 16.9, 19.1, 20.9, 22.8, 24.1, 25.0, 25.6],
    high: [0.0, 15.4, 25.2, 32.4, 37.4, 41.3, 45.2, 48.5, 51.3, 53.9, 56.1],
  },
};
