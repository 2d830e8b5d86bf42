// Time entries (docs/api-decisions.md, "Operations: time and job costs"). The crew app clocks a
// worker in and out on a work order, a job or shop time; the office voids; every read shows hours
// split by the overtime rule and pay only to users who may see pay.
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '#platform/errors.ts';
import { assertCrewScheduling, assertOfficeUser } from '#platform/guards.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { can } from '#platform/permissions.ts';
import { syncPage, syncWindow, whereInWindow } from '#platform/sync.ts';
import { addDays, millisOf, now, parseTimestamp } from '#platform/time.ts';
import { localToStored } from '#platform/time-zone.ts';
import { findActiveUser } from '#workspace/index.ts';
import { onCrew } from '../crews/repo.ts';
import { entryHours, type WeekRule } from './hours.ts';
import { findTimeEntry, overlappingEntry, type TimeEntryRow, timeEntriesOf } from './repo.ts';
import type { ClockOutInput, CreateTimeEntryInput, LaborRowObject, TimeEntryListInput, VoidInput } from './schemas.ts';
import { laborRow } from './serialize.ts';

/** A shift longer than this is a forgotten clock-out, not work: the office enters it in parts. */
export const MAX_ENTRY_HOURS = 24;
/** A phone's clock may run a little ahead of ours. */
const FUTURE_LEEWAY_MS = 5 * 60_000;

export const timeEntryNotFound = () => notFound('Time entry not found');
const workOrderNotFound = () => notFound('Work order not found');

export function weekRuleOf(ctx: ServiceContext): WeekRule {
  return { timeZone: ctx.auth.firm.timezone, weekStart: ctx.auth.settings.week_start };
}

/** Labor rows of entries, hours split over each worker's week. */
export async function laborRowsOf(
  db: Executor,
  firmId: number,
  user: User,
  rule: WeekRule,
  rows: readonly TimeEntryRow[],
): Promise<LaborRowObject[]> {
  const hours = await entryHours(db, firmId, rows, rule);
  const seesPay = can(user, 'can_see_pay');
  return rows.map((r) => laborRow(r, hours.get(r.id)!, seesPay));
}

async function labor(ctx: ServiceContext, db: Executor, row: TimeEntryRow): Promise<LaborRowObject> {
  return (await laborRowsOf(db, ctx.auth.firm.id, ctx.auth.user, weekRuleOf(ctx), [row]))[0]!;
}

function instant(text: string, field: string): string {
  const at = parseTimestamp(text);
  if (at === null)
    throw badRequest(`${field} must be an ISO 8601 timestamp in UTC`, { code: 'invalid_request', field });
  if (millisOf(at) > millisOf(now()) + FUTURE_LEEWAY_MS)
    throw badRequest(`${field} cannot be in the future`, { code: 'invalid_request', field });
  return at;
}

function assertSpan(clockIn: string, clockOut: string): void {
  const ms = millisOf(clockOut) - millisOf(clockIn);
  if (ms <= 0) throw badRequest('clock_out must be after clock_in', { code: 'invalid_request', field: 'clock_out' });
  if (ms > MAX_ENTRY_HOURS * 3_600_000)
    throw badRequest(`A time entry is at most ${MAX_ENTRY_HOURS} hours`, {
      code: 'invalid_request',
      field: 'clock_out',
      message: 'Enter a longer stretch as several entries',
    });
}

async function assertNoOverlap(
  db: Executor,
  firmId: number,
  userId: number,
  from: string,
  to: string | null,
  exceptId?: number,
): Promise<void> {
  const other = await overlappingEntry(db, firmId, userId, from, to, exceptId);
  if (other)
    throw conflict('Overlaps another time entry of this worker', {
      code: 'time_entry_overlap',
      time_entry_id: other.id,
      message: 'A worker is on one clock at a time: clock out or void the other entry first',
    });
}

/**
 * Where the time goes: a work order (its job), a job, or shop time. A crew user logs their own time
 * on a work order of their crew, or on a job they see; an office user on any work order or job they see.
 */
