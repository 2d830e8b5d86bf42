// The crew app's daily reports and day submit (issue 25, "The crew app's interface"; document 2:
// reports are filed only from the crew app). A report hangs on its work order's log for the day,
// made as a draft when the day has none; a payroll-approved day takes no more reports (409).
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import { inTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict, notFound } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import type { SubmitDailyLogInput } from '../daily-logs/schemas.ts';
import { dayApprovedByPayroll, logForDay, signoffNotUsed, writtenLog } from '../daily-logs/service.ts';
import { findReport } from '../daily-reports/repo.ts';
import type { DailyReportObject, FileDailyReportInput } from '../daily-reports/schemas.ts';
import { dailyReportObject } from '../daily-reports/serialize.ts';
import { crewAppWorkOrder } from './report-access.ts';

const text = (value: string | null | undefined) => (value == null ? null : value.trim() || null);

/** An estimate line of the job's own estimates (a line of another job's is as missing). */
async function assertJobLine(db: Executor, firmId: number, jobId: number, lineId: number): Promise<void> {
  const line = await db
    .selectFrom('estimate_lines as l')
    .innerJoin('estimates as e', 'e.id', 'l.estimate_id')
    .select('l.id')
    .where('l.firm_id', '=', firmId)
    .where('l.id', '=', lineId)
    .where('e.job_id', '=', jobId)
    .executeTakeFirst();
  if (!line)
    throw notFound('Estimate service not found', {
      message: `estimate_service_id ${lineId} is not a line of this job's estimates`,
      field: 'estimate_service_id',
    });
}

export async function fileDailyReport(ctx: ServiceContext, input: FileDailyReportInput): Promise<DailyReportObject> {
  const firmId = ctx.auth.firm.id;
  const id = await inTransaction(
    ctx.database,
    async (trx) => {
      const { workOrder, actingUserId } = await crewAppWorkOrder(ctx, trx, input.work_order_id, input.user_id);
      if (input.estimate_service_id != null)
        await assertJobLine(trx, firmId, workOrder.job_id, input.estimate_service_id);
      const log = await logForDay(trx, workOrder, input.date);
      if (log.status === 'payroll_approved')
        throw dayApprovedByPayroll('Payroll has approved this day: it takes no more reports');
      const at = now();
      const report = await trx
        .insertInto('daily_reports')
        .values({
          firm_id: firmId,
          daily_log_id: log.id,
          job_id: workOrder.job_id,
          work_order_id: workOrder.id,
          // A report on a visit is about the visit's line unless it names another: its completed
          // quantity then counts toward the allocation (and progress billing) without the crew
          // having to know line ids.
          estimate_service_id: input.estimate_service_id ?? workOrder.estimate_service_id ?? null,
          date: input.date,
          submitted_by_user_id: actingUserId,
          weather: text(input.weather),
          work_performed: text(input.work_performed),
          delay_notes: text(input.delay_notes),
          safety_notes: text(input.safety_notes),
          material_notes: text(input.material_notes),
          equipment_notes: text(input.equipment_notes),
          completed_quantity: input.completed_quantity ?? null,
          completed_unit: text(input.completed_unit),
          answers: JSON.stringify(input.answers ?? {}),
          last_emailed_at: null,
          last_emailed_to: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The log's reports changed: a sync reading updated_after sees the day again. Conditional on
      // its status, so a payroll approval that committed meanwhile refuses the report.
      if (!(await transition(trx, 'daily_logs', log.id, { status: log.status }, { updated_at: at })))
        throw conflict('Daily log changed meanwhile', {
          code: 'concurrent_change',
          message: 'The day changed while the report was filed; file it again',
        });
      return report.id;
    },
    { uniqueRace: true },
  );
  return dailyReportObject((await findReport(ctx.database.db, firmId, id, null))!);
}

/** POST /v1/crew/daily-logs/submit: the day's log, draft → submitted (made first when absent). */
export async function submitDailyLog(ctx: ServiceContext, input: SubmitDailyLogInput) {
  const id = await inTransaction(
    ctx.database,
    async (trx) => {
      const { workOrder, actingUserId } = await crewAppWorkOrder(ctx, trx, input.work_order_id, input.user_id);
      if (!ctx.auth.settings.daily_log_signoff) throw signoffNotUsed();
      const log = await logForDay(trx, workOrder, input.date);
      if (log.status === 'payroll_approved') throw dayApprovedByPayroll();
      if (log.status !== 'draft')
        throw conflict('Daily log already submitted', {
          code: 'invalid_transition',
          message: `The day is ${log.status.replace('_', ' ')}; only a draft can be submitted`,
        });
      const at = now();
      const moved = await transition(
        trx,
        'daily_logs',
        log.id,
        { status: 'draft' },
        { status: 'submitted', submitted_at: at, submitted_by_user_id: actingUserId, updated_at: at },
      );
      if (!moved)
        throw conflict('Daily log changed meanwhile', {
          code: 'concurrent_change',
          message: 'Another call changed this daily log first; read it again',
        });
      return log.id;
    },
    { uniqueRace: true },
  );
  return writtenLog(ctx, id, null);
}
