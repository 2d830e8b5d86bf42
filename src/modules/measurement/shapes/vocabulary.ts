// The takeoff's vocabulary (document 3, "Saved-takeoff shape" and the op table of "Saved-takeoff
// shapes"): kinds, surfaces, count and line categories, the painted shapes, and the types each
// category takes. What the spec lists as not editable through the API is marked here once; the
// types per category are ours (the spec leaves them "per category"), written down in
// docs/measurement.md.

export const KINDS = ['area', 'count', 'line', 'painted_shape', 'custom'] as const;
export type Kind = (typeof KINDS)[number];

/** Surfaces an area can be; hole cuts out of the area it sits in. */
export const AREA_SURFACES = ['main', 'concrete', 'sidewalk', 'driveway', 'carport'] as const;
export const SURFACES = [...AREA_SURFACES, 'hole'] as const;
export type Surface = (typeof SURFACES)[number];

/** Counts add_count takes. */
export const EDITABLE_COUNT_CATEGORIES = ['arrows', 'abc', 'wheel_stop', 'bollard'] as const;
/** Counts the detector (or the editor) makes that the API only reads (422 Edit in the takeoff editor). */
export const READ_ONLY_COUNT_CATEGORIES = [
  'stalls',
  'handicap',
  'truck_stalls',
  'parallel_stalls',
  'speed_bumps',
] as const;
export const COUNT_CATEGORIES = [...EDITABLE_COUNT_CATEGORIES, ...READ_ONLY_COUNT_CATEGORIES] as const;

export const EDITABLE_LINE_CATEGORIES = [
  'lines_white',
  'lines_yellow',
  'lines_double_yellow',
  'red_line',
  'misc_lines',
  'curb',
  'curb_red',
  'curb_yellow',
  'curb_green',
  'curb_blue',
] as const;
export const READ_ONLY_LINE_CATEGORIES = ['center_lines', 'skip_lane_lines'] as const;
export const LINE_CATEGORIES = [...EDITABLE_LINE_CATEGORIES, ...READ_ONLY_LINE_CATEGORIES] as const;

/** Painted shapes are never editable here. */
export const PAINTED_SHAPE_CATEGORIES = ['crosswalks', 'hatching', 'stop_bars', 'detected_stripes'] as const;

const READ_ONLY = new Set<string>([
  ...READ_ONLY_COUNT_CATEGORIES,
  ...READ_ONLY_LINE_CATEGORIES,
  ...PAINTED_SHAPE_CATEGORIES,
]);
export const isReadOnlyCategory = (category: string) => READ_ONLY.has(category);

export const LABELS: Record<string, string> = {
  main: 'Main area',
  concrete: 'Concrete',
  sidewalk: 'Sidewalk',
  driveway: 'Driveway',
  carport: 'Carport',
  hole: 'Cut-out',
  arrows: 'Arrows',
  abc: 'Stencils (letters)',
  wheel_stop: 'Wheel stops',
  bollard: 'Bollards',
  stalls: 'Parking stalls',
  handicap: 'Accessible stalls',
  truck_stalls: 'Truck stalls',
  parallel_stalls: 'Parallel stalls',
  speed_bumps: 'Speed bumps',
  lines_white: 'Lines (white)',
  lines_yellow: 'Lines (yellow)',
  lines_double_yellow: 'Double yellow lines',
  red_line: 'Red lines',
  misc_lines: 'Other lines',
  curb: 'Curb',
  curb_red: 'Curb (red)',
  curb_yellow: 'Curb (yellow)',
  curb_green: 'Curb (green)',
  curb_blue: 'Curb (blue)',
  center_lines: 'Center lines',
  skip_lane_lines: 'Skip lane lines',
  crosswalks: 'Crosswalks',
  hatching: 'Hatching',
  stop_bars: 'Stop bars',
  detected_stripes: 'Detected stripes',
};

const STRIPE_WIDTHS = ['4 in', '6 in', '12 in'];
const CURB_PAINT = ['solid', 'stencilled'];

/** The types (spec) each category takes: set_spec and add_* accept only these. */
export const TYPES: Record<string, readonly string[]> = {
  arrows: ['straight', 'left', 'right', 'straight_left', 'straight_right', 'left_right', 'u_turn', 'only'],
  abc: ['stop', 'fire_lane', 'no_parking', 'compact', 'visitor', 'reserved', 'custom'],
  wheel_stop: ['concrete', 'rubber', 'recycled_plastic'],
  bollard: ['steel', 'concrete', 'removable'],
  lines_white: STRIPE_WIDTHS,
  lines_yellow: STRIPE_WIDTHS,
  lines_double_yellow: STRIPE_WIDTHS,
  red_line: STRIPE_WIDTHS,
  misc_lines: STRIPE_WIDTHS,
  curb: ['6 in', '8 in', 'rolled'],
  curb_red: CURB_PAINT,
  curb_yellow: CURB_PAINT,
  curb_green: CURB_PAINT,
  curb_blue: CURB_PAINT,
};

/** Phases every measurement offers; phases used on it are added after these. */
export const DEFAULT_PHASES = ['Phase 1', 'Phase 2', 'Phase 3'];

/** A new shape farther than this from the takeoff (its frame and its shapes) is refused. */
export const FAR_FROM_TAKEOFF_M = 3_000;

export const OPS = [
  'add_area',
  'add_count',
  'add_line',
  'add_custom_shape',
  'remove',
  'reclassify',
  'set_spec',
  'set_phase',
  'set_surface',
] as const;
export type Op = (typeof OPS)[number];
