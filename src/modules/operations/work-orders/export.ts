// The work_orders export dataset (document 3: id, job_id, title, status, phase, crew_id,
// display_qty, display_unit, completed_qty, completed_unit, estimated_days, scheduled_date,
// dispatched_at, completed_at, created_at, updated_at), changed-since by updated_at, only work on
// jobs the user sees. Holds are not work and stay out (GET /v1/schedule/holds lists them).
import type { WorkOrder } from '#db/tables.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { workOrdersOf } from './repo.ts';
import { workOrderExportRow } from './serialize.ts';

export const workOrdersDataset = defineDataset({
  name: 'work_orders',
  description: 'Work orders (crew visits) with their schedule and completion',
  changedSinceFields: ['updated_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = workOrdersOf(db, firmId, user).where('work_orders.is_hold', '=', 0).where('work_orders.id', '>', afterId);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['work_orders.updated_at'], updatedAfter));
    return qb.orderBy('work_orders.id').limit(limit).execute() as Promise<WorkOrder[]>;
  },
  toRow: (row: WorkOrder) => workOrderExportRow(row),
});
