// Allocation queries: allocations on jobs the user sees, with their line's name, their work order's
// updated_at and the completed quantity the daily reports add up to.
import { sql } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';

export interface AllocationReadRow {
  id: number;
  work_order_id: number;
  job_id: number;
  estimate_service_id: number | null;
  service_name: string | null;
  planned_quantity: number | null;
  unit: string | null;
  completed_quantity: number | string | null;
  allocation_updated_at: string;
  work_order_updated_at: string;
}

export function allocationsOf(db: Executor, firmId: number, user: User) {
  return onVisibleJob(
    db
      .selectFrom('allocations')
      .innerJoin('work_orders', 'work_orders.id', 'allocations.work_order_id')
      .leftJoin('estimate_lines', 'estimate_lines.id', 'allocations.estimate_service_id')
      .where('allocations.firm_id', '=', firmId)
      .select((eb) => [
        'allocations.id',
        'allocations.work_order_id',
        'allocations.job_id',
        'allocations.estimate_service_id',
        'estimate_lines.name as service_name',
        'allocations.planned_quantity',
        'allocations.unit',
        'allocations.updated_at as allocation_updated_at',
        'work_orders.updated_at as work_order_updated_at',
        eb
          .selectFrom('daily_reports')
          .select(sql<number | null>`sum(daily_reports.completed_quantity)`.as('q'))
          .whereRef('daily_reports.work_order_id', '=', 'allocations.work_order_id')
          .where((w) =>
            w.or([
              w('daily_reports.estimate_service_id', '=', w.ref('allocations.estimate_service_id')),
              w.and([
                w('daily_reports.estimate_service_id', 'is', null),
                w('allocations.estimate_service_id', 'is', null),
              ]),
            ]),
          )
          .as('completed_quantity'),
      ]),
    'allocations.job_id',
    firmId,
    user,
  );
}
