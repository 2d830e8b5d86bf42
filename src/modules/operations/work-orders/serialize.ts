// A work order (and a hold) on the wire, and its row in the work_orders export.
import type { WorkOrder } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { locksCrewDays } from '../schedule/crew-days.ts';
import { daysOf, skippedOf } from './days.ts';
import type { WorkOrderObject } from './schemas.ts';

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function lockedDaysOf(wo: WorkOrder): string[] {
  return locksCrewDays({
    is_hold: wo.is_hold === 1,
    published: wo.published === 1,
    crew_id: wo.crew_id,
    status: wo.status,
  })
    ? daysOf(wo)
    : [];
}

export function workOrderObject(wo: WorkOrder): WorkOrderObject {
  return {
    id: wo.id,
    job_id: wo.job_id,
    title: wo.title,
    status: wo.status,
    phase: wo.phase,
    crew_id: wo.crew_id,
    display_qty: num(wo.display_qty),
    display_unit: wo.display_unit,
    completed_qty: num(wo.completed_qty),
    completed_unit: wo.completed_unit,
    estimated_days: Number(wo.estimated_days),
    scheduled_date: wo.scheduled_date,
    end_date: wo.end_date,
    start_time: wo.start_time,
    end_time: wo.end_time,
    is_hold: wo.is_hold === 1,
    published: wo.published === 1,
    locked_days: lockedDaysOf(wo),
    skipped_dates: skippedOf(wo.skipped_dates),
    estimate_service_id: wo.estimate_service_id,
    scope: wo.scope,
    address: wo.address,
    dispatch_notes: wo.dispatch_notes,
    job_is_placeholder: wo.job_is_placeholder === 1,
    dispatched_at: zWire(wo.dispatched_at),
    completed_at: zWire(wo.completed_at),
    cancelled_at: zWire(wo.cancelled_at),
    created_at: zWire(wo.created_at),
    updated_at: zWire(wo.updated_at),
  };
}

/** Document 3's work_orders row. */
export function workOrderExportRow(wo: WorkOrder) {
  return {
    id: wo.id,
    job_id: wo.job_id,
    title: wo.title,
    status: wo.status,
    phase: wo.phase,
    crew_id: wo.crew_id,
    display_qty: num(wo.display_qty),
    display_unit: wo.display_unit,
    completed_qty: num(wo.completed_qty),
    completed_unit: wo.completed_unit,
    estimated_days: Number(wo.estimated_days),
    scheduled_date: wo.scheduled_date,
    dispatched_at: zWire(wo.dispatched_at),
    completed_at: zWire(wo.completed_at),
    created_at: zWire(wo.created_at),
    updated_at: zWire(wo.updated_at),
  };
}
