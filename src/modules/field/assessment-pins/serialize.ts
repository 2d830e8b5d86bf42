// A pin on the wire (document 3, Pin). Its photos are read by photos.ts (signed links need the
// storage and the request's origin) and passed in; a pin read without them shows none.
import { storedOneOf } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { MEASUREMENT_TYPES } from '#field/assessment-services/schemas.ts';
import { DEFAULT_PHOTO_TAG_COLOR } from '#field/photo-tags/service.ts';
import { findDefectType } from '#field/assessment-defect-types/list.ts';
import { pinLabel } from './label.ts';
import { MEASUREMENT_UNITS } from './measurement.ts';
import type { PinRow } from './repo.ts';
import { SEVERITIES, SIZES, VISIBILITIES, type Pin, type PinPhoto } from './schemas.ts';

/** A pin shows its service's color, else its tag's, else the gray of an untagged photo tag. */
export const pinColor = (p: Pick<PinRow, 'service_color' | 'tag_color'>) =>
  p.service_color ?? p.tag_color ?? DEFAULT_PHOTO_TAG_COLOR;

export function pinObject(p: PinRow, photos: PinPhoto[] = []): Pin {
  const defect = p.defect_type_id === null ? undefined : findDefectType(p.defect_type_id);
  return {
    id: p.id,
    job_id: p.job_id,
    assessment_id: p.assessment_id,
    label: pinLabel(p),
    name: p.name,
    latitude: Number(p.latitude),
    longitude: Number(p.longitude),
    service_type:
      p.service_type_id !== null && p.service_name !== null ? { id: p.service_type_id, name: p.service_name } : null,
    tag: p.tag_id !== null && p.tag_name !== null ? { id: p.tag_id, name: p.tag_name } : null,
    defect_type: defect ? { id: defect.id, name: defect.name } : null,
    color: pinColor(p),
    severity: storedOneOf(SEVERITIES, p.severity),
    size: storedOneOf(SIZES, p.size),
    notes: p.notes,
    visibility: storedOneOf(VISIBILITIES, p.visibility),
    keep_for_proposal: p.keep_for_proposal === 1,
    measurement: {
      type: storedOneOf(MEASUREMENT_TYPES, p.measurement_type),
      value: p.measurement_value === null ? null : Number(p.measurement_value),
      unit: p.measurement_unit === null ? null : storedOneOf(MEASUREMENT_UNITS, p.measurement_unit),
      data: JSON.parse(p.measurement_data) as Record<string, unknown>,
    },
    ai_severity: p.ai_severity,
    ai_rationale: p.ai_rationale,
    photos,
    created_by_user_id: p.created_by_user_id,
    created_at: zWire(p.created_at),
    updated_at: zWire(p.updated_at),
  };
}
