// Work orders (docs/api-decisions.md, "Operations: work orders"): make, read, list, change,
// complete and cancel. Writes need operations on and a schedule editor. Holds share the table but
// are changed only through /v1/schedule/holds (409 here). Every change of dates, days or crew goes
// through placement.ts under the workspace lock, and records job_scheduled in the same transaction.
import type { Executor } from '#db/dialect.ts';
import type { WorkOrder } from '#db/tables.ts';
import { updateChanged } from '#db/update-changed.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { findJobLine } from '#estimating/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest, conflict, invalidField, notFound } from '#platform/errors.ts';
import { listEnvelope, type Page, parseUpdatedAfter } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { todayIn } from '#platform/time-zone.ts';
import { transition } from '#db/transition.ts';
import { assertScheduleWrite } from '../access.ts';
import { findCrew } from '../crews/repo.ts';
import { daysCovered, skippedOf } from './days.ts';
import { recordJobScheduled, recordWorkOrderCompleted } from './events.ts';
import { assertOverrideAllowed, place } from './placement.ts';
import { findWorkOrder, listWorkOrders as listRows, workOrderById, type WorkOrderFilter, writeDays } from './repo.ts';
import type { CompleteInput, CreateWorkOrderInput, UpdateWorkOrderInput, WorkOrderObject } from './schemas.ts';
import { workOrderObject } from './serialize.ts';
import { recordCompletedWork } from '../rebids/completed-work.ts';

export const workOrderNotFound = () => notFound('Work order not found');
const WHAT = 'Work-order writes';

