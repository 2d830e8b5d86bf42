// Pavement Condition Index (docs/condition.md, "PCI"). Pure.
// Asphalt: ASTM D6433 — density per type and severity, a deduct value from the digitized deduct
// curves, the corrected-deduct procedure (corrected-deduct.ts), PCI = 100 − maximum CDV.
// Concrete: `visual_estimate` — the same arithmetic with the standard's jointed-concrete curves
// over slab densities estimated from a picture rather than counted slab by slab in a sample unit,
// and with the concrete corrected-deduct curves the source does not digitize read between their
// neighbours; so it is labelled an estimate, not ASTM.
import { ASPHALT_DEDUCT_CURVES } from './asphalt-deduct-curves.ts';
import { type PciBand, pciBand } from './bands.ts';
import { CONCRETE_DEDUCT_CURVES } from './concrete-deduct-curves.ts';
import { ASPHALT_CDV_CURVES, CONCRETE_CDV_CURVES, type CorrectedDeductCurves } from './corrected-deduct-curves.ts';
import { type CdvRow, correctDeducts, round1 } from './corrected-deduct.ts';
import { type ChartAxis, type DeductCurveSet, readCorrectedDeduct, readDeductCurve } from './curves.ts';
import type { PavementType, Severity } from './distresses.ts';
import { type ConditionInput, readInput } from './input.ts';

export const PCI_RUBRIC_VERSION = 'pci-astm-d6433-1';

export type PciMethod = 'astm_d6433' | 'visual_estimate';

export interface PciDeduct {
  distress: string;
  severity: Severity;
  density_pct: number;
  deduct_value: number;
}

export interface PciResult {
  score: number;
  label: string;
  strategy: string;
  color: string;
  recommended_treatment: string;
  method: PciMethod;
  pavement_type: PavementType;
  /** Every distress group's deduct, largest first. */
  deducts: PciDeduct[];
  /** The highest deduct value (HDV). */
  highest_deduct: number;
  /** m = 1 + (9/98)(100 − HDV), at most 10; null when at most one deduct is over 2.0. */
  allowed_deducts: number | null;
  /** Each row of the corrected-deduct iteration, in order. */
  iterations: CdvRow[];
  max_corrected_deduct: number;
  rubric_version: string;
}

const METHODS: Record<
  PavementType,
  { method: PciMethod; curves: DeductCurveSet; axis: ChartAxis; cdv: CorrectedDeductCurves }
> = {
  asphalt: { method: 'astm_d6433', curves: ASPHALT_DEDUCT_CURVES, axis: 'log', cdv: ASPHALT_CDV_CURVES },
  concrete: { method: 'visual_estimate', curves: CONCRETE_DEDUCT_CURVES, axis: 'linear', cdv: CONCRETE_CDV_CURVES },
};

/** The deduct value, to 0.1 as on the standard's worksheet, of one type at one severity and density. */
export function deductValue(
  pavement_type: PavementType,
  type: string,
  severity: Severity,
  density_pct: number,
): number {
  const m = METHODS[pavement_type];
  const curve = m.curves[type];
  if (!curve) throw new RangeError(`no ${pavement_type} deduct curve for ${type}`);
  return round1(readDeductCurve(curve, m.axis, severity, density_pct));
}

export function ratePci(input: ConditionInput): PciResult {
  const { pavement_type, densities } = readInput(input);
  const m = METHODS[pavement_type];
  const deducts: PciDeduct[] = densities
    .map((d) => ({
      distress: d.kind.type,
      severity: d.severity,
      density_pct: d.density_pct,
      deduct_value: deductValue(pavement_type, d.kind.type, d.severity, d.density_pct),
    }))
    .sort((a, b) => b.deduct_value - a.deduct_value);
  const corrected = correctDeducts(
    deducts.map((d) => d.deduct_value),
    (q, tdv) => readCorrectedDeduct(m.cdv, q, tdv),
  );
  const score = Math.max(0, round1(100 - corrected.max_corrected_deduct));
  const band: PciBand = pciBand(score);
  return {
    score,
    label: band.label,
    strategy: band.strategy,
    color: band.color,
    recommended_treatment: band.recommended_treatment,
    method: m.method,
    pavement_type,
    deducts,
    highest_deduct: corrected.highest_deduct,
    allowed_deducts: corrected.allowed_deducts,
    iterations: corrected.rows,
    max_corrected_deduct: corrected.max_corrected_deduct,
    rubric_version: PCI_RUBRIC_VERSION,
  };
}
