// The PASER rules: each one a distress, a least severity and a least density that, when met,
// cap the rating (docs/condition.md, "PASER: the rules", which sets each beside the manual's
// wording). The manual (Asphalt PASER Manual, Wisconsin Transportation Information Center, 2002)
// describes ratings in words; the thresholds that turn its words into numbers are ours.
//
// A rule fires when the distress's density at its severity or worse (the input's densities of that
// type at that severity and above, added) reaches `min_density`, and is over 0. Rules only ever fire
// on more of a distress or a worse one, so more or worse distress never raises a rating.
//
// Every distress type but railroad_crossing has a rule at low severity and any density, so any
// recorded distress keeps a road from 10 and 9 ("new construction", "like new"); a railroad crossing
// is a feature of the road, not wear of its surface, and PASER does not rate it.
//
// Densities are in the type's density unit (distresses.ts). For cracks, feet per 100 sq ft is
// 100 ÷ the spacing in feet of cracks running across the pavement (one crack the width of a lane
// every 10 ft is 10 ft per 100 sq ft), which is how the manual's spacings become thresholds.
import type { Severity } from './distresses.ts';

export interface PaserRule {
  /** Stable id, reported in limited_by[].rule. */
  id: string;
  distress: string;
  severity: Severity;
  /** The rule fires at this density or more (and always needs more than 0). */
  min_density: number;
  max_rating: number;
}

type Tier = [suffix: string, severity: Severity, min_density: number, max_rating: number];

function rules(distress: string, tiers: Tier[]): PaserRule[] {
  return tiers.map(([suffix, severity, min_density, max_rating]) => ({
    id: `${distress}.${suffix}`,
    distress,
    severity,
    min_density,
    max_rating,
  }));
}

// Cracks across or along the pavement, reflected or not (manual 8–3).
const crackTiers: Tier[] = [
  ['tight', 'low', 0, 8],
  ['closer_than_40ft', 'low', 2.5, 7],
  ['closer_than_10ft', 'low', 10, 6],
  ['open', 'medium', 0, 6],
  ['open_closer_than_40ft', 'medium', 2.5, 5],
  ['open_closer_than_10ft', 'medium', 10, 4],
  ['raveled', 'high', 0, 4],
  ['raveled_closely_spaced', 'high', 10, 3],
];

// Rutting's and the distortions' shared reading of "slight", "moderate" and "severe" (manual 4–2),
// with localized occurrences (under 1% of the surface) one rating gentler.
const distortionTiers: Tier[] = [
  ['localized', 'low', 0, 5],
  ['slight', 'low', 1, 4],
  ['moderate_localized', 'medium', 0, 4],
  ['moderate', 'medium', 1, 3],
  ['severe_localized', 'high', 0, 3],
  ['severe', 'high', 1, 2],
];

// Flushing (bleeding) and polishing (manual 6–5).
const flushingTiers: Tier[] = [
  ['traces', 'low', 0, 7],
  ['slight_to_moderate', 'low', 10, 6],
  ['extensive', 'low', 50, 5],
  ['severe', 'high', 10, 5],
];

export const PASER_RULES: readonly PaserRule[] = [
  ...rules('alligator_cracking', [
    ['wheel_path', 'low', 0, 4],
    ['wheel_path_widespread', 'low', 25, 3],
    ['some', 'medium', 0, 3],
    ['over_25pct', 'medium', 25, 2],
    ['failed_surface', 'high', 50, 1],
  ]),
  ...rules('bleeding', flushingTiers),
  ...rules('block_cracking', [
    ['first_signs', 'low', 0, 6],
    ['up_to_half', 'low', 10, 5],
    ['over_half', 'low', 50, 4],
    ['open', 'medium', 0, 5],
    ['raveled', 'high', 0, 4],
    ['severe', 'high', 10, 3],
  ]),
  ...rules('bumps_and_sags', distortionTiers),
  ...rules('corrugation', distortionTiers),
  ...rules('depression', distortionTiers),
  ...rules('edge_cracking', [
    ['first_signs', 'low', 0, 5],
    ['raveled', 'medium', 0, 4],
    ['broken_up', 'high', 0, 3],
  ]),
  ...rules('joint_reflection_cracking', crackTiers),
  ...rules('lane_shoulder_drop_off', [
    ['slight', 'low', 0, 6],
    ['needs_wedging', 'medium', 0, 5],
    ['severe', 'high', 0, 4],
  ]),
  ...rules('longitudinal_transverse_cracking', crackTiers),
  ...rules('patching', [
    ['few_excellent', 'low', 0, 7],
    ['occasional_good', 'low', 2, 6],
    ['some_good', 'low', 10, 5],
    ['fair', 'medium', 0, 4],
    ['poor', 'high', 0, 3],
    ['extensive_poor', 'high', 25, 2],
  ]),
  ...rules(
    'polished_aggregate',
    flushingTiers.filter(([, severity]) => severity === 'low'),
  ),
  ...rules('potholes', [
    ['occasional', 'low', 0, 3],
    ['several', 'low', 0.1, 2],
    ['deep', 'high', 0, 2],
    ['extensive', 'low', 1, 1],
  ]),
  ...rules('rutting', [
    ['slight', 'low', 0, 4],
    ['moderate', 'medium', 0, 3],
    ['severe', 'high', 10, 2],
  ]),
  ...rules('shoving', distortionTiers),
  ...rules('slippage_cracking', [
    ['present', 'low', 0, 5],
    ['open', 'medium', 0, 4],
    ['severe', 'high', 0, 3],
  ]),
  ...rules('swell', distortionTiers),
  ...rules('weathering_raveling', [
    ['very_slight', 'low', 0, 7],
    ['slight', 'low', 10, 6],
    ['moderate_localized', 'medium', 0, 6],
    ['moderate_to_severe', 'medium', 10, 5],
    ['severe_localized', 'high', 0, 5],
    ['severe', 'high', 10, 4],
  ]),
];
