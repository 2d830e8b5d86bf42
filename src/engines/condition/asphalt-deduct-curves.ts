// ASTM D6433 asphalt deduct curves, as digitized points: for each distress type and severity, the
// deduct value read off the standard's chart at each density (%) on the chart's logarithmic axis.
// Figures from the `brandnewbox/pavement_condition_index` repository (MIT, © 2017 Andy Monroe),
// lib/pavement_condition_index/lookups/observed_deduct_values.rb; their "patching and utility cut
// patching" is our `patching`, and their weathering curve (the combined weathering-and-raveling
// curve) is our `weathering_raveling`. Kept verbatim so they can be checked against the source;
// how they are read (interpolation, ends, the monotone envelope) is in curves.ts and
// docs/condition.md.
import type { DeductCurveSet } from './curves.ts';

const LOG_X = [0.1, 0.2, 0.4, 1, 2, 4, 10, 20, 40, 100];

export const ASPHALT_DEDUCT_CURVES: DeductCurveSet = {
  alligator_cracking: {
    x: LOG_X,
    low: [3.7, 4.0, 4.9, 10.7, 16.9, 23.7, 32.8, 40.0, 48.7, 61.7],
    medium: [6.3, 9.9, 13.8, 21.3, 27.9, 35.3, 45.8, 54.8, 64.3, 77.4],
    high: [11.9, 15.6, 20.1, 30.0, 39.9, 49.8, 61.1, 70.0, 78.9, 91.1],
  },
  bleeding: {
    x: LOG_X,
    low: [0.6, 0.1, 0.1, 0.7, 0.6, 1.4, 3.4, 6.5, 10.9, 20.6],
    medium: [0.6, 1.2, 1.6, 3.3, 5.3, 7.7, 13.2, 18.9, 25.9, 40.4],
    high: [2.4, 3.0, 3.8, 5.9, 8.6, 13.7, 22.3, 34.1, 49.1, 73.0],
  },
  block_cracking: {
    x: LOG_X,
    low: [0.0, 0.0, 0.1, 0.2, 1.3, 3.7, 7.4, 12.2, 17.6, 27.2],
    medium: [0.0, 0.0, 0.1, 2.2, 5.4, 9.1, 15.0, 21.9, 30.2, 42.6],
    high: [0.0, 1.3, 2.7, 6.3, 11.7, 17.4, 28.0, 40.2, 53.7, 71.5],
  },
  bumps_and_sags: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10],
    low: [1.5, 2.4, 3.5, 8.0, 13.0, 20.4, 39.1],
    medium: [6.5, 10.7, 16.1, 24.8, 34.4, 46.3, 78.1],
    high: [20.6, 30.0, 40.1, 53.7, 65.6, 77.6, 98.9],
  },
  corrugation: {
    x: LOG_X,
    low: [1.3, 1.1, 1.6, 2.8, 4.6, 7.4, 13.7, 20.6, 28.5, 40.0],
    medium: [5.2, 6.7, 9.2, 15.0, 22.0, 28.7, 40.2, 49.3, 58.7, 73.9],
    high: [10.0, 17.8, 25.3, 33.7, 40.4, 48.1, 61.1, 71.7, 82.0, 94.3],
  },
  depression: {
    x: LOG_X,
    low: [3.7, 3.9, 4.0, 4.4, 5.4, 8.1, 16.7, 28.7, 38.9, 47.8],
    medium: [7.6, 7.8, 7.9, 8.7, 10.9, 15.6, 28.7, 41.9, 53.0, 59.4],
    high: [11.9, 13.1, 14.4, 16.9, 20.0, 27.0, 42.8, 55.7, 65.9, 74.3],
  },
  edge_cracking: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10, 20],
    low: [0.0, 1.4, 2.1, 3.7, 4.9, 6.6, 11.5, 15.4],
    medium: [4.3, 4.9, 5.9, 9.1, 12.5, 17.0, 24.3, 28.5],
    high: [7.2, 9.3, 11.0, 14.6, 20.5, 27.4, 40.6, 46.7],
  },
  joint_reflection_cracking: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10, 20, 30],
    low: [0.0, 1.0, 1.6, 3.0, 4.9, 8.7, 15.6, 22.6, 27.6],
    medium: [1.3, 2.3, 4.2, 8.3, 12.7, 20.5, 35.0, 41.7, 43.7],
    high: [2.4, 5.8, 10.3, 16.3, 23.4, 38.3, 62.6, 71.7, 73.9],
  },
  lane_shoulder_drop_off: {
    x: [0.5, 1, 2, 4, 10, 15],
    low: [1.6, 2.0, 3.4, 6.1, 11.7, 16.7],
    medium: [3.6, 3.9, 5.5, 9.0, 18.2, 27.6],
    high: [5.5, 6.5, 9.7, 16.1, 33.0, 43.9],
  },
  longitudinal_transverse_cracking: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10, 20, 30],
    low: [0.0, 0.0, 0.3, 2.0, 5.2, 9.3, 16.7, 23.9, 28.5],
    medium: [0.0, 0.7, 3.3, 8.7, 14.1, 20.0, 30.4, 39.8, 44.4],
    high: [3.9, 6.7, 10.9, 18.3, 27.0, 38.9, 60.9, 79.1, 86.9],
  },
  patching: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10, 20, 40, 50],
    low: [0.0, 0.3, 0.5, 2.0, 4.3, 7.9, 16.1, 23.3, 31.3, 33.0],
    medium: [2.6, 3.8, 5.7, 9.4, 13.6, 19.6, 31.3, 42.0, 54.1, 57.6],
    high: [6.3, 8.6, 12.9, 19.4, 25.3, 33.7, 51.9, 67.0, 77.6, 80.2],
  },
  // The standard rates polished aggregate without severity levels: one curve for all three.
  polished_aggregate: {
    x: LOG_X,
    low: [0.0, 0.0, 0.1, 0.2, 0.4, 1.1, 3.5, 6.5, 10.2, 20.6],
    medium: [0.0, 0.0, 0.1, 0.2, 0.4, 1.1, 3.5, 6.5, 10.2, 20.6],
    high: [0.0, 0.0, 0.1, 0.2, 0.4, 1.1, 3.5, 6.5, 10.2, 20.6],
  },
  // Density is potholes per 100 sq ft; values above 100 are on the source's extension of the chart
  // and are clamped to 100 when read.
  potholes: {
    x: [0.01, 0.02, 0.04, 0.1, 0.2, 0.4, 1, 2, 4, 10],
    low: [1.8, 5.6, 10.9, 21.7, 31.6, 42.5, 58.3, 71.4, 84.0, 100.0],
    medium: [6.0, 10.7, 18.9, 34.6, 49.7, 66.0, 91.7, 111.9, 132.5, 159.1],
    high: [20.1, 27.6, 37.6, 55.4, 71.4, 87.7, 109.6, 125.6, 141.8, 162.6],
  },
  railroad_crossing: {
    x: [1, 2, 4, 10, 20, 40],
    low: [1.3, 1.9, 4.1, 11.1, 16.1, 18.9],
    medium: [5.2, 11.9, 21.3, 37.6, 45.2, 49.4],
    high: [19.3, 29.3, 43.3, 66.3, 75.9, 79.8],
  },
  rutting: {
    x: LOG_X,
    low: [0.6, 0.8, 2.7, 7.2, 12.5, 18.5, 26.5, 34.8, 44.1, 49.6],
    medium: [3.5, 6.4, 9.9, 17.2, 24.2, 31.8, 43.7, 54.1, 61.1, 67.6],
    high: [5.4, 11.6, 17.9, 26.9, 35.1, 45.0, 61.1, 73.7, 83.1, 90.0],
  },
  shoving: {
    x: [0.1, 0.2, 0.4, 1, 2, 4, 10, 20, 40, 50],
    low: [0.4, 0.2, 0.5, 4.1, 8.1, 12.4, 20.2, 27.8, 34.8, 36.5],
    medium: [3.1, 3.3, 4.2, 10.0, 15.0, 21.7, 34.8, 49.3, 61.7, 64.8],
    high: [7.6, 9.8, 11.6, 18.9, 25.6, 33.9, 52.2, 66.5, 77.0, 80.0],
  },
  slippage_cracking: {
    x: LOG_X,
    low: [0.0, 0.4, 1.3, 3.5, 8.1, 15.7, 26.7, 35.0, 42.8, 53.3],
    medium: [1.5, 3.3, 5.5, 10.0, 17.0, 27.8, 43.5, 53.3, 60.9, 69.8],
    high: [3.3, 6.7, 10.3, 18.3, 29.3, 45.0, 67.0, 78.0, 84.3, 90.7],
  },
  swell: {
    x: [1, 2, 4, 10, 20, 30],
    low: [1.5, 3.5, 6.5, 11.9, 15.9, 19.4],
    medium: [10.9, 17.6, 23.9, 34.8, 43.7, 49.4],
    high: [33.1, 36.9, 41.9, 53.3, 63.5, 69.6],
  },
  weathering_raveling: {
    x: LOG_X,
    low: [0.0, 0.8, 1.6, 2.4, 2.7, 3.3, 5.2, 7.8, 11.3, 16.3],
    medium: [4.1, 5.6, 7.0, 8.7, 10.6, 12.7, 18.0, 25.0, 32.0, 44.1],
    high: [6.3, 8.8, 11.6, 16.3, 20.3, 27.2, 40.6, 54.8, 65.4, 78.0],
  },
};
