// Holds (document 2: Holds, Hold state table; docs/api-decisions.md, "Operations: holds"). A hold
// is a work order with is_hold true: it keeps its crew's days locked (schedule/crew-days.ts) until
// it is converted to real work, linked to the real job, or deleted. Writes need operations on and
// a schedule editor; override_lock is an owner's.
import type { Executor } from '#db/dialect.ts';
import type { Job, WorkOrder } from '#db/tables.ts';
import { createJobIn, findVisibleJob, jobNotFound, listStages, mergeJobIn } from '#crm/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest, forbidden, notFound } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { now } from '#platform/time.ts';
import { assertScheduleWrite } from '../access.ts';
import { recordJobScheduled } from '../work-orders/events.ts';
import { assertOverrideAllowed, place } from '../work-orders/placement.ts';
import { findWorkOrder, listWorkOrders, workOrderById, writeDays } from '../work-orders/repo.ts';
import type { WorkOrderObject } from '../work-orders/schemas.ts';
import { workOrderObject } from '../work-orders/serialize.ts';
import { assertCrewForWork, endDateOf, saveSchedule } from '../work-orders/service.ts';
import type { CreateHoldInput, UpdateHoldInput } from './schemas.ts';

const WHAT = 'Holds';
export const holdNotFound = () => notFound('Hold not found');

async function holdOr404(ctx: ServiceContext, db: Executor, id: number): Promise<WorkOrder> {
  const row = await findWorkOrder(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row || row.is_hold !== 1) throw holdNotFound();
  return row;
}

/** A hold's title: the first line of its scope, else its job's name. */
function titleOf(scope: string | null | undefined, job: Pick<Job, 'name'>): string {
  const first = scope
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  return (first ?? job.name).slice(0, 200);
}

export async function listHolds(
  ctx: ServiceContext,
  q: { startDate?: string; endDate?: string; crewId?: number; jobId?: number },
  page: Page,
) {
  if (q.startDate !== undefined && q.endDate !== undefined && q.endDate < q.startDate)
    throw badRequest('end_date is before start_date', { field: 'end_date' });
  const { rows, total } = await listWorkOrders(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { ...q, holds: 'only' },
    page,
  );
  return listEnvelope(rows.map(workOrderObject), total, page);
}

export async function createHold(ctx: ServiceContext, input: CreateHoldInput) {
  assertScheduleWrite(ctx, WHAT);
  const override = assertOverrideAllowed(ctx, input.override_lock);
  if ((input.job_id === undefined) === (input.name === undefined))
    throw badRequest('Send job_id or name', {
      code: 'invalid_request',
      message: 'A hold is for a job: send the job_id of one, or a name to make a lightweight job for it (not both)',
    });
  if (input.job_id === undefined && ctx.auth.settings.jobs_from_connected_system)
    throw forbidden('jobs come from a connected system and cannot be created', {
      code: 'invalid_request',
      message: 'This workspace takes its jobs from a connected system: send the job_id of one',
    });
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    let job: Job | undefined;
    if (input.job_id !== undefined) {
      job = await findVisibleJob(trx, firmId, input.job_id, ctx.auth.user);
      if (!job) throw jobNotFound();
    } else {
      const made = await createJobIn(ctx, trx, {
        name: input.name!.trim(),
        ...(input.address ? { address: input.address } : {}),
        allow_duplicate_name: true,
      });
      job = await findVisibleJob(trx, firmId, made.id, ctx.auth.user);
    }
    if (input.crew_id != null) await assertCrewForWork(trx, firmId, input.crew_id);
    const at = now();
    const base = {
      scheduled_date: input.scheduled_date,
      estimated_days: input.estimated_days ?? 1,
      skipped_dates: null,
    };
    const hold = await trx
      .insertInto('work_orders')
      .values({
        firm_id: firmId,
        job_id: job!.id,
        title: titleOf(input.scope, job!),
        status: 'scheduled',
        is_hold: 1,
        published: 0,
        crew_id: input.crew_id ?? null,
        ...base,
        end_date: endDateOf(base),
        start_time: input.start_time ?? null,
        end_time: input.end_time ?? null,
        scope: input.scope ?? null,
        address: input.address ?? job!.address,
        job_is_placeholder: input.job_id === undefined ? 1 : 0,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const sameDay = await place(trx, hold, override);
    return { data: workOrderObject(hold), job_created: input.job_id === undefined, same_day_work_order_ids: sameDay };
  });
}

