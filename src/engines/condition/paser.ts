// PASER, asphalt, 1–10 (docs/condition.md, "PASER"). Pure.
// The rating is the lowest max_rating of the rules that fire (paser-rules.ts), 10 when none does;
// every firing rule is reported in limited_by, the binding ones first, so a reader sees why.
// Rating descriptions and treatments paraphrase the Asphalt PASER Manual (Wisconsin Transportation
// Information Center, 2002).
import { SEVERITIES, type Severity, severityRank } from './distresses.ts';
import { type ConditionInput, ConditionInputError, readInput } from './input.ts';
import { PASER_RULES } from './paser-rules.ts';

export const PASER_RUBRIC_VERSION = 'paser-asphalt-2002-1';

export interface PaserRating {
  rating: number;
  label: string;
  description: string;
  recommended_treatment: string;
}

export interface PaserLimit {
  distress: string;
  /** The least severity the rule counts; density_pct is of that severity or worse. */
  severity: Severity;
  density_pct: number;
  max_rating: number;
  rule: string;
}

export interface PaserResult extends PaserRating {
  limited_by: PaserLimit[];
  rubric_version: string;
}

const NO_MAINTENANCE = 'No maintenance needed.';
const CRACK_SEAL = 'Routine maintenance: seal the cracks and patch minor spots.';
const SEALCOAT = 'Preservative treatment: crack seal, then sealcoat or a thin non-structural overlay (under 2 in).';
const STRUCTURAL =
  'Structural improvement: patch the failed areas, then mill and overlay or place a structural overlay (2 in or more).';
const RECONSTRUCT = 'Reconstruction: remove or pulverize the pavement, repair the base and repave.';

/** Ratings 10 down to 1, in the manual's words (paraphrased). */
export const PASER_RATINGS: readonly PaserRating[] = [
  {
    rating: 10,
    label: 'Excellent',
    description: 'New construction. No visible distress.',
    recommended_treatment: NO_MAINTENANCE,
  },
  {
    rating: 9,
    label: 'Excellent',
    description: 'Recent overlay; like new. No visible distress.',
    recommended_treatment: NO_MAINTENANCE,
  },
  {
    rating: 8,
    label: 'Very good',
    description:
      'Recent sealcoat or new surface; little or no maintenance needed. At most a few tight cracks, widely spaced (40 ft or more).',
    recommended_treatment: CRACK_SEAL,
  },
  {
    rating: 7,
    label: 'Good',
    description:
      'First signs of aging: very slight or no raveling, some traffic wear; tight cracks (1/4 in or less) 10 ft or more apart; a few patches in excellent condition.',
    recommended_treatment: CRACK_SEAL,
  },
  {
    rating: 6,
    label: 'Good',
    description:
      'Aging but structurally sound: slight raveling and traffic wear; cracks open 1/4 to 1/2 in, some closer than 10 ft; first signs of block cracking; slight to moderate flushing or polishing; occasional patches in good condition.',
    recommended_treatment: SEALCOAT,
  },
  {
    rating: 5,
    label: 'Fair',
    description:
      'Surface aging, structure still sound: moderate to severe raveling; open cracks with first raveling and secondary cracks; first cracks near the edge; block cracking up to half the surface; extensive flushing or polishing; some patching or edge wedging in good condition.',
    recommended_treatment: SEALCOAT,
  },
  {
    rating: 4,
    label: 'Fair',
    description:
      'Significant aging and first signs of needing strength: severe raveling; many cracks with slight raveling; longitudinal cracking in the wheel path; block cracking over half the surface; patches in fair condition; slight rutting or distortion (1/2 in or less).',
    recommended_treatment: STRUCTURAL,
  },
  {
    rating: 3,
    label: 'Poor',
    description:
      'Needs patching and repair before an overlay: closely spaced cracks with raveling and erosion; severe block cracking; some alligator cracking (under a quarter of the surface); patches in fair to poor condition; moderate rutting or distortion (1 to 2 in); occasional potholes.',
    recommended_treatment: STRUCTURAL,
  },
  {
    rating: 2,
    label: 'Very poor',
    description:
      'Severe deterioration: alligator cracking over a quarter of the surface; severe distortion (over 2 in); extensive patching in poor condition; potholes.',
    recommended_treatment: RECONSTRUCT,
  },
  {
    rating: 1,
    label: 'Failed',
    description: 'Failed: severe distress with extensive loss of surface integrity.',
    recommended_treatment: RECONSTRUCT,
  },
];

export function paserRating(rating: number): PaserRating {
  const found = PASER_RATINGS.find((r) => r.rating === rating);
  if (!found) throw new RangeError(`PASER rating out of range: ${rating}`);
  return found;
}

export function ratePaser(input: ConditionInput): PaserResult {
  const { pavement_type, densities } = readInput(input);
  // The concrete PASER manual is a different rubric; this engine implements the asphalt one.
  if (pavement_type !== 'asphalt')
    throw new ConditionInputError('paser_asphalt_only', 'PASER is rated for asphalt pavement', 'pavement_type');

  // Density of each type at each severity or worse.
  const atOrWorse = new Map<string, number>();
  for (const d of densities)
    for (const s of SEVERITIES.slice(0, severityRank(d.severity) + 1)) {
      const key = `${d.kind.type}/${s}`;
      atOrWorse.set(key, (atOrWorse.get(key) ?? 0) + d.density_pct);
    }

  const limited_by: PaserLimit[] = [];
  for (const rule of PASER_RULES) {
    const density = atOrWorse.get(`${rule.distress}/${rule.severity}`) ?? 0;
    if (density > 0 && density >= rule.min_density)
      limited_by.push({
        distress: rule.distress,
        severity: rule.severity,
        density_pct: Math.round(density * 1e6) / 1e6,
        max_rating: rule.max_rating,
        rule: rule.id,
      });
  }
  limited_by.sort((a, b) => a.max_rating - b.max_rating || a.rule.localeCompare(b.rule));
  const rating = Math.min(10, ...limited_by.map((l) => l.max_rating));
  return { ...paserRating(rating), limited_by, rubric_version: PASER_RUBRIC_VERSION };
}
