// Daily reports: the office reads them (document 2, Daily logs and reports); the crew files them
// from the crew app (crew-app/reports.ts); send.ts emails one to a third party.
import type { ServiceContext } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { findReport, listReports } from './repo.ts';
import type { DailyReportListInput, DailyReportObject } from './schemas.ts';
import { dailyReportObject } from './serialize.ts';

export const dailyReportNotFound = () => notFound('Daily report not found');

export async function listDailyReports(ctx: ServiceContext, q: DailyReportListInput) {
  const page = pageOf(q);
  const { rows, total } = await listReports(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { jobId: q.job_id, workOrderId: q.work_order_id, startDate: q.start_date, endDate: q.end_date },
    page,
  );
  return listEnvelope(rows.map(dailyReportObject), total, page);
}

export async function getDailyReport(ctx: ServiceContext, id: number): Promise<DailyReportObject> {
  const row = await findReport(ctx.database.db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!row) throw dailyReportNotFound();
  return dailyReportObject(row);
}
