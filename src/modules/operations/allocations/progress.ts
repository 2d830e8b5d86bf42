// How far a job's work orders have got, for progress billing (billing's request-payment reads it
// through the area's entry; docs/api-decisions.md, "Online payments", says how work done follows
// from it). One row per live work order (not a hold, not cancelled), with the quantities the
// allocation endpoint shows: what the visit plans and what its daily reports completed.
import { sql } from 'kysely';
import type { Executor } from '#db/dialect.ts';

export interface WorkOrderProgress {
  /** The estimate line the visit does (its allocation), or null for a visit not tied to a line. */
  lineId: number | null;
  /** The quantity the visit plans: its allocation's, else its own display_qty. */
  planned: number | null;
  /** What its daily reports completed: reports naming its line (both without a line when it has none), as GET /v1/jobs/{id}/allocation adds them up. */
  reported: number;
  completed: boolean;
  /** The quantity recorded when the visit was completed (POST /v1/work-orders/{id}/complete). */
  completedQty: number | null;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

export async function progressOfJob(db: Executor, firmId: number, jobId: number): Promise<WorkOrderProgress[]> {
  const rows = await db
    .selectFrom('work_orders as wo')
    .leftJoin('allocations as a', 'a.work_order_id', 'wo.id')
    .where('wo.firm_id', '=', firmId)
    .where('wo.job_id', '=', jobId)
    .where('wo.is_hold', '=', 0)
    .where('wo.status', '!=', 'cancelled')
    .select((eb) => [
      'wo.estimate_service_id as line_id',
      'wo.status',
      'wo.completed_qty',
      'wo.display_qty',
      'a.planned_quantity',
      eb
        .selectFrom('daily_reports as r')
        .select(sql<number | string | null>`sum(r.completed_quantity)`.as('q'))
        .whereRef('r.work_order_id', '=', 'wo.id')
        .where((w) =>
          w.or([
            w('r.estimate_service_id', '=', w.ref('wo.estimate_service_id')),
            w.and([w('r.estimate_service_id', 'is', null), w('wo.estimate_service_id', 'is', null)]),
          ]),
        )
        .as('reported'),
    ])
    .orderBy('wo.id')
    .execute();
  return rows.map((r) => ({
    lineId: r.line_id,
    planned: num(r.planned_quantity) ?? num(r.display_qty),
    reported: num(r.reported) ?? 0,
    completed: r.status === 'completed',
    completedQty: num(r.completed_qty),
  }));
}
