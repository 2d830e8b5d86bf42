// Daily-log queries: logs with the names of who submitted and approved them, scoped to the jobs the
// user sees (crm's rule), and the work order a log or report hangs on.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DailyLog, DailyLogStatus, DB, User, WorkOrder } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Page } from '#platform/pagination.ts';
import { type SyncWindow, syncPage, whereInWindow } from '#platform/sync.ts';

export type DailyLogRow = DailyLog & {
  submitted_by_name: string | null;
  office_approved_by_name: string | null;
  payroll_approved_by_name: string | null;
};

/** `user` null: every log of the workspace (the crew app answers its own day whatever the crew sees). */
export function logRows(db: Executor, firmId: number, user: User | null) {
  const rows = db
    .selectFrom('daily_logs as l')
    .leftJoin('users as su', 'su.id', 'l.submitted_by_user_id')
    .leftJoin('users as oa', 'oa.id', 'l.office_approved_by_user_id')
    .leftJoin('users as pa', 'pa.id', 'l.payroll_approved_by_user_id')
    .selectAll('l')
    .select([
      'su.name as submitted_by_name',
      'oa.name as office_approved_by_name',
      'pa.name as payroll_approved_by_name',
    ])
    .where('l.firm_id', '=', firmId);
  return user === null ? rows : onVisibleJob(rows, 'l.job_id', firmId, user);
}

export function findLog(db: Executor, firmId: number, id: number, user: User | null): Promise<DailyLogRow | undefined> {
  return logRows(db, firmId, user).where('l.id', '=', id).executeTakeFirst() as Promise<DailyLogRow | undefined>;
}

/** The log of a work order's day, if it has one. */
export function logOfDay(db: Executor, workOrderId: number, date: string): Promise<DailyLog | undefined> {
  return db
    .selectFrom('daily_logs')
    .selectAll()
    .where('work_order_id', '=', workOrderId)
    .where('date', '=', date)
    .executeTakeFirst();
}

export interface LogFilter {
  startDate?: string;
  endDate?: string;
  jobId?: number;
  workOrderId?: number;
  status?: DailyLogStatus;
  updatedAfter?: SyncWindow;
}

/** Newest day first; with updated_after, oldest updated first (the window's page). */
export async function listLogs(db: Executor, firmId: number, user: User, f: LogFilter, page: Page) {
  const filtered = (eb: ExpressionBuilder<DB & { l: DB['daily_logs'] }, 'l'>) => {
    const conditions: Expression<SqlBool>[] = [];
    if (f.startDate !== undefined) conditions.push(eb('l.date', '>=', f.startDate));
    if (f.endDate !== undefined) conditions.push(eb('l.date', '<=', f.endDate));
    if (f.jobId !== undefined) conditions.push(eb('l.job_id', '=', f.jobId));
    if (f.workOrderId !== undefined) conditions.push(eb('l.work_order_id', '=', f.workOrderId));
    if (f.status !== undefined) conditions.push(eb('l.status', '=', f.status));
    return eb.and(conditions);
  };
  const window = f.updatedAfter;
  const rows =
    window === undefined
      ? (logRows(db, firmId, user)
          .where(filtered)
          .orderBy('l.date', 'desc')
          .orderBy('l.id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute() as Promise<DailyLogRow[]>)
      : syncPage(window, page, (rest) => {
          const q = whereInWindow(logRows(db, firmId, user).where(filtered), 'l', window, rest)
            .orderBy('l.updated_at')
            .orderBy('l.id');
          return (rest ? q : q.limit(page.limit).offset(page.offset)).execute() as Promise<DailyLogRow[]>;
        });
  const count = onVisibleJob(
    (() => {
      const all = db.selectFrom('daily_logs as l').where('l.firm_id', '=', firmId).where(filtered);
      return window === undefined ? all : whereInWindow(all, 'l', window);
    })(),
    'l.job_id',
    firmId,
    user,
  )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const [data, total] = await Promise.all([rows, count]);
  return { rows: data, total: Number(total.n) };
}

/** A work order of the workspace by id, whatever job it is on (callers check who may use it). */
export function workOrderOfWorkspace(db: Executor, firmId: number, id: number): Promise<WorkOrder | undefined> {
  return db.selectFrom('work_orders').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}
