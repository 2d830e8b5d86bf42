// Work-order queries: one by id and the lists, scoped to the jobs the user sees (crm's rule), and
// the crew days they occupy (work_order_days), which the calendar reads and the lock checks use.
import type { Executor } from '#db/dialect.ts';
import type { User, WorkOrder } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Page } from '#platform/pagination.ts';
import type { CrewDayOccupant } from '../schedule/crew-days.ts';

export function workOrdersOf(db: Executor, firmId: number, user: User) {
  return onVisibleJob(
    db.selectFrom('work_orders').selectAll('work_orders').where('work_orders.firm_id', '=', firmId),
    'work_orders.job_id',
    firmId,
    user,
  );
}

export async function findWorkOrder(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<WorkOrder | undefined> {
  return workOrdersOf(db, firmId, user).where('work_orders.id', '=', id).executeTakeFirst() as Promise<
    WorkOrder | undefined
  >;
}

/** A work order as it stands, re-read after a write in the same transaction. */
export async function workOrderById(db: Executor, id: number): Promise<WorkOrder> {
  return (await db.selectFrom('work_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as WorkOrder;
}

export interface WorkOrderFilter {
  holds: 'only' | 'include' | 'exclude';
  startDate?: string;
  endDate?: string;
  crewId?: number;
  jobId?: number;
  status?: string;
  updatedAfter?: string;
}

/**
 * Work orders with any covered day in [start, end] (either end open). A date range is read from the
 * day index first (the distinct work orders of those days) and joined to work_orders by id, so the
 * days asked for drive the query and its cost does not grow with the workspace: an IN-subquery let
 * SQLite walk every work order of the workspace instead (bench/operations.ts).
 */
function filtered(db: Executor, firmId: number, user: User, f: WorkOrderFilter) {
  let qb = workOrdersOf(db, firmId, user);
  if (f.startDate !== undefined || f.endDate !== undefined) {
    let days = db
      .selectFrom('work_order_days')
      .select('work_order_days.work_order_id')
      .distinct()
      .where('work_order_days.firm_id', '=', firmId);
    if (f.startDate !== undefined) days = days.where('work_order_days.date', '>=', f.startDate);
    if (f.endDate !== undefined) days = days.where('work_order_days.date', '<=', f.endDate);
    // The same columns as workOrdersOf's query, from the days' work orders.
    qb = onVisibleJob(
      db
        .selectFrom(days.as('in_range'))
        .innerJoin('work_orders', 'work_orders.id', 'in_range.work_order_id')
        .selectAll('work_orders')
        .where('work_orders.firm_id', '=', firmId),
      'work_orders.job_id',
      firmId,
      user,
    ) as unknown as typeof qb;
  }
  if (f.holds === 'only') qb = qb.where('work_orders.is_hold', '=', 1);
  if (f.holds === 'exclude') qb = qb.where('work_orders.is_hold', '=', 0);
  if (f.crewId !== undefined) qb = qb.where('work_orders.crew_id', '=', f.crewId);
  if (f.jobId !== undefined) qb = qb.where('work_orders.job_id', '=', f.jobId);
  if (f.status !== undefined) qb = qb.where('work_orders.status', '=', f.status as WorkOrder['status']);
  if (f.updatedAfter !== undefined) qb = qb.where('work_orders.updated_at', '>', f.updatedAfter);
  return qb;
}

export async function listWorkOrders(
  db: Executor,
  firmId: number,
  user: User,
  f: WorkOrderFilter,
  page: Page,
): Promise<{ rows: WorkOrder[]; total: number }> {
  const qb = filtered(db, firmId, user, f);
  const ordered =
    f.updatedAfter !== undefined
      ? qb.orderBy('work_orders.updated_at').orderBy('work_orders.id')
      : // The calendar's order: by date (unscheduled last), then id.
        qb
          .orderBy((eb) => eb.case().when('work_orders.scheduled_date', 'is', null).then(1).else(0).end())
          .orderBy('work_orders.scheduled_date')
          .orderBy('work_orders.id');
  const [rows, count] = await Promise.all([
    ordered.limit(page.limit).offset(page.offset).execute() as Promise<WorkOrder[]>,
    qb
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Who else occupies `crewId`'s `days` (every workspace job: a crew day is the crew's, whoever sees it). */
export async function occupantsOf(
  db: Executor,
  firmId: number,
  crewId: number,
  days: readonly string[],
  exceptId: number | null,
): Promise<CrewDayOccupant[]> {
  if (days.length === 0) return [];
  const rows = await db
    .selectFrom('work_order_days as d')
    .innerJoin('work_orders as wo', 'wo.id', 'd.work_order_id')
    .select(['d.work_order_id', 'd.date', 'd.crew_id', 'd.is_hold', 'd.locks', 'wo.job_id', 'wo.title'])
    .where('d.firm_id', '=', firmId)
    .where('d.crew_id', '=', crewId)
    .where('d.date', 'in', [...days])
    .$if(exceptId !== null, (qb) => qb.where('d.work_order_id', '!=', exceptId!))
    .execute();
  return rows.map((r) => ({
    work_order_id: r.work_order_id,
    job_id: r.job_id,
    title: r.title,
    date: r.date,
    crew_id: r.crew_id!,
    is_hold: r.is_hold === 1,
    locks: r.locks === 1,
  }));
}

/** Rewrites the work order's days: called in every transaction that changes what they depend on. */
export async function writeDays(
  db: Executor,
  wo: Pick<WorkOrder, 'id' | 'firm_id' | 'crew_id' | 'is_hold'>,
  days: readonly string[],
  locks: boolean,
): Promise<void> {
  await db.deleteFrom('work_order_days').where('work_order_id', '=', wo.id).execute();
  if (days.length === 0) return;
  await db
    .insertInto('work_order_days')
    .values(
      days.map((date) => ({
        firm_id: wo.firm_id,
        work_order_id: wo.id,
        date,
        crew_id: wo.crew_id,
        locks: locks ? 1 : 0,
        is_hold: wo.is_hold,
      })),
    )
    .execute();
}
