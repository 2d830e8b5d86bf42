// A site assessment on the wire (document 3, Assessment; timestamps UTC Z to the second).
import { storedOneOf } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import type { AssessmentRow } from './repo.ts';
import { ASSESSMENT_SCOPES, ASSESSMENT_STATUSES, type Assessment } from './schemas.ts';

export function assessmentObject(a: AssessmentRow): Assessment {
  return {
    id: a.id,
    job_id: a.job_id,
    location_id: a.location_id,
    scope: storedOneOf(ASSESSMENT_SCOPES, a.scope),
    title: a.title,
    notes: a.notes,
    status: storedOneOf(ASSESSMENT_STATUSES, a.status),
    pin_count: Number(a.pin_count ?? 0),
    created_by:
      a.created_by_user_id !== null && a.created_by_name !== null
        ? { id: a.created_by_user_id, name: a.created_by_name }
        : null,
    completed_at: zWire(a.completed_at),
    created_at: zWire(a.created_at),
    updated_at: zWire(a.updated_at),
  };
}
