// job_scheduled and work_order_completed (document 1, Business events: entity work_order; data
// work_order_id, scheduled_date, previous_scheduled_date (null on first scheduling), crew_id; and
// work_order_id, completed_at), recorded in the change's transaction. Holds are not work: they
// record neither (docs/api-decisions.md, "Operations: work orders").
import type { Executor } from '#db/dialect.ts';
import type { WorkOrder } from '#db/tables.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { zWire } from '#platform/time.ts';

export async function recordJobScheduled(trx: Executor, wo: WorkOrder, previous: string | null): Promise<void> {
  if (wo.is_hold === 1 || wo.scheduled_date === null || wo.scheduled_date === previous) return;
  await recordBusinessEvent(trx, {
    firmId: wo.firm_id,
    type: 'job_scheduled',
    entity: { type: 'work_order', id: wo.id },
    jobId: wo.job_id,
    data: {
      work_order_id: wo.id,
      scheduled_date: wo.scheduled_date,
      previous_scheduled_date: previous,
      crew_id: wo.crew_id,
    },
  });
}

export async function recordWorkOrderCompleted(trx: Executor, wo: WorkOrder): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: wo.firm_id,
    type: 'work_order_completed',
    entity: { type: 'work_order', id: wo.id },
    jobId: wo.job_id,
    data: { work_order_id: wo.id, completed_at: zWire(wo.completed_at) },
  });
}
