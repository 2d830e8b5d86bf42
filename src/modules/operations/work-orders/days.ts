// The calendar days a work order covers (docs/api-decisions.md, "Operations: work orders"): its
// scheduled date and the days after it, as many as its estimated days rounded up (half a day is a
// day on the calendar), calendar days including weekends, with skipped days (approved skip
// requests) taken out and the visit running one day longer for each. Pure.
import { addDays } from '#platform/time.ts';

/** Days a visit may have taken off: a skip is one day, and a visit skipping more is rescheduled. */
export const MAX_SKIPPED_DAYS = 31;

export function daysCovered(scheduledDate: string, estimatedDays: number, skipped: readonly string[] = []): string[] {
  const wanted = Math.max(1, Math.ceil(estimatedDays - 1e-9));
  const off = new Set(skipped);
  const days: string[] = [];
  for (let day = scheduledDate; days.length < wanted; day = addDays(day, 1)) if (!off.has(day)) days.push(day);
  return days;
}

export function skippedOf(stored: string | null): string[] {
  return stored === null ? [] : (JSON.parse(stored) as string[]);
}

/** The days of a stored work order: none unscheduled or cancelled; cut at end_date once completed early. */
export function daysOf(wo: {
  scheduled_date: string | null;
  estimated_days: number;
  skipped_dates: string | null;
  end_date: string | null;
  status: string;
}): string[] {
  if (wo.scheduled_date === null || wo.status === 'cancelled') return [];
  const days = daysCovered(wo.scheduled_date, Number(wo.estimated_days), skippedOf(wo.skipped_dates));
  return wo.end_date === null ? days : days.filter((d) => d <= wo.end_date!);
}
