// The condition engines' public surface (docs/condition.md). Pure: no I/O.
//
// Input contract (input.ts has it in full), shared by ratePci and ratePaser:
//   { pavement_type?: 'asphalt' | 'concrete',
//     sample_area_sqft?: number, sample_slabs?: number,
//     distresses: [{ type, severity: 'low' | 'medium' | 'high', quantity? | density_pct?, density_unit?, ... }] }
// A distress gives either quantity (in its type's measure, with the sample size) or density_pct (in
// its type's density unit: the detector's and the vision endpoint's distresses pass as they are).
export { ratePci, deductValue, PCI_RUBRIC_VERSION } from './pci.ts';
export type { PciResult, PciDeduct, PciMethod } from './pci.ts';
export type { CdvRow } from './corrected-deduct.ts';
export { ratePaser, paserRating, PASER_RATINGS, PASER_RUBRIC_VERSION } from './paser.ts';
export type { PaserLimit, PaserRating, PaserResult } from './paser.ts';
export { PASER_RULES } from './paser-rules.ts';
export type { PaserRule } from './paser-rules.ts';
export { PCI_BANDS, pciBand } from './bands.ts';
export type { PciBand } from './bands.ts';
export {
  ASPHALT_DISTRESSES,
  CONCRETE_DISTRESSES,
  distressKind,
  PAVEMENT_TYPES,
  SEVERITIES,
} from './distresses.ts';
export type { DensityUnit, DistressKind, MeasureUnit, PavementType, Severity } from './distresses.ts';
export { ConditionInputError } from './input.ts';
export type { ConditionInput, DistressInput } from './input.ts';