export async function workOrderOr404(ctx: ServiceContext, db: Executor, id: number): Promise<WorkOrder> {
  const row = await findWorkOrder(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw workOrderNotFound();
  return row;
}

/** A crew that can take new work: the workspace's, and working (a retired crew keeps its old work). */
export async function assertCrewForWork(db: Executor, firmId: number, crewId: number): Promise<void> {
  const crew = await findCrew(db, firmId, crewId);
  if (!crew) throw notFound('Crew not found', { field: 'crew_id' });
  if (crew.active !== 1)
    throw badRequest('Crew is not active', {
      code: 'crew_not_active',
      field: 'crew_id',
      message: `Crew "${crew.name}" is retired: activate it or pick another crew`,
    });
}

/** The end_date of a work order in this state (the last covered day; null while unscheduled). */
export function endDateOf(wo: Pick<WorkOrder, 'scheduled_date' | 'estimated_days' | 'skipped_dates'>): string | null {
  if (wo.scheduled_date === null) return null;
  return daysCovered(wo.scheduled_date, Number(wo.estimated_days), skippedOf(wo.skipped_dates)).at(-1)!;
}

/** Writes or replaces the work order's allocation of its estimate line (or removes it). */
export async function allocate(
  trx: Executor,
  wo: WorkOrder,
  line: { quantity: number; unit: string } | null,
  at: string,
) {
  await trx.deleteFrom('allocations').where('work_order_id', '=', wo.id).execute();
  if (wo.estimate_service_id === null || line === null) return;
  await trx
    .insertInto('allocations')
    .values({
      firm_id: wo.firm_id,
      work_order_id: wo.id,
      job_id: wo.job_id,
      estimate_service_id: wo.estimate_service_id,
      planned_quantity: wo.display_qty ?? line.quantity,
      unit: wo.display_unit ?? line.unit,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

async function lineOf(trx: Executor, firmId: number, jobId: number, lineId: number) {
  const line = await findJobLine(trx, firmId, jobId, lineId);
  if (!line)
    throw invalidField('estimate_service_id', "estimate_service_id is not a line of the job's estimates", {
      message: 'Pick a line of one of this job’s estimates (change-order estimates and excluded lines do not count)',
    });
  return line;
}

export async function createWorkOrder(ctx: ServiceContext, input: CreateWorkOrderInput): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  const override = assertOverrideAllowed(ctx, input.override_lock);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await findVisibleJob(trx, firmId, input.job_id, ctx.auth.user);
    if (!job) throw jobNotFound();
    if (input.crew_id != null) await assertCrewForWork(trx, firmId, input.crew_id);
    const line =
      input.estimate_service_id != null ? await lineOf(trx, firmId, job.id, input.estimate_service_id) : null;
    const at = now();
    const scheduled = input.scheduled_date ?? null;
    const base = { scheduled_date: scheduled, estimated_days: input.estimated_days ?? 1, skipped_dates: null };
    const wo = await trx
      .insertInto('work_orders')
      .values({
        firm_id: firmId,
        job_id: job.id,
        title: input.title.trim(),
        status: scheduled === null ? 'unscheduled' : 'scheduled',
        is_hold: 0,
        published: 0,
        phase: input.phase ?? null,
        crew_id: input.crew_id ?? null,
        estimate_service_id: line?.id ?? null,
        display_qty: input.display_qty ?? line?.quantity ?? null,
        display_unit: input.display_unit ?? line?.unit ?? null,
        ...base,
        end_date: endDateOf(base),
        start_time: input.start_time ?? null,
        end_time: input.end_time ?? null,
        address: input.address ?? job.address,
        dispatch_notes: input.dispatch_notes ?? null,
        job_is_placeholder: 0,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await place(trx, wo, override);
    await allocate(trx, wo, line, at);
    await recordJobScheduled(trx, wo, null);
    return workOrderObject(wo);
  });
}

export async function getWorkOrder(ctx: ServiceContext, id: number): Promise<WorkOrderObject> {
  return workOrderObject(await workOrderOr404(ctx, ctx.database.db, id));
}

export async function listWorkOrders(
  ctx: ServiceContext,
  q: Omit<WorkOrderFilter, 'holds' | 'updatedAfter'> & { includeHolds?: boolean; updatedAfter?: string },
  page: Page,
) {
  if (q.startDate !== undefined && q.endDate !== undefined && q.endDate < q.startDate)
    throw invalidField('end_date', 'end_date is before start_date');
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { ...q, holds: q.includeHolds ? 'include' : 'exclude', updatedAfter: parseUpdatedAfter(q.updatedAfter) },
    page,
  );
  return listEnvelope(rows.map(workOrderObject), total, page);
}

/** Holds change through /v1/schedule/holds; closed work takes no changes. */
function assertOpenWork(wo: WorkOrder): void {
  if (wo.is_hold === 1)
    throw conflict('Work order is a hold', {
      code: 'hold_only_through_holds',
      message: `Change hold ${wo.id} through /v1/schedule/holds/${wo.id}, or convert it to work first`,
    });
  if (wo.status === 'completed' || wo.status === 'cancelled')
    throw conflict(`Work order is ${wo.status}`, {
      code: 'work_order_closed',
      status: wo.status,
      message: `A ${wo.status} work order takes no more changes`,
    });
}

/** The columns a schedule change writes: status and end_date follow the date; unscheduled work is a draft again. */
export function scheduleColumns(wo: WorkOrder, next: Partial<WorkOrder>): Partial<WorkOrder> {
  const merged = { ...wo, ...next };
  const out: Partial<WorkOrder> = { ...next, end_date: endDateOf(merged) };
  if (wo.status === 'scheduled' || wo.status === 'unscheduled') {
    out.status = merged.scheduled_date === null ? 'unscheduled' : 'scheduled';
    if (merged.scheduled_date === null) out.published = 0;
  }
  return out;
}

const PLACEMENT_COLUMNS = [
  'scheduled_date',
  'estimated_days',
  'crew_id',
  'skipped_dates',
  'published',
  'status',
] as const;

/**
 * Writes the changes and, when any of them moves the work order on the calendar, places it again
 * (lock check, days) and records job_scheduled for a new or moved date. Answers the row as written.
 */
export async function saveSchedule(
  trx: Executor,
  wo: WorkOrder,
  changes: Partial<WorkOrder>,
  override: boolean,
): Promise<{ row: WorkOrder; sameDay: number[] }> {
  const written = await updateChanged(trx, 'work_orders', wo, scheduleColumns(wo, changes), {
    stamp: { updated_at: now() },
  });
  if (written === null) return { row: wo, sameDay: [] };
  const row = await workOrderById(trx, wo.id);
  let sameDay: number[] = [];
  if (PLACEMENT_COLUMNS.some((c) => c in written)) sameDay = await place(trx, row, override);
  if ('scheduled_date' in written) await recordJobScheduled(trx, row, wo.scheduled_date);
  return { row, sameDay };
}

export async function updateWorkOrder(
  ctx: ServiceContext,
  id: number,
  input: UpdateWorkOrderInput,
): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  const override = assertOverrideAllowed(ctx, input.override_lock);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const wo = await workOrderOr404(ctx, trx, id);
    assertOpenWork(wo);
    if (input.crew_id != null && input.crew_id !== wo.crew_id) await assertCrewForWork(trx, firmId, input.crew_id);
    const { override_lock: _override, title, ...rest } = input;
    const changes: Partial<WorkOrder> = { ...rest, ...(title !== undefined ? { title: title.trim() } : {}) };
    let line: { quantity: number; unit: string } | null | undefined;
    if (input.estimate_service_id !== undefined && input.estimate_service_id !== wo.estimate_service_id)
      line =
        input.estimate_service_id === null ? null : await lineOf(trx, firmId, wo.job_id, input.estimate_service_id);
    const { row } = await saveSchedule(trx, wo, changes, override);
    if (line !== undefined) await allocate(trx, row, line, row.updated_at);
    else if (row !== wo && (input.display_qty !== undefined || input.display_unit !== undefined))
      await trx
        .updateTable('allocations')
        .set({
          ...(input.display_qty != null ? { planned_quantity: input.display_qty } : {}),
          ...(input.display_unit != null ? { unit: input.display_unit } : {}),
          updated_at: row.updated_at,
        })
        .where('work_order_id', '=', row.id)
        .execute();
    return workOrderObject(row);
  });
}

