// The assessment detail's roll-ups (document 3: services [{label, color, pin_count, photo_count,
// quantities [{unit, value}], severities {low, medium, high}, pin_ids}], severity_totals): pure.
// Pins without a service roll up together as "Other pins", last; services follow their order in
// GET /v1/assessment-services. Quantities are summed in hundredths, so the sum of 0.1 and 0.2 is 0.3.
import { pinColor } from '#field/assessment-pins/serialize.ts';
import { MEASUREMENT_UNITS, type MeasurementUnit } from '#field/assessment-pins/measurement.ts';
import type { PinRow } from '#field/assessment-pins/repo.ts';
import type { Severity } from '#field/assessment-pins/schemas.ts';

export type SeverityCounts = Record<Severity, number>;

export interface ServiceRollup {
  service_type_id: number | null;
  label: string;
  color: string;
  pin_count: number;
  photo_count: number;
  quantities: { unit: MeasurementUnit; value: number }[];
  severities: SeverityCounts;
  pin_ids: number[];
}

export const OTHER_PINS_LABEL = 'Other pins';

const noSeverities = (): SeverityCounts => ({ low: 0, medium: 0, high: 0 });

export function rollUp(pins: readonly PinRow[]): { services: ServiceRollup[]; severity_totals: SeverityCounts } {
  const groups = new Map<
    number | null,
    { order: number; rollup: ServiceRollup; hundredths: Map<MeasurementUnit, number> }
  >();
  const totals = noSeverities();
  for (const p of pins) {
    const key = p.service_name === null ? null : p.service_type_id;
    let g = groups.get(key);
    if (!g) {
      g = {
        order: key === null ? Number.MAX_SAFE_INTEGER : (p.service_position ?? 0),
        hundredths: new Map(),
        rollup: {
          service_type_id: key,
          label: key === null ? OTHER_PINS_LABEL : p.service_name!,
          color: key === null ? pinColor({ service_color: null, tag_color: null }) : pinColor(p),
          pin_count: 0,
          photo_count: 0,
          quantities: [],
          severities: noSeverities(),
          pin_ids: [],
        },
      };
      groups.set(key, g);
    }
    const r = g.rollup;
    r.pin_count += 1;
    r.photo_count += Number(p.photo_count ?? 0);
    r.pin_ids.push(p.id);
    r.severities[p.severity] += 1;
    totals[p.severity] += 1;
    if (p.measurement_unit !== null && p.measurement_value !== null) {
      const unit = p.measurement_unit;
      g.hundredths.set(unit, (g.hundredths.get(unit) ?? 0) + Math.round(Number(p.measurement_value) * 100));
    }
  }
  const services = [...groups.values()]
    .sort((a, b) => a.order - b.order || (a.rollup.service_type_id ?? 0) - (b.rollup.service_type_id ?? 0))
    .map((g) => ({
      ...g.rollup,
      quantities: MEASUREMENT_UNITS.filter((u) => g.hundredths.has(u)).map((unit) => ({
        unit,
        value: g.hundredths.get(unit)! / 100,
      })),
    }));
  return { services, severity_totals: totals };
}
