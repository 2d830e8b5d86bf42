// Daily logs (document 2, the Daily log state table; docs/api-decisions.md, "Operations: daily logs
// and reports"). Every write needs an office user (a crew login is refused). The state moves run as
// conditional updates (db/transition.ts): of concurrent calls deciding on the same state exactly one
// changes the log, and the others answer 409 concurrent_change.
//
//   draft → submitted              crew app submit (crew-app/report-routes.ts), workspace uses sign-off
//   submitted → office_approved    approve (office user); the day's time entries are approved for payroll
//   office_approved → payroll_approved  approve again: payroll_signoff on, a payroll approver
//   submitted | office_approved → draft  send-back with a note
//   payroll_approved → draft       send-back by a payroll approver; nothing else may change that day (409)
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import type { DailyLog, DB, User, WorkOrder } from '#db/tables.ts';
import { inTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict, forbidden, notFound } from '#platform/errors.ts';
import { assertOfficeUser } from '#platform/guards.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { can } from '#platform/permissions.ts';
import { syncWindow } from '#platform/sync.ts';
import { addDays, now } from '#platform/time.ts';
import { localToStored } from '#platform/time-zone.ts';
import { reportsOfLog } from '../daily-reports/repo.ts';
import { dailyReportObject } from '../daily-reports/serialize.ts';
import { findWorkOrder } from '../work-orders/repo.ts';
import { findLog, listLogs as listRows, logOfDay } from './repo.ts';
import type { DailyLogListInput, DailyLogWithReportsObject, SaveDailyLogInput } from './schemas.ts';
import { dailyLogObject, dailyLogWithReports } from './serialize.ts';

export const dailyLogNotFound = () => notFound('Daily log not found');
export const workOrderNotFound = () => notFound('Work order not found');

/** Document 2: a payroll-approved day cannot change, except sent back by a payroll approver. */
export const dayApprovedByPayroll = (
  message = 'Payroll has approved this day; only a payroll approver can send it back',
) => conflict('Day approved by payroll', { code: 'day_payroll_approved', message });

/** Document 2: when the workspace does not use sign-off, approve, send-back and submit answer 409. */
export const signoffNotUsed = () =>
  conflict('Workspace without sign-off', {
    code: 'signoff_not_used',
    message: 'This workspace does not use daily-log sign-off (setting daily_log_signoff)',
  });

const concurrentChange = () =>
  conflict('Daily log changed meanwhile', {
    code: 'concurrent_change',
    message: 'Another call changed this daily log first; read it again',
  });

const assertOffice = (ctx: ServiceContext, what: string) =>
  assertOfficeUser(ctx, `${what} needs an office user; a crew login cannot`);

/** The log as a single read answers it: with its reports (`user` null: unscoped, for the crew app). */
export async function writtenLog(
  ctx: ServiceContext,
  id: number,
  user: User | null,
): Promise<DailyLogWithReportsObject> {
  const db = ctx.database.db;
  const row = await findLog(db, ctx.auth.firm.id, id, user);
  if (!row) throw dailyLogNotFound();
  const reports = await reportsOfLog(db, ctx.auth.firm.id, id, user);
  return dailyLogWithReports(row, reports.map(dailyReportObject));
}

/**
 * The log of a work order's day, made (a draft) when the day has none. Run inside inTransaction
 * with uniqueRace: two first writes of one day race to the unique (work_order_id, date) index and
 * the loser's run again finds the winner's log.
 */