async function placeOf(
  ctx: ServiceContext,
  db: Executor,
  input: CreateTimeEntryInput,
): Promise<{ jobId: number | null; workOrderId: number | null }> {
  const firmId = ctx.auth.firm.id;
  const user = ctx.auth.user;
  if (input.work_order_id !== undefined) {
    const wo = await db
      .selectFrom('work_orders')
      .select(['id', 'job_id', 'crew_id'])
      .where('firm_id', '=', firmId)
      .where('id', '=', input.work_order_id)
      .executeTakeFirst();
    if (!wo) throw workOrderNotFound();
    const crewMember = await onCrew(db, wo.crew_id, user.id);
    if (!crewMember && !(await findVisibleJob(db, firmId, wo.job_id, user))) throw workOrderNotFound();
    if (!can(user, 'office_user') && !crewMember)
      throw forbidden("Not on this work order's crew", {
        code: 'not_on_crew',
        message: "A crew user logs time on their own crew's work orders",
      });
    if (input.job_id !== undefined && input.job_id !== wo.job_id)
      throw badRequest("job_id is not the work order's job", {
        code: 'invalid_request',
        field: 'job_id',
        message: 'A work order fixes the job; send one or the other',
      });
    return { jobId: wo.job_id, workOrderId: wo.id };
  }
  if (input.job_id !== undefined) {
    if (!(await findVisibleJob(db, firmId, input.job_id, user))) throw jobNotFound();
    return { jobId: input.job_id, workOrderId: null };
  }
  return { jobId: null, workOrderId: null };
}

/** POST /v1/crew/time-entries. */
export async function createTimeEntry(ctx: ServiceContext, input: CreateTimeEntryInput): Promise<LaborRowObject> {
  assertCrewScheduling(ctx, 'Turn on crew scheduling to keep time');
  const clockIn = instant(input.clock_in, 'clock_in');
  const clockOut = input.clock_out === undefined ? null : instant(input.clock_out, 'clock_out');
  if (clockOut !== null) assertSpan(clockIn, clockOut);
  const firmId = ctx.auth.firm.id;
  const self = ctx.auth.user;
  const workerId = input.user_id ?? self.id;
  if (workerId !== self.id) assertOfficeUser(ctx, "Only an office user enters another worker's time");
  return inWorkspaceTransaction(ctx, async (trx) => {
    const worker = workerId === self.id ? self : await findActiveUser(trx, firmId, workerId);
    if (!worker) throw notFound('User not found', { user_id: workerId });
    const place = await placeOf(ctx, trx, input);
    await assertNoOverlap(trx, firmId, worker.id, clockIn, clockOut);
    const at = now();
    const { id } = await trx
      .insertInto('time_entries')
      .values({
        firm_id: firmId,
        user_id: worker.id,
        job_id: place.jobId,
        work_order_id: place.workOrderId,
        cost_code: input.cost_code?.trim() ?? null,
        clock_in: clockIn,
        clock_out: clockOut,
        pay_rate_cents: worker.pay_rate_cents,
        approved_at: null,
        approved_by_user_id: null,
        voided_at: null,
        voided_by_user_id: null,
        void_reason: null,
        created_by_user_id: self.id,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return labor(ctx, trx, (await findTimeEntry(trx, firmId, id, self))!);
  });
}

/** POST /v1/crew/time-entries/{id}/clock-out: the worker, or an office user, closes an open entry. */
export async function clockOut(ctx: ServiceContext, id: number, input: ClockOutInput): Promise<LaborRowObject> {
  assertCrewScheduling(ctx, 'Turn on crew scheduling to keep time');
  const firmId = ctx.auth.firm.id;
  const self = ctx.auth.user;
  const out = input.clock_out === undefined ? now() : instant(input.clock_out, 'clock_out');
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await findTimeEntry(trx, firmId, id, self);
    if (!row) throw timeEntryNotFound();
    if (row.user_id !== self.id) assertOfficeUser(ctx, 'Only an office user clocks out another worker');
    if (row.voided_at !== null) throw conflict('Time entry is void', { code: 'time_entry_void' });
    if (row.clock_out !== null) throw conflict('Already clocked out', { code: 'already_clocked_out' });
    assertSpan(row.clock_in, out);
    await assertNoOverlap(trx, firmId, row.user_id, row.clock_in, out, row.id);
    await trx.updateTable('time_entries').set({ clock_out: out, updated_at: now() }).where('id', '=', id).execute();
    return labor(ctx, trx, (await findTimeEntry(trx, firmId, id, self))!);
  });
}

