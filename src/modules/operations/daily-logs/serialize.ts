// A daily log on the wire: who acted as {id, name}, timestamps Z to the second.
import { zWire } from '#platform/time.ts';
import type { DailyReportObject } from '../daily-reports/schemas.ts';
import type { DailyLogRow } from './repo.ts';
import type { DailyLogObject, DailyLogWithReportsObject } from './schemas.ts';

const person = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

export function dailyLogObject(row: DailyLogRow): DailyLogObject {
  return {
    id: row.id,
    work_order_id: row.work_order_id,
    job_id: row.job_id,
    date: row.date,
    status: row.status,
    notes: row.notes,
    submitted_at: zWire(row.submitted_at),
    submitted_by: person(row.submitted_by_user_id, row.submitted_by_name),
    office_approved_at: zWire(row.office_approved_at),
    office_approved_by: person(row.office_approved_by_user_id, row.office_approved_by_name),
    payroll_approved_at: zWire(row.payroll_approved_at),
    payroll_approved_by: person(row.payroll_approved_by_user_id, row.payroll_approved_by_name),
    returned_at: zWire(row.returned_at),
    return_note: row.return_note,
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
}

export function dailyLogWithReports(row: DailyLogRow, reports: DailyReportObject[]): DailyLogWithReportsObject {
  return { ...dailyLogObject(row), daily_reports: reports };
}