export async function logForDay(trx: Executor, workOrder: WorkOrder, date: string): Promise<DailyLog> {
  const existing = await logOfDay(trx, workOrder.id, date);
  if (existing) return existing;
  const at = now();
  return trx
    .insertInto('daily_logs')
    .values({
      firm_id: workOrder.firm_id,
      work_order_id: workOrder.id,
      job_id: workOrder.job_id,
      date,
      status: 'draft',
      notes: null,
      submitted_at: null,
      submitted_by_user_id: null,
      office_approved_at: null,
      office_approved_by_user_id: null,
      payroll_approved_at: null,
      payroll_approved_by_user_id: null,
      returned_at: null,
      return_note: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listDailyLogs(ctx: ServiceContext, q: DailyLogListInput) {
  const page = pageOf(q);
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    {
      startDate: q.start_date,
      endDate: q.end_date,
      jobId: q.job_id,
      workOrderId: q.work_order_id,
      status: q.status,
      updatedAfter: syncWindow(q.updated_after, 'second'),
    },
    page,
  );
  return listEnvelope(rows.map(dailyLogObject), total, page);
}

export const getDailyLog = (ctx: ServiceContext, id: number) => writtenLog(ctx, id, ctx.auth.user);

/** POST /v1/daily-logs: the day's notes replaced, its log made when absent (200 either way). */
export async function saveDailyLog(ctx: ServiceContext, input: SaveDailyLogInput): Promise<DailyLogWithReportsObject> {
  assertOffice(ctx, "Writing a day's notes");
  const firmId = ctx.auth.firm.id;
  const notes = input.notes.trim() === '' ? null : input.notes;
  const id = await inTransaction(
    ctx.database,
    async (trx) => {
      const workOrder = await findWorkOrder(trx, firmId, input.work_order_id, ctx.auth.user);
      if (!workOrder) throw workOrderNotFound();
      const log = await logForDay(trx, workOrder, input.date);
      if (log.status === 'payroll_approved') throw dayApprovedByPayroll();
      if (log.notes !== notes) {
        const changed = await transition(
          trx,
          'daily_logs',
          log.id,
          { status: log.status },
          { notes, updated_at: now() },
        );
        if (!changed) throw concurrentChange();
      }
      return log.id;
    },
    { uniqueRace: true },
  );
  return writtenLog(ctx, id, ctx.auth.user);
}

/** The stored bounds [start, end) of a local day in the workspace's time zone. */
function dayBounds(date: string, timeZone: string): [string, string] {
  return [localToStored(date, '00:00', timeZone), localToStored(addDays(date, 1), '00:00', timeZone)];
}

/** The day's time entries: the work order's, clocked in on that local date, not voided. */
function dayEntries(trx: Transaction<DB>, log: DailyLog, timeZone: string) {
  const [start, end] = dayBounds(log.date, timeZone);
  return trx
    .updateTable('time_entries')
    .where('firm_id', '=', log.firm_id)
    .where('work_order_id', '=', log.work_order_id)
    .where('clock_in', '>=', start)
    .where('clock_in', '<', end)
    .where('voided_at', 'is', null);
}

async function visibleLog(ctx: ServiceContext, db: Executor, id: number): Promise<DailyLog> {
  const row = await findLog(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw dailyLogNotFound();
  return row;
}

/** POST /v1/daily-logs/{id}/approve: submitted → office_approved, or office_approved → payroll_approved. */
export async function approveDailyLog(ctx: ServiceContext, id: number): Promise<DailyLogWithReportsObject> {
  assertOffice(ctx, 'Approving a daily log');
  const { settings, user, firm } = ctx.auth;
  await inTransaction(ctx.database, async (trx) => {
    const log = await visibleLog(ctx, trx, id);
    if (!settings.daily_log_signoff) throw signoffNotUsed();
    const at = now();
    switch (log.status) {
      case 'draft':
        throw conflict('Daily log not submitted', {
          code: 'invalid_transition',
          message: 'The crew has not submitted this day yet; only a submitted day can be approved',
        });
      case 'payroll_approved':
        throw dayApprovedByPayroll('Payroll has already approved this day');
      case 'submitted': {
        const moved = await transition(
          trx,
          'daily_logs',
          id,
          { status: 'submitted' },
          { status: 'office_approved', office_approved_at: at, office_approved_by_user_id: user.id, updated_at: at },
        );
        if (!moved) throw concurrentChange();
        // The day's time is approved for payroll; an entry approved before keeps its approval.
        await dayEntries(trx, log, firm.timezone)
          .where('approved_at', 'is', null)
          .set({ approved_at: at, approved_by_user_id: user.id, updated_at: at })
          .execute();
        return;
      }
      case 'office_approved': {
        if (!settings.payroll_signoff)
          throw conflict('Daily log already approved', {
            code: 'invalid_transition',
            message:
              'The office has approved this day and this workspace takes no payroll sign-off (setting payroll_signoff)',
          });
        if (!can(user, 'payroll_approver'))
          throw forbidden('Payroll approver required', {
            code: 'payroll_approver_required',
            message: 'The payroll sign-off needs a user with the Approve payroll permission',
          });
        const moved = await transition(
          trx,
          'daily_logs',
          id,
          { status: 'office_approved' },
          { status: 'payroll_approved', payroll_approved_at: at, payroll_approved_by_user_id: user.id, updated_at: at },
        );
        if (!moved) throw concurrentChange();
        return;
      }
    }
  });
  return writtenLog(ctx, id, ctx.auth.user);
}

/**
 * POST /v1/daily-logs/{id}/send-back: back to draft with the office's note. The approvals no longer
 * stand, so they are cleared, and the day's time entries lose their approval with them.
 */
export async function sendBackDailyLog(
  ctx: ServiceContext,
  id: number,
  note: string,
): Promise<DailyLogWithReportsObject> {
  assertOffice(ctx, 'Sending a daily log back');
  const { settings, user, firm } = ctx.auth;
  await inTransaction(ctx.database, async (trx) => {
    const log = await visibleLog(ctx, trx, id);
    if (!settings.daily_log_signoff) throw signoffNotUsed();
    if (log.status === 'draft')
      throw conflict('Daily log is a draft', {
        code: 'invalid_transition',
        message: 'Only a submitted or approved day can be sent back',
      });
    if (log.status === 'payroll_approved' && !can(user, 'payroll_approver')) throw dayApprovedByPayroll();
    const at = now();
    const moved = await transition(
      trx,
      'daily_logs',
      id,
      { status: log.status },
      {
        status: 'draft',
        returned_at: at,
        return_note: note.trim(),
        office_approved_at: null,
        office_approved_by_user_id: null,
        payroll_approved_at: null,
        payroll_approved_by_user_id: null,
        updated_at: at,
      },
    );
    if (!moved) throw concurrentChange();
    if (log.status !== 'submitted')
      await dayEntries(trx, log, firm.timezone)
        .where('approved_at', 'is not', null)
        .set({ approved_at: null, approved_by_user_id: null, updated_at: at })
        .execute();
  });
  return writtenLog(ctx, id, ctx.auth.user);
}
