// What the distress detector takes and gives back (docs/condition.md, "The built-in distress detector"). The vocabulary is
// the spec's "Condition rating result" and ASTM D6433's asphalt distress names in snake_case, the
// same keys the PCI and PASER engines read.

/** Decoded pixels, as `sharp(...).raw()` gives them: rows top to bottom, channels interleaved. */
export interface RawPixels {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array;
}

export const DISTRESS_TYPES = [
  'alligator_cracking',
  'block_cracking',
  'longitudinal_transverse_cracking',
  'potholes',
  'patching',
  'weathering_raveling',
] as const;
export type DistressType = (typeof DISTRESS_TYPES)[number];

export type Severity = 'low' | 'medium' | 'high';
/** area = % of rated pavement; linear = linear feet per 100 sq ft; pothole_area = potholes per 100 sq ft of rated pavement (ASTM D6433 counts them). */
export type DensityUnit = 'area' | 'linear' | 'pothole_area' | 'slabs';

export const DENSITY_UNIT: Record<DistressType, DensityUnit> = {
  alligator_cracking: 'area',
  block_cracking: 'area',
  longitudinal_transverse_cracking: 'linear',
  potholes: 'pothole_area',
  patching: 'area',
  weathering_raveling: 'area',
};

export type PavementType = 'asphalt' | 'concrete';
export type View = 'aerial' | 'ground' | 'other';
export type Quality = 'good' | 'fair' | 'poor';

export interface DetectOptions {
  /** Ground size of one pixel; unknown means an assumed scale (DEFAULT_VIEW_WIDTH_M) and a limitation. */
  metersPerPixel?: number;
  pavementType?: 'auto' | PavementType;
  /** Polygon in pixel coordinates ([x, y] pairs) restricting the rated area. */
  mask?: [number, number][];
}

export interface Distress {
  type: DistressType;
  severity: Severity;
  density_pct: number;
  density_unit: DensityUnit;
  /** Where on the image, in compass words with north at the top ("north-west part", "across the centre"). */
  where: string;
}

export interface DetectionResult {
  /**
   * False when less than MIN_PAVEMENT_PCT of the rated area is pavement, or the rated area is under
   * MIN_RATED_PX: the caller answers 422 no_pavement_visible.
   */
  pavementFound: boolean;
  visible_pavement_pct: number;
  pavement_type: PavementType;
  view: View;
  quality: Quality;
  confidence: number;
  distresses: Distress[];
  limitations: string[];
  /** The scale the densities were computed at (given, or assumed). */
  meters_per_pixel: number;
  scale_assumed: boolean;
}

/** Below this share of visible pavement there is nothing to rate (spec error no_pavement_visible). */
export const MIN_PAVEMENT_PCT = 15;
/** A rated area (the mask polygon's inside) smaller than this many analysis pixels is too small to rate. */
export const MIN_RATED_PX = 32 * 32;
/** With no scale given, the image is taken to span this many metres across (a phone photo of a lane). */
export const DEFAULT_VIEW_WIDTH_M = 3;
/** Longer sides are analysed downscaled to this many pixels, so time stays bounded on large photos. */
export const MAX_ANALYSIS_SIDE = 1024;
