// Schedule requests (document 2: Schedule requests; Schedule request state table;
// docs/api-decisions.md, "Operations: schedule requests"). Any operations user who sees the job
// may ask (crew logins too); approving or declining needs a schedule editor. A new request notifies
// every schedule editor in-app, a decision the requester. Approval acts through the scheduler's own
// paths (work-orders/service.ts, placement.ts), so the same crew-day lock rules answer 409, and a
// refused approval leaves the request pending and the schedule as it was.
import type { Executor } from '#db/dialect.ts';
import type { Job, ScheduleRequest, WorkOrder } from '#db/tables.ts';
import { transition } from '#db/transition.ts';
import { findVisibleJob, jobNotFound, listStages, onVisibleJob } from '#crm/index.ts';
import { awardedLinesOf, findJobLine } from '#estimating/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { assertOperationsEnabled } from '#platform/guards.ts';
import { badRequest, conflict, invalidField, notFound } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { now } from '#platform/time.ts';
import { assertScheduleWrite } from '../access.ts';
import { notify, scheduleEditorIds } from '../notifications/service.ts';
import { daysOf, MAX_SKIPPED_DAYS, skippedOf } from '../work-orders/days.ts';
import { findWorkOrder } from '../work-orders/repo.ts';
import { workOrderObject } from '../work-orders/serialize.ts';
import { allocate, endDateOf, saveSchedule, workOrderNotFound } from '../work-orders/service.ts';
import type { CreateRequestInput } from './schemas.ts';
import { requestObjects, summaryOf } from './serialize.ts';

export const requestNotFound = () => notFound('Schedule request not found');

function requestsOf(db: Executor, ctx: ServiceContext) {
  return onVisibleJob(
    db
      .selectFrom('schedule_requests')
      .selectAll('schedule_requests')
      .where('schedule_requests.firm_id', '=', ctx.auth.firm.id),
    'schedule_requests.job_id',
    ctx.auth.firm.id,
    ctx.auth.user,
  );
}

async function requestOr404(ctx: ServiceContext, db: Executor, id: number): Promise<ScheduleRequest> {
  const row = (await requestsOf(db, ctx).where('schedule_requests.id', '=', id).executeTakeFirst()) as
    | ScheduleRequest
    | undefined;
  if (!row) throw requestNotFound();
  return row;
}

/** A line is on the calendar when work naming it has a date (and is not cancelled). */
async function scheduledWorkOfLine(db: Executor, lineId: number) {
  return db
    .selectFrom('work_orders')
    .selectAll()
    .where('estimate_service_id', '=', lineId)
    .where('status', '!=', 'cancelled')
    .where('is_hold', '=', 0)
    .orderBy('id')
    .execute() as Promise<WorkOrder[]>;
}

const missing = (field: string, kind: string) =>
  badRequest(`${field} is required for a ${kind} request`, { code: 'missing_parameter', field });

