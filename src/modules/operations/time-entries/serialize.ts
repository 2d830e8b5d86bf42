// A time entry on the wire: the labor row (GET /v1/time-entries, GET /v1/jobs/{id}/labor, the
// time_entries export). Pay only for users who may see pay: absent otherwise.
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';
import { hoursOf as hoursOfMs } from '#engines/payroll/index.ts';
import { type EntryHours, payCents } from './hours.ts';
import type { TimeEntryRow } from './repo.ts';
import type { LaborRowObject } from './schemas.ts';

export function laborRow(row: TimeEntryRow, hours: EntryHours, seesPay: boolean): LaborRowObject {
  const s = hours.split;
  const h = (ms: number | undefined) => (s === null || ms === undefined ? null : hoursOfMs(ms));
  const out: LaborRowObject = {
    id: row.id,
    user_id: row.user_id,
    user: { id: row.user_id, name: row.user_name },
    job_id: row.job_id,
    work_order_id: row.work_order_id,
    cost_code: row.cost_code,
    clock_in: zWire(row.clock_in),
    clock_out: zWire(row.clock_out),
    date: hours.date,
    regular_hours: h(s?.regularMs),
    overtime_hours: h(s?.overtimeMs),
    doubletime_hours: h(s?.doubletimeMs),
    total_hours: s === null ? null : hoursOfMs(s.regularMs + s.overtimeMs + s.doubletimeMs),
    approved_at: zWire(row.approved_at),
    voided_at: zWire(row.voided_at),
    void_reason: row.void_reason,
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
  if (seesPay) {
    const rate = row.pay_rate_cents === null ? null : Number(row.pay_rate_cents);
    out.pay_rate = centsToDollars(rate);
    out.pay = centsToDollars(payCents(rate, s));
  }
  return out;
}
