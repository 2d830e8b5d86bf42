// The built-in landscape detector (docs/landscape-detector.md): raw pixels of a top-down, north-up
// aerial image and its scale in; lawn, mulch and planting-bed areas and tree and shrub crowns out,
// in the image's pixel coordinates. Pure apart from OpenCV's WebAssembly heap, which every call
// frees before it returns.
import { type Cv, loadCv, MatScope } from '#engines/distress/cv.ts';
import { inside } from '#engines/distress/synthetic-draw.ts';
import { classMasks, MIN_LAWN_M2, ROUGH_LEVELS } from './classes.ts';
import { findCrowns } from './crowns.ts';
import { features } from './features.ts';
import { checkAerialInput } from '#engines/paved/index.ts';
import { traceRegions } from './rings.ts';
import type { FoundArea, LandscapeFindings, LandscapeOptions, RawPixels } from './types.ts';

/** Mulch pieces under this are specks; holes under MIN_HOLE_M2 are noise. */
export const MIN_MULCH_M2 = 1;
export const MIN_HOLE_M2 = 0.5;
/** Outlines are simplified to within this on the ground. */
export const TOLERANCE_M = 0.12;

export async function detectLandscape(pixels: RawPixels, options: LandscapeOptions): Promise<LandscapeFindings> {
  checkAerialInput(pixels, options);
  const { cv } = await loadCv();
  const s = new MatScope(cv);
  try {
    return run(cv, s, pixels, options.metersPerPixel);
  } finally {
    s.release();
  }
}

function run(cv: Cv, s: MatScope, pixels: RawPixels, mpp: number): LandscapeFindings {
  const f = features(cv, s, pixels, mpp, ROUGH_LEVELS);
  const masks = classMasks(cv, s, f, mpp);
  const objects = findCrowns(cv, s, masks.crown, f.rgb, mpp);
  const areas: FoundArea[] = traceRegions(cv, s, masks.lawn, mpp, {
    minAreaM2: MIN_LAWN_M2,
    minHoleM2: MIN_HOLE_M2,
    toleranceM: TOLERANCE_M,
  }).map((rings) => ({ class: 'lawn', rings }));
  // Mulched ground with a plant standing in it (a crown found there, or a piece of vegetation it
  // surrounds) is a planting bed; without, plain mulch.
  const plants = [...objects.map((o) => o.point), ...masks.plantsInMulch];
  for (const rings of traceRegions(cv, s, masks.mulch, mpp, {
    minAreaM2: MIN_MULCH_M2,
    minHoleM2: MIN_HOLE_M2,
    toleranceM: TOLERANCE_M,
  })) {
    const planted = plants.some((p) => inside(rings[0], p[0], p[1]));
    areas.push({ class: planted ? 'bed' : 'mulch', rings });
  }
  return { areas, objects };
}