export async function getHold(ctx: ServiceContext, id: number): Promise<WorkOrderObject> {
  return workOrderObject(await holdOr404(ctx, ctx.database.db, id));
}

export async function updateHold(ctx: ServiceContext, id: number, input: UpdateHoldInput): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  const override = assertOverrideAllowed(ctx, input.override_lock);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const hold = await holdOr404(ctx, trx, id);
    if (input.crew_id != null && input.crew_id !== hold.crew_id)
      await assertCrewForWork(trx, ctx.auth.firm.id, input.crew_id);
    const { override_lock: _override, title, ...rest } = input;
    const changes: Partial<WorkOrder> = { ...rest, ...(title !== undefined ? { title: title.trim() } : {}) };
    return workOrderObject((await saveSchedule(trx, hold, changes, override)).row);
  });
}

/** Hold → a real visit on the same day and crew: a draft (its days no longer lock) until published. */
export async function convertHold(ctx: ServiceContext, id: number): Promise<WorkOrderObject> {
  assertScheduleWrite(ctx, WHAT);
  return inWorkspaceTransaction(ctx, async (trx) => {
    const hold = await holdOr404(ctx, trx, id);
    const at = now();
    await trx
      .updateTable('work_orders')
      .set({ is_hold: 0, published: 0, job_is_placeholder: 0, updated_at: at })
      .where('id', '=', hold.id)
      .where('is_hold', '=', 1)
      .execute();
    const work = await workOrderById(trx, hold.id);
    await place(trx, work, false);
    await recordJobScheduled(trx, work, null);
    return workOrderObject(work);
  });
}

/**
 * Hold → onto the real job, keeping its date, crew, times and locks. A placeholder job the hold
 * was made with is merged into the real job and removed when nothing else has started to use it:
 * no other work order or hold, and still in the pipeline's first stage (docs/api-decisions.md).
 */
export async function linkHold(ctx: ServiceContext, id: number, jobId: number) {
  assertScheduleWrite(ctx, WHAT);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const hold = await holdOr404(ctx, trx, id);
    const job = await findVisibleJob(trx, firmId, jobId, ctx.auth.user);
    if (!job) throw jobNotFound();
    if (job.id === hold.job_id) return { data: workOrderObject(hold), merged_placeholder_job: null };
    const at = now();
    await trx
      .updateTable('work_orders')
      .set({ job_id: job.id, job_is_placeholder: 0, address: hold.address ?? job.address, updated_at: at })
      .where('id', '=', hold.id)
      .execute();
    let merged: { id: number; name: string } | null = null;
    if (hold.job_is_placeholder === 1 && !ctx.auth.settings.deletion_locked) {
      const placeholder = await findVisibleJob(trx, firmId, hold.job_id, ctx.auth.user);
      const others = await trx
        .selectFrom('work_orders')
        .select('id')
        .where('job_id', '=', hold.job_id)
        .limit(1)
        .executeTakeFirst();
      const [firstStage] = await listStages(trx, firmId);
      if (placeholder && !others && placeholder.status === firstStage?.key) {
        await mergeJobIn(ctx, trx, placeholder, job);
        merged = { id: placeholder.id, name: placeholder.name };
      }
    }
    const linked = await workOrderById(trx, hold.id);
    return { data: workOrderObject(linked), merged_placeholder_job: merged };
  });
}

/** DELETE: the hold and its crew-day locks go; the job stays. */
export async function deleteHold(ctx: ServiceContext, id: number): Promise<void> {
  assertScheduleWrite(ctx, WHAT);
  assertDeletionAllowed(ctx);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const hold = await holdOr404(ctx, trx, id);
    await writeDays(trx, hold, [], false);
    await trx.deleteFrom('work_orders').where('id', '=', hold.id).where('is_hold', '=', 1).execute();
  });
}
