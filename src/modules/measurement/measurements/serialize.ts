// A measurement as the API answers it (docs/measurement.md, "The measurement object").
import type { Static } from '@sinclair/typebox';
import type { Measurement } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import type { MeasurementSchema } from './schemas.ts';

/** Said on every measurement: the numbers come from imagery and a detector, to be checked on site. */
export const SCREENING_NOTE =
  'Measured from aerial imagery by image analysis: a screening takeoff. Check it against the site before you bid; edits are kept in its history.';

export function measurementObject(m: Measurement): Static<typeof MeasurementSchema> {
  return {
    id: m.id,
    object: 'measurement',
    name: m.name,
    job_id: m.job_id,
    status: 'completed',
    started_from: m.started_from,
    address: m.address,
    tiles: m.tiles === null ? null : JSON.parse(m.tiles),
    bounds: { north: m.north, south: m.south, east: m.east, west: m.west },
    imagery: JSON.parse(m.imagery),
    detector: m.detector,
    area: m.area_sqft,
    unit: 'sf',
    totals: JSON.parse(m.totals),
    rev: m.rev,
    shape_count: m.shape_count,
    format: m.format,
    locked_for_review: m.locked_for_review === 1,
    typed_quantities: JSON.parse(m.typed_quantities),
    screening_note: SCREENING_NOTE,
    editor_url: `/app/measurements/${m.id}`,
    created_by_user_id: m.created_by_user_id,
    created_at: zWire(m.created_at),
    updated_at: zWire(m.updated_at),
  };
}
