// The distress vocabulary of the condition engines (docs/condition.md, "Distresses").
// Asphalt: the distress types of ASTM D6433 for asphalt-surfaced pavement, each with the unit the
// standard measures it in. Concrete: the slab distresses of ASTM D6433 that can be seen from above,
// used by the concrete visual estimate. Pure data: no I/O.

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Rank of a severity, so rules can ask for "this severity or worse". */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export const PAVEMENT_TYPES = ['asphalt', 'concrete'] as const;
export type PavementType = (typeof PAVEMENT_TYPES)[number];

/** How the standard measures a distress in the field. */
export type MeasureUnit = 'sq_ft' | 'linear_ft' | 'count' | 'slabs';

/**
 * Document 3's density units ("Condition rating result", distresses[].density_unit):
 * - area: % of rated pavement (affected sq ft ÷ rated sq ft × 100)
 * - linear: linear feet per 100 sq ft of rated pavement (feet ÷ rated sq ft × 100)
 * - pothole_area: potholes per 100 sq ft of rated pavement (count ÷ rated sq ft × 100), the
 *   density ASTM D6433 reads the pothole deduct curve with
 * - slabs: % of slabs affected (concrete)
 * Every one is "quantity ÷ sample size × 100", which is why one number, density_pct, carries them.
 */
export type DensityUnit = 'area' | 'linear' | 'pothole_area' | 'slabs';

export interface DistressKind {
  type: string;
  label: string;
  pavement_type: PavementType;
  measure: MeasureUnit;
  density_unit: DensityUnit;
  /** ASTM D6433 distress number (asphalt 1–19 in the combined-weathering numbering; concrete 21–39). */
  astm_number: number;
}

const DENSITY_UNIT_OF: Record<MeasureUnit, DensityUnit> = {
  sq_ft: 'area',
  linear_ft: 'linear',
  count: 'pothole_area',
  slabs: 'slabs',
};

function kinds(pavement_type: PavementType, rows: [string, string, MeasureUnit, number][]): DistressKind[] {
  return rows.map(([type, label, measure, astm_number]) => ({
    type,
    label,
    pavement_type,
    measure,
    density_unit: DENSITY_UNIT_OF[measure],
    astm_number,
  }));
}

// Weathering and raveling are one type here, as in ASTM D6433-99 (distress 19) and in the
// standard's worked asphalt example. D6433-07 and later split them into raveling and weathering
// with separate deduct curves; the only published digitized curve we have is the combined one,
// so we keep one key rather than pretend to two curves (docs/condition.md, "Distresses").
export const ASPHALT_DISTRESSES: readonly DistressKind[] = kinds('asphalt', [
  ['alligator_cracking', 'Alligator (fatigue) cracking', 'sq_ft', 1],
  ['bleeding', 'Bleeding', 'sq_ft', 2],
  ['block_cracking', 'Block cracking', 'sq_ft', 3],
  ['bumps_and_sags', 'Bumps and sags', 'linear_ft', 4],
  ['corrugation', 'Corrugation', 'sq_ft', 5],
  ['depression', 'Depression', 'sq_ft', 6],
  ['edge_cracking', 'Edge cracking', 'linear_ft', 7],
  ['joint_reflection_cracking', 'Joint reflection cracking', 'linear_ft', 8],
  ['lane_shoulder_drop_off', 'Lane/shoulder drop-off', 'linear_ft', 9],
  ['longitudinal_transverse_cracking', 'Longitudinal and transverse cracking', 'linear_ft', 10],
  ['patching', 'Patching and utility cut patching', 'sq_ft', 11],
  ['polished_aggregate', 'Polished aggregate', 'sq_ft', 12],
  ['potholes', 'Potholes', 'count', 13],
  ['railroad_crossing', 'Railroad crossing', 'sq_ft', 14],
  ['rutting', 'Rutting', 'sq_ft', 15],
  ['shoving', 'Shoving', 'sq_ft', 16],
  ['slippage_cracking', 'Slippage cracking', 'sq_ft', 17],
  ['swell', 'Swell', 'sq_ft', 18],
  ['weathering_raveling', 'Weathering and raveling', 'sq_ft', 19],
]);

// The concrete subset: slab distresses a photo from above can show. Each is measured as the
// number of slabs showing it, at its worst severity per slab, as ASTM D6433 does for jointed concrete.
export const CONCRETE_DISTRESSES: readonly DistressKind[] = kinds('concrete', [
  ['corner_break', 'Corner break', 'slabs', 22],
  ['divided_slab', 'Divided slab', 'slabs', 23],
  ['durability_cracking', 'Durability ("D") cracking', 'slabs', 24],
  ['faulting', 'Faulting', 'slabs', 25],
  ['joint_seal_damage', 'Joint seal damage', 'slabs', 26],
  ['linear_cracking', 'Linear cracking', 'slabs', 28],
  ['patching_large', 'Patching, large, and utility cuts', 'slabs', 29],
  ['patching_small', 'Patching, small', 'slabs', 30],
  ['popouts', 'Popouts', 'slabs', 32],
  ['scaling', 'Scaling, map cracking and crazing', 'slabs', 36],
  ['shrinkage_cracks', 'Shrinkage cracks', 'slabs', 37],
  ['spalling_corner', 'Spalling, corner', 'slabs', 38],
  ['spalling_joint', 'Spalling, joint', 'slabs', 39],
]);

const BY_TYPE: Record<PavementType, Map<string, DistressKind>> = {
  asphalt: new Map(ASPHALT_DISTRESSES.map((d) => [d.type, d])),
  concrete: new Map(CONCRETE_DISTRESSES.map((d) => [d.type, d])),
};

/** The catalogue entry of a distress type on a pavement type, or undefined when it has none. */
export function distressKind(pavement_type: PavementType, type: string): DistressKind | undefined {
  return BY_TYPE[pavement_type].get(type);
}
