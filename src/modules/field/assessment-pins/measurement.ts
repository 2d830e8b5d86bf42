// A pin's measurement (document 3, Pin: measurement {type, value, unit, data}) from what the
// client sent: pure, no I/O. Dimensions and volume are computed from length_ft, width_ft and
// depth_in (docs/api-decisions.md, Site assessments and pins):
//   dimensions: value = length_ft × width_ft, in SF
//   volume:     value = length_ft × width_ft × (depth_in / 12) / 27, in CY
// Each value is rounded half up to two decimals, once, at the end.
import { invalidField } from '#platform/errors.ts';
import type { MeasurementType } from '#field/assessment-services/schemas.ts';

export const MEASUREMENT_UNITS = ['EA', 'SF', 'LF', 'CY'] as const;
export type MeasurementUnit = (typeof MEASUREMENT_UNITS)[number];

/** The one unit each kind of measurement is in. */
export const UNIT_OF: Record<MeasurementType, MeasurementUnit | null> = {
  none: null,
  count: 'EA',
  sqft: 'SF',
  dimensions: 'SF',
  volume: 'CY',
  lf: 'LF',
};

/** What a unit sent without a type means. */
const TYPE_OF_UNIT: Record<MeasurementUnit, MeasurementType> = { EA: 'count', SF: 'sqft', LF: 'lf', CY: 'volume' };

export interface MeasurementInput {
  type?: MeasurementType;
  value?: number | null;
  unit?: MeasurementUnit | null;
  length_ft?: number | null;
  width_ft?: number | null;
  depth_in?: number | null;
  data?: Record<string, unknown>;
}

export interface Measurement {
  type: MeasurementType;
  value: number | null;
  unit: MeasurementUnit | null;
  /** The client's measurement_data with the dimensions it was computed from. */
  data: Record<string, unknown>;
  length_ft: number | null;
  width_ft: number | null;
  depth_in: number | null;
}

/**
 * Rounds half up (away from zero) to two decimals. Float noise is cut first (12 significant
 * digits), so 1.005, stored as 1.00499999…, rounds to 1.01 as a person expects.
 */
export function round2(x: number): number {
  const clean = x.toPrecision(12);
  if (clean.includes('e')) return Math.round(x * 100) / 100;
  const scaled = Number(`${clean}e2`);
  return Number(`${Math.sign(scaled) * Math.round(Math.abs(scaled))}e-2`) + 0;
}

export const squareFeet = (lengthFt: number, widthFt: number) => round2(lengthFt * widthFt);

/** Cubic yards of a slab: L ft × W ft × (D in / 12) ft / 27 ft³ per yd³ = L × W × D / 324. */
export const cubicYards = (lengthFt: number, widthFt: number, depthIn: number) =>
  round2((lengthFt * widthFt * depthIn) / 324);

/**
 * The measurement of a pin. The type is the one sent, else what the dimensions sent make
 * (length, width and depth: volume; length and width: dimensions), else what the unit sent
 * means, else the service's type, else none. A unit that is not the type's unit is a 400.
 */
export function measure(input: MeasurementInput, serviceType: MeasurementType | null): Measurement {
  const L = input.length_ft ?? null;
  const W = input.width_ft ?? null;
  const D = input.depth_in ?? null;
  const type: MeasurementType =
    input.type ??
    (L !== null && W !== null && D !== null
      ? 'volume'
      : L !== null && W !== null
        ? 'dimensions'
        : input.unit
          ? TYPE_OF_UNIT[input.unit]
          : (serviceType ?? 'none'));
  const unit = UNIT_OF[type];
  if (input.unit != null && input.unit !== unit) {
    throw invalidField(
      'measurement_unit',
      unit === null
        ? 'measurement_unit must be empty for a measurement of type none'
        : `measurement_unit must be ${unit} for a ${type} measurement`,
    );
  }
  const sent = input.value ?? null;
  let value: number | null;
  switch (type) {
    case 'none':
      value = null;
      break;
    case 'dimensions':
      value = L !== null && W !== null ? squareFeet(L, W) : sent;
      break;
    case 'volume':
      value = L !== null && W !== null && D !== null ? cubicYards(L, W, D) : sent;
      break;
    case 'sqft':
      value = sent ?? (L !== null && W !== null ? squareFeet(L, W) : null);
      break;
    case 'lf':
      value = sent ?? L;
      break;
    case 'count':
      value = sent ?? 1;
      break;
  }
  const data: Record<string, unknown> = { ...(input.data ?? {}) };
  if (L !== null) data.length_ft = L;
  if (W !== null) data.width_ft = W;
  if (D !== null) data.depth_in = D;
  if (type === 'volume' && L !== null && W !== null) data.area_sqft = squareFeet(L, W);
  return { type, value: value === null ? null : round2(value), unit, data, length_ft: L, width_ft: W, depth_in: D };
}
