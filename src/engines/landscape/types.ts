// What the built-in landscape detector (and the pluggable segmentation endpoint that can replace
// it) takes and gives back (docs/landscape-detector.md; issue 28). Findings are in the image's
// pixel coordinates ([x, y], x to the right, y down, fractional allowed), as the paved detector's
// are; the landscape-takeoff area turns them into [lat, lng] with the mosaic's frame.
import type { PixelPoint, RawPixels } from '#engines/paved/types.ts';

export type { PixelPoint, RawPixels };

/**
 * Ground classes the takeoff measures by area. `bed` is a planting bed: mulched ground with
 * plants (shrubs) growing in it; `mulch` is mulched ground with none (docs/landscape-detector.md,
 * "Classes").
 */
export type LandscapeAreaClass = 'lawn' | 'mulch' | 'bed';
/** Things the takeoff counts: trees by foliage type, and shrubs (crowns under SHRUB_MAX_DIAMETER_M across). */
export type LandscapeObjectClass = 'deciduous' | 'evergreen' | 'shrub';

export interface LandscapeOptions {
  /** Ground size of one pixel (the mosaic's meters_per_pixel); the detector is made for 0.1–1.2. */
  metersPerPixel: number;
}

export interface FoundArea {
  class: LandscapeAreaClass;
  /** Outline first, then holes. Each ring open (first point not repeated), simplified. */
  rings: PixelPoint[][];
}

export interface FoundObject {
  class: LandscapeObjectClass;
  /** The crown's centre. */
  point: PixelPoint;
  /** The crown's radius on the ground, m (the radius of a circle of the crown's visible area). */
  radius_m: number;
}

export interface LandscapeFindings {
  areas: FoundArea[];
  objects: FoundObject[];
}