export async function createRequest(ctx: ServiceContext, input: CreateRequestInput) {
  assertOperationsEnabled(ctx, 'Schedule requests need operations turned on for the workspace');
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    let job: Job | undefined;
    let wo: WorkOrder | undefined;
    let lineName: string | null = null;
    const values: Partial<ScheduleRequest> = { kind: input.kind, note: input.note ?? null };
    if (input.kind === 'date') {
      if (input.job_id === undefined) throw missing('job_id', 'date');
      if (input.requested_date === undefined) throw missing('requested_date', 'date');
      job = await findVisibleJob(trx, firmId, input.job_id, ctx.auth.user);
      if (!job) throw jobNotFound();
      values.requested_date = input.requested_date;
      if (input.estimate_service_id !== undefined) {
        const line = await findJobLine(trx, firmId, job.id, input.estimate_service_id);
        if (!line)
          throw invalidField('estimate_service_id', "estimate_service_id is not a line of the job's estimates");
        if ((await scheduledWorkOfLine(trx, line.id)).some((w) => w.scheduled_date !== null))
          throw badRequest('That line is already on the calendar', {
            code: 'line_scheduled',
            field: 'estimate_service_id',
            message: 'Ask to move its visit instead (a move request with the work order)',
          });
        values.estimate_service_id = line.id;
        lineName = line.name;
      }
    } else {
      if (input.work_order_id === undefined) throw missing('work_order_id', input.kind);
      wo = await findWorkOrder(trx, firmId, input.work_order_id, ctx.auth.user);
      if (!wo || wo.is_hold === 1) throw workOrderNotFound();
      if (wo.status !== 'scheduled')
        throw badRequest(`Work order is ${wo.status}`, {
          code: 'invalid_request',
          field: 'work_order_id',
          message: 'Only scheduled work can be moved or have a day skipped',
        });
      job = (await findVisibleJob(trx, firmId, wo.job_id, ctx.auth.user))!;
      if (input.kind === 'move') {
        if (input.requested_date === undefined) throw missing('requested_date', 'move');
        if (input.requested_date === wo.scheduled_date)
          throw invalidField('requested_date', 'The work is already on that date');
        values.requested_date = input.requested_date;
      } else {
        if (input.skip_date === undefined) throw missing('skip_date', 'skip');
        const days = daysOf(wo);
        if (!days.includes(input.skip_date) || input.skip_date === days[0])
          throw invalidField('skip_date', 'skip_date must be a day of the visit other than its first', {
            days,
          });
        values.skip_date = input.skip_date;
      }
      values.work_order_id = wo.id;
    }
    const identical = await trx
      .selectFrom('schedule_requests')
      .select('id')
      .where('firm_id', '=', firmId)
      .where('status', '=', 'pending')
      .where('kind', '=', input.kind)
      .where('job_id', '=', job.id)
      .where((eb) =>
        eb.and(
          (['work_order_id', 'estimate_service_id', 'requested_date', 'skip_date'] as const).map((c) =>
            values[c] == null ? eb(c, 'is', null) : eb(c, '=', values[c] as never),
          ),
        ),
      )
      .executeTakeFirst();
    if (identical)
      throw conflict('identical request already waiting', {
        code: 'request_pending',
        message: `Request ${identical.id} asks for the same and is still waiting`,
        schedule_request_id: identical.id,
      });
    const at = now();
    const row = (await trx
      .insertInto('schedule_requests')
      .values({
        firm_id: firmId,
        kind: input.kind,
        status: 'pending',
        job_id: job.id,
        work_order_id: values.work_order_id ?? null,
        estimate_service_id: values.estimate_service_id ?? null,
        requested_date: values.requested_date ?? null,
        skip_date: values.skip_date ?? null,
        note: values.note ?? null,
        requested_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as ScheduleRequest;
    const what = wo?.title ?? lineName ?? job.name;
    await notify(
      trx,
      firmId,
      (await scheduleEditorIds(trx, firmId)).filter((id) => id !== ctx.auth.user.id),
      {
        kind: 'schedule_request',
        title: `${ctx.auth.user.name}: ${summaryOf(row, what)}`,
        body: `${job.name}${row.note ? `\n${row.note}` : ''}`,
        scheduleRequestId: row.id,
      },
    );
    return (await requestObjects(trx, [row]))[0]!;
  });
}

export async function getRequest(ctx: ServiceContext, id: number) {
  return (await requestObjects(ctx.database.db, [await requestOr404(ctx, ctx.database.db, id)]))[0]!;
}

export async function listRequests(
  ctx: ServiceContext,
  f: { status?: string; kind?: string; jobId?: number; workOrderId?: number },
  page: Page,
) {
  let qb = requestsOf(ctx.database.db, ctx);
  if (f.status) qb = qb.where('schedule_requests.status', '=', f.status as ScheduleRequest['status']);
  if (f.kind) qb = qb.where('schedule_requests.kind', '=', f.kind as ScheduleRequest['kind']);
  if (f.jobId) qb = qb.where('schedule_requests.job_id', '=', f.jobId);
  if (f.workOrderId) qb = qb.where('schedule_requests.work_order_id', '=', f.workOrderId);
  const [rows, count] = await Promise.all([
    qb.orderBy('schedule_requests.id', 'desc').limit(page.limit).offset(page.offset).execute() as Promise<
      ScheduleRequest[]
    >,
    qb
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return listEnvelope(await requestObjects(ctx.database.db, rows), Number(count.n), page);
}

const alreadyDecided = (r: ScheduleRequest) =>
  conflict('request already decided', {
    code: 'request_decided',
    status: r.status,
    message: `The request was ${r.status}${r.decided_at ? ` at ${r.decided_at.slice(0, 10)}` : ''}`,
  });

/** Adds the requester's note to the visit's dispatch notes (document 2: approval adds it). */
function withNote(wo: WorkOrder, note: string | null): Partial<WorkOrder> {
  if (!note) return {};
  return { dispatch_notes: wo.dispatch_notes ? `${wo.dispatch_notes}\n${note}` : note };
}

async function applyRequest(ctx: ServiceContext, trx: Executor, r: ScheduleRequest, job: Job): Promise<WorkOrder> {
  const firmId = ctx.auth.firm.id;
  if (r.kind === 'date') {
    // The line's own unscheduled work is scheduled; otherwise new draft work is made for it.
    const existing = r.estimate_service_id
      ? (await scheduledWorkOfLine(trx, r.estimate_service_id)).find((w) => w.scheduled_date === null)
      : undefined;
    if (existing)
      return (
        await saveSchedule(trx, existing, { scheduled_date: r.requested_date, ...withNote(existing, r.note) }, false)
      ).row;
    const line = r.estimate_service_id ? await findJobLine(trx, firmId, job.id, r.estimate_service_id) : undefined;
    const at = now();
    const base = { scheduled_date: null, estimated_days: 1, skipped_dates: null };
    const made = (await trx
      .insertInto('work_orders')
      .values({
        firm_id: firmId,
        job_id: job.id,
        title: (line?.name ?? job.name).slice(0, 200),
        status: 'unscheduled',
        is_hold: 0,
        published: 0,
        estimate_service_id: line?.id ?? null,
        display_qty: line?.quantity ?? null,
        display_unit: line?.unit ?? null,
        ...base,
        end_date: endDateOf(base),
        address: job.address,
        dispatch_notes: r.note,
        job_is_placeholder: 0,
        created_by_user_id: ctx.auth.user.id,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as WorkOrder;
    await allocate(trx, made, line ?? null, at);
    return (await saveSchedule(trx, made, { scheduled_date: r.requested_date }, false)).row;
  }
  const wo = await findWorkOrder(trx, firmId, r.work_order_id ?? 0, ctx.auth.user);
  if (!wo || wo.is_hold === 1 || wo.status !== 'scheduled')
    throw conflict('The work order can no longer be changed', {
      code: 'work_order_closed',
      message: 'The visit this request names was cancelled, completed or removed: decline the request',
    });
  if (r.kind === 'move')
    return (await saveSchedule(trx, wo, { scheduled_date: r.requested_date, ...withNote(wo, r.note) }, false)).row;
  const skipped = skippedOf(wo.skipped_dates);
  if (skipped.length >= MAX_SKIPPED_DAYS)
    throw conflict('The visit has too many skipped days', {
      code: 'invalid_transition',
      message: `A visit may skip at most ${MAX_SKIPPED_DAYS} days: reschedule it instead`,
    });
  if (!daysOf(wo).includes(r.skip_date!) || r.skip_date === wo.scheduled_date)
    throw conflict('The day is no longer part of the visit', {
      code: 'invalid_transition',
      message: 'The visit moved since the request was made: decline it and ask again',
    });
  return (
    await saveSchedule(
      trx,
      wo,
      { skipped_dates: JSON.stringify([...skipped, r.skip_date].sort()), ...withNote(wo, r.note) },
      false,
    )
  ).row;
}

async function decide(ctx: ServiceContext, id: number, approve: boolean, note: string | null | undefined) {
  assertScheduleWrite(ctx, 'Deciding schedule requests');
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const r = await requestOr404(ctx, trx, id);
    if (r.status !== 'pending') throw alreadyDecided(r);
    const job = (await findVisibleJob(trx, firmId, r.job_id, ctx.auth.user))!;
    const wo = approve ? await applyRequest(ctx, trx, r, job) : null;
    const at = now();
    const moved = await transition(
      trx,
      'schedule_requests',
      r.id,
      { status: 'pending' },
      {
        status: approve ? 'approved' : 'declined',
        decided_by_user_id: ctx.auth.user.id,
        decided_at: at,
        decision_note: note ?? null,
        work_order_id: wo?.id ?? r.work_order_id,
        updated_at: at,
      },
    );
    const row = await requestOr404(ctx, trx, id);
    if (!moved) throw alreadyDecided(row);
    if (row.requested_by_user_id !== null)
      await notify(trx, firmId, [row.requested_by_user_id], {
        kind: 'schedule_request_decided',
        title: `${approve ? 'Approved' : 'Declined'}: ${summaryOf(row, wo?.title ?? job.name)}`,
        body: note ?? '',
        scheduleRequestId: row.id,
      });
    const [object] = await requestObjects(trx, [row]);
    return { data: object!, work_order: wo ? workOrderObject(wo) : null };
  });
}

export const approveRequest = (ctx: ServiceContext, id: number, note?: string | null) => decide(ctx, id, true, note);
export const declineRequest = (ctx: ServiceContext, id: number, note?: string | null) => decide(ctx, id, false, note);

/**
 * GET /v1/schedule/queue: the lines of won jobs' awarded estimates not yet on the calendar (no
 * dated, uncancelled work names them), job by job. Placeholder jobs are in the first stage, never won.
 */
export async function scheduleQueue(ctx: ServiceContext, jobId: number | undefined, page: Page) {
  const firmId = ctx.auth.firm.id;
  const db = ctx.database.db;
  const won = (await listStages(db, firmId)).filter((s) => s.type === 'won').map((s) => s.key);
  if (won.length === 0) return listEnvelope([], 0, page);
  let jobs = onVisibleJob(
    db
      .selectFrom('jobs')
      .select(['jobs.id', 'jobs.name'])
      .where('jobs.firm_id', '=', firmId)
      .where('jobs.status', 'in', won),
    'jobs.id',
    firmId,
    ctx.auth.user,
  );
  if (jobId !== undefined) jobs = jobs.where('jobs.id', '=', jobId);
  const jobRows = await jobs.orderBy('jobs.id').execute();
  const names = new Map(jobRows.map((j) => [j.id, j.name]));
  const lines = await awardedLinesOf(db, firmId, [...names.keys()]);
  const dated =
    lines.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db
              .selectFrom('work_orders')
              .select('estimate_service_id')
              .where('firm_id', '=', firmId)
              .where(
                'estimate_service_id',
                'in',
                lines.map((l) => l.id),
              )
              .where('status', '!=', 'cancelled')
              .where('scheduled_date', 'is not', null)
              .execute()
          ).map((r) => r.estimate_service_id!),
        );
  const open = lines.filter((l) => !dated.has(l.id));
  return listEnvelope(
    open.slice(page.offset, page.offset + page.limit).map((l) => ({
      job_id: l.job_id,
      job_name: names.get(l.job_id)!,
      estimate_id: l.estimate_id,
      estimate_service_id: l.id,
      service_name: l.name,
      service_type: l.service_type,
      quantity: l.quantity,
      unit: l.unit,
    })),
    open.length,
    page,
  );
}
