// What the detector (built-in, engines/distress) or the vision endpoint saw in an image, in one
// shape, and how it becomes the engines' input. The built-in detector names asphalt distresses;
// on concrete they are read as the slab distresses they show (docs/condition.md, "Concrete"):
// a crack of L linear feet per 100 sq ft crosses about 0.12 × L of 12 ft slabs (a 144 sq ft slab
// holds 1.44 L ft of crack, and a crack crossing one is about 12 ft long), and an area distress
// covering A% of the pavement marks about A% of the slabs.
import type { DistressInput, Severity } from '#engines/condition/index.ts';

export interface FoundDistress {
  type: string;
  severity: Severity;
  density_pct: number;
  density_unit: string | null;
  where: string | null;
}

export interface Findings {
  visible_pavement_pct: number;
  pavement_type: 'asphalt' | 'concrete';
  view: 'aerial' | 'ground' | 'other';
  quality: 'good' | 'fair' | 'poor';
  confidence: number;
  distresses: FoundDistress[];
  limitations: string[];
}

const SLAB_DISTRESS: Record<string, { type: string; fromLinear: boolean }> = {
  longitudinal_transverse_cracking: { type: 'linear_cracking', fromLinear: true },
  edge_cracking: { type: 'linear_cracking', fromLinear: true },
  joint_reflection_cracking: { type: 'joint_seal_damage', fromLinear: true },
  alligator_cracking: { type: 'divided_slab', fromLinear: false },
  block_cracking: { type: 'shrinkage_cracks', fromLinear: false },
  potholes: { type: 'spalling_corner', fromLinear: false },
  patching: { type: 'patching_large', fromLinear: false },
  weathering_raveling: { type: 'scaling', fromLinear: false },
};

const CONCRETE_TYPES = new Set(Object.values(SLAB_DISTRESS).map((d) => d.type));

/** The distresses as the engines read them, on the pavement they were found on. */
export function engineDistresses(f: Findings): FoundDistress[] {
  if (f.pavement_type === 'asphalt') return f.distresses;
  return f.distresses.flatMap((d): FoundDistress[] => {
    if (CONCRETE_TYPES.has(d.type) || d.density_unit === 'slabs') return [d];
    const slab = SLAB_DISTRESS[d.type];
    if (!slab) return [];
    const pct = slab.fromLinear ? 12 * d.density_pct : d.density_pct;
    return [{ ...d, type: slab.type, density_pct: Math.min(100, Math.round(pct * 100) / 100), density_unit: 'slabs' }];
  });
}

export const asEngineInput = (d: FoundDistress): DistressInput => ({
  type: d.type,
  severity: d.severity,
  density_pct: d.density_pct,
});