export async function completeWorkOrder(
  ctx: ServiceContext,
  id: number,
  input: CompleteInput,
): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const wo = await workOrderOr404(ctx, trx, id);
    assertOpenWork(wo);
    const at = now();
    // Work finished early frees the crew's later days: the visit ends today.
    const today = todayIn(ctx.auth.firm.timezone);
    const endDate =
      wo.end_date !== null && wo.scheduled_date !== null && wo.end_date > today
        ? today < wo.scheduled_date
          ? wo.scheduled_date
          : today
        : wo.end_date;
    const moved = await transition(
      trx,
      'work_orders',
      wo.id,
      { status: wo.status },
      {
        status: 'completed',
        completed_at: at,
        completed_qty: input.completed_qty ?? wo.display_qty,
        completed_unit: input.completed_unit ?? wo.display_unit,
        end_date: endDate,
        updated_at: at,
      },
    );
    const row = await workOrderById(trx, wo.id);
    if (!moved) assertOpenWork(row);
    await place(trx, row, true);
    await recordWorkOrderCompleted(trx, row);
    await recordCompletedWork(trx, row);
    return workOrderObject(row);
  });
}

export async function cancelWorkOrder(ctx: ServiceContext, id: number): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const wo = await workOrderOr404(ctx, trx, id);
    assertOpenWork(wo);
    const at = now();
    const moved = await transition(
      trx,
      'work_orders',
      wo.id,
      { status: wo.status },
      { status: 'cancelled', cancelled_at: at, updated_at: at },
    );
    const row = await workOrderById(trx, wo.id);
    if (!moved) assertOpenWork(row);
    await writeDays(trx, row, [], false);
    return workOrderObject(row);
  });
}
