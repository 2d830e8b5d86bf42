// The engines' input contract (docs/condition.md, "Input"), read and checked. Pure.
//
// {
//   pavement_type?: 'asphalt' | 'concrete'        default asphalt
//   sample_area_sqft?: number                     rated pavement area; needed when an asphalt
//                                                 distress gives quantity instead of density_pct
//   sample_slabs?: number                         slabs rated; needed when a concrete distress
//                                                 gives quantity
//   distresses: [{
//     type: string                                a key of the catalogue (distresses.ts)
//     severity: 'low' | 'medium' | 'high'
//     quantity?: number                           in the type's measure (sq ft, linear ft, count,
//                                                 slabs), with the sample size above; or
//     density_pct?: number                        the density itself, in the type's density unit
//                                                 (what the detector and vision endpoint report)
//     density_unit?: string                       when given, must be the type's density unit
//     ...                                         anything else (label, where) is ignored, so a
//                                                 detector's distress objects pass as they are
//   }]
// }
// Exactly one of quantity and density_pct per distress. Entries of the same type and severity are
// added up, as the standard does for a sample unit. Mistakes throw ConditionInputError naming the
// place in the input.
import {
  type DistressKind,
  distressKind,
  PAVEMENT_TYPES,
  type PavementType,
  SEVERITIES,
  type Severity,
} from './distresses.ts';

export interface DistressInput {
  type: string;
  severity: Severity;
  quantity?: number;
  density_pct?: number;
  density_unit?: string;
  [other: string]: unknown;
}

export interface ConditionInput {
  pavement_type?: PavementType;
  sample_area_sqft?: number;
  sample_slabs?: number;
  distresses: DistressInput[];
}

/** One type at one severity, its density summed over the input's entries. */
export interface DistressDensity {
  kind: DistressKind;
  severity: Severity;
  density_pct: number;
}

export class ConditionInputError extends Error {
  readonly code: string;
  readonly path: string;
  constructor(code: string, message: string, path: string) {
    super(`${path}: ${message}`);
    this.name = 'ConditionInputError';
    this.code = code;
    this.path = path;
  }
}

const isNonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

export function readInput(input: ConditionInput): { pavement_type: PavementType; densities: DistressDensity[] } {
  const pavement_type = input.pavement_type ?? 'asphalt';
  if (!PAVEMENT_TYPES.includes(pavement_type))
    throw new ConditionInputError('invalid_pavement_type', 'must be asphalt or concrete', 'pavement_type');
  if (!Array.isArray(input.distresses))
    throw new ConditionInputError('invalid_distresses', 'must be an array', 'distresses');
  const sampleKey = pavement_type === 'asphalt' ? 'sample_area_sqft' : 'sample_slabs';
  const sample = input[sampleKey];
  if (sample !== undefined && !(typeof sample === 'number' && Number.isFinite(sample) && sample > 0))
    throw new ConditionInputError('invalid_sample', 'must be a positive number', sampleKey);

  const groups = new Map<string, DistressDensity>();
  input.distresses.forEach((d, i) => {
    const path = `distresses[${i}]`;
    const kind = distressKind(pavement_type, d?.type);
    if (!kind)
      throw new ConditionInputError(
        'unknown_distress',
        `no ${pavement_type} distress type "${d?.type}"`,
        `${path}.type`,
      );
    if (!SEVERITIES.includes(d.severity))
      throw new ConditionInputError('invalid_severity', 'must be low, medium or high', `${path}.severity`);
    if (d.density_unit !== undefined && d.density_unit !== kind.density_unit)
      throw new ConditionInputError(
        'density_unit_mismatch',
        `${kind.type} is measured in ${kind.density_unit}, not ${String(d.density_unit)}`,
        `${path}.density_unit`,
      );
    const hasQuantity = d.quantity !== undefined;
    const hasDensity = d.density_pct !== undefined;
    if (hasQuantity === hasDensity)
      throw new ConditionInputError('quantity_or_density', 'give exactly one of quantity and density_pct', path);
    let density: number;
    if (hasDensity) {
      if (!isNonNegative(d.density_pct))
        throw new ConditionInputError('invalid_density', 'must be a number of at least 0', `${path}.density_pct`);
      density = d.density_pct;
    } else {
      if (!isNonNegative(d.quantity))
        throw new ConditionInputError('invalid_quantity', 'must be a number of at least 0', `${path}.quantity`);
      if (sample === undefined)
        throw new ConditionInputError('missing_sample', `a quantity needs ${sampleKey}`, `${path}.quantity`);
      // ASTM D6433: density = quantity ÷ sample size × 100.
      density = (d.quantity / sample) * 100;
    }
    const key = `${kind.type}/${d.severity}`;
    const group = groups.get(key);
    if (group) group.density_pct += density;
    else groups.set(key, { kind, severity: d.severity, density_pct: density });
  });
  // Sums of quotients carry binary noise (0.2 + 0.16 + 0.16 = 0.5599999…); a millionth of a
  // percent is far below any curve's resolution.
  for (const g of groups.values()) g.density_pct = Math.round(g.density_pct * 1e6) / 1e6;
  return { pavement_type, densities: [...groups.values()] };
}
