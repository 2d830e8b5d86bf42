// The built-in landscape detector for landscape takeoffs (issue 28; docs/landscape-detector.md).
import type { LandscapeAreaClass, LandscapeObjectClass } from './types.ts';

export { detectLandscape } from './detect.ts';
export * from './types.ts';

/**
 * The classes the built-in detector can return (GET /v1/landscape/classes marks them `detected`);
 * every other class on a takeoff is drawn by hand.
 */
export const landscapeClassesDetected: {
  areas: readonly LandscapeAreaClass[];
  objects: readonly LandscapeObjectClass[];
} = {
  areas: ['lawn', 'mulch', 'bed'],
  objects: ['deciduous', 'evergreen', 'shrub'],
};
