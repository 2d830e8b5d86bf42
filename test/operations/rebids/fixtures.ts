// A completed work order written straight to the table, for the re-bid and completed-site tests
// that need one before (or without) the work-order endpoints: the row the completion leaves.
import type { TestApp } from '#test/helpers/harness.ts';

export async function completedWorkOrder(
  t: TestApp,
  firmId: number,
  jobId: number,
  fields: { title: string; completedAt: string; phase?: string | null; estimateServiceId?: number | null },
) {
  return t.database.db
    .insertInto('work_orders')
    .values({
      firm_id: firmId,
      job_id: jobId,
      title: fields.title,
      phase: fields.phase ?? null,
      estimate_service_id: fields.estimateServiceId ?? null,
      status: 'completed',
      is_hold: 0,
      published: 1,
      job_is_placeholder: 0,
      estimated_days: 1,
      completed_at: fields.completedAt,
      created_at: fields.completedAt,
      updated_at: fields.completedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
