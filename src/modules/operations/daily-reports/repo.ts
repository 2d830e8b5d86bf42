// Daily-report queries: reports with who filed them and how many photos hang on each, scoped to the
// jobs the user sees (crm's rule).
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DailyReport, DB, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Page } from '#platform/pagination.ts';

export type DailyReportRow = DailyReport & { by_name: string | null; photo_count: number | string };

/** `user` null: every report of the workspace (the crew app answers its own filing whatever the crew sees). */
export function reportRows(db: Executor, firmId: number, user: User | null) {
  const rows = db
    .selectFrom('daily_reports as r')
    .leftJoin('users as u', 'u.id', 'r.submitted_by_user_id')
    .selectAll('r')
    .select('u.name as by_name')
    .select((eb) =>
      eb
        .selectFrom('photos')
        .select((p) => p.fn.countAll<number>().as('n'))
        .whereRef('photos.daily_report_id', '=', 'r.id')
        .as('photo_count'),
    )
    .where('r.firm_id', '=', firmId);
  return user === null ? rows : onVisibleJob(rows, 'r.job_id', firmId, user);
}

export function findReport(
  db: Executor,
  firmId: number,
  id: number,
  user: User | null,
): Promise<DailyReportRow | undefined> {
  return reportRows(db, firmId, user).where('r.id', '=', id).executeTakeFirst() as Promise<DailyReportRow | undefined>;
}

/** The reports of one log, oldest first (the order the crew filed them). */
export function reportsOfLog(
  db: Executor,
  firmId: number,
  logId: number,
  user: User | null,
): Promise<DailyReportRow[]> {
  return reportRows(db, firmId, user)
    .where('r.daily_log_id', '=', logId)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute() as Promise<DailyReportRow[]>;
}

export interface ReportFilter {
  jobId?: number;
  workOrderId?: number;
  startDate?: string;
  endDate?: string;
}

/** Newest first: by day, then the latest filed. */
export async function listReports(db: Executor, firmId: number, user: User, f: ReportFilter, page: Page) {
  const filtered = (eb: ExpressionBuilder<DB & { r: DB['daily_reports'] }, 'r'>) => {
    const conditions: Expression<SqlBool>[] = [];
    if (f.jobId !== undefined) conditions.push(eb('r.job_id', '=', f.jobId));
    if (f.workOrderId !== undefined) conditions.push(eb('r.work_order_id', '=', f.workOrderId));
    if (f.startDate !== undefined) conditions.push(eb('r.date', '>=', f.startDate));
    if (f.endDate !== undefined) conditions.push(eb('r.date', '<=', f.endDate));
    return eb.and(conditions);
  };
  const [rows, count] = await Promise.all([
    reportRows(db, firmId, user)
      .where(filtered)
      .orderBy('r.date', 'desc')
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute() as Promise<DailyReportRow[]>,
    onVisibleJob(
      db.selectFrom('daily_reports as r').where('r.firm_id', '=', firmId).where(filtered),
      'r.job_id',
      firmId,
      user,
    )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A report of the workspace by id alone (a photo upload naming it checks its job itself). */
export function reportOfWorkspace(db: Executor, firmId: number, id: number) {
  return db
    .selectFrom('daily_reports')
    .select(['id', 'job_id'])
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}