/** POST /v1/time-entries/{id}/void: an office user takes an entry out of hours, pay and job cost. */
export async function voidTimeEntry(ctx: ServiceContext, id: number, input: VoidInput): Promise<LaborRowObject> {
  const firmId = ctx.auth.firm.id;
  const self = ctx.auth.user;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = await findTimeEntry(trx, firmId, id, self);
    if (!row) throw timeEntryNotFound();
    assertOfficeUser(ctx, 'Only an office user voids time');
    if (row.voided_at !== null) throw conflict('Time entry is already void', { code: 'time_entry_void' });
    const at = now();
    await trx
      .updateTable('time_entries')
      .set({ voided_at: at, voided_by_user_id: self.id, void_reason: input.reason?.trim() || null, updated_at: at })
      .where('id', '=', id)
      .execute();
    return labor(ctx, trx, (await findTimeEntry(trx, firmId, id, self))!);
  });
}

/** The stored instants bounding local dates [start, end] in the workspace's zone. */
function dateBounds(ctx: ServiceContext, start?: string, end?: string) {
  const tz = ctx.auth.firm.timezone;
  if (start !== undefined && end !== undefined && end < start)
    throw badRequest('end_date must not be before start_date', { code: 'invalid_request', field: 'end_date' });
  return {
    from: start === undefined ? undefined : localToStored(start, '00:00', tz),
    to: end === undefined ? undefined : localToStored(addDays(end, 1), '00:00', tz),
  };
}

/** GET /v1/time-entries: newest clock_in first; with updated_after, oldest change first. */
export async function listTimeEntries(ctx: ServiceContext, q: TimeEntryListInput) {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const page = pageOf(q);
  const window = syncWindow(q.updated_after, 'second');
  const { from, to } = dateBounds(ctx, q.start_date, q.end_date);
  const filtered = () => {
    let qb = timeEntriesOf(db, firmId, ctx.auth.user);
    if (q.user_id !== undefined) qb = qb.where('time_entries.user_id', '=', q.user_id);
    if (q.job_id !== undefined) qb = qb.where('time_entries.job_id', '=', q.job_id);
    if (from !== undefined) qb = qb.where('time_entries.clock_in', '>=', from);
    if (to !== undefined) qb = qb.where('time_entries.clock_in', '<', to);
    return qb;
  };
  const base = window ? whereInWindow(filtered(), 'time_entries', window) : filtered();
  const [rows, count] = await Promise.all([
    window
      ? syncPage(window, page, (rest) => {
          const qb = (rest ? whereInWindow(filtered(), 'time_entries', window, rest) : base)
            .orderBy('time_entries.updated_at')
            .orderBy('time_entries.id');
          return (rest ? qb : qb.limit(page.limit).offset(page.offset)).execute();
        })
      : base
          .orderBy('time_entries.clock_in', 'desc')
          .orderBy('time_entries.id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const data = await laborRowsOf(db, firmId, ctx.auth.user, weekRuleOf(ctx), rows);
  return listEnvelope(data, Number(count.n), page);
}

/** GET /v1/jobs/{id}/labor: the job's time, oldest clock_in first. */
export async function jobLabor(ctx: ServiceContext, jobId: number): Promise<LaborRowObject[]> {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  if (!(await findVisibleJob(db, firmId, jobId, ctx.auth.user))) throw jobNotFound();
  const rows = await timeEntriesOf(db, firmId, ctx.auth.user)
    .where('time_entries.job_id', '=', jobId)
    .orderBy('time_entries.clock_in')
    .orderBy('time_entries.id')
    .execute();
  return laborRowsOf(db, firmId, ctx.auth.user, weekRuleOf(ctx), rows);
}
