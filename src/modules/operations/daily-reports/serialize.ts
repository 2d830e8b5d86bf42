// A daily report on the wire (document 2's fields exactly).
import { zWire } from '#platform/time.ts';
import type { DailyReportRow } from './repo.ts';
import type { DailyReportObject } from './schemas.ts';

export function dailyReportObject(row: DailyReportRow): DailyReportObject {
  return {
    id: row.id,
    job_id: row.job_id,
    work_order_id: row.work_order_id,
    estimate_service_id: row.estimate_service_id,
    date: row.date,
    submitted_by: row.submitted_by_user_id === null ? null : { id: row.submitted_by_user_id, name: row.by_name ?? '' },
    weather: row.weather,
    work_performed: row.work_performed,
    delay_notes: row.delay_notes,
    safety_notes: row.safety_notes,
    material_notes: row.material_notes,
    equipment_notes: row.equipment_notes,
    completed_quantity: row.completed_quantity === null ? null : Number(row.completed_quantity),
    completed_unit: row.completed_unit,
    answers: JSON.parse(row.answers) as Record<string, unknown>,
    photo_count: Number(row.photo_count ?? 0),
    created_at: zWire(row.created_at),
  };
}
