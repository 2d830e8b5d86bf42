// What the daily-log, daily-report and crew-app tests share: a workspace running operations with a
// crew (a foreman with their own key), a job and a work order of that crew, and the crew's report.
import type { TestApp, Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { crewWithForeman, OPERATIONS_SETTINGS, scheduleJob } from '#test/helpers/scenarios/operations.ts';

export const SIGNOFF = { daily_log_signoff: true };
export const PAYROLL_SIGNOFF = { daily_log_signoff: true, payroll_signoff: true };

/** A work order of `crewId` on `jobId`, scheduled on `date`. */
export async function workOrderOn(w: Workspace, jobId: number, crewId: number | null, date = '2026-03-10') {
  const made = (
    await ok(
      w.api.post('/v1/work-orders', {
        job_id: jobId,
        title: 'Sealcoat the lot',
        crew_id: crewId,
        scheduled_date: date,
      }),
    )
  ).data;
  return { id: made.id, job_id: jobId };
}

/** A workspace with a crew, a job and the crew's work order on it. */
export async function crewDay(
  t: TestApp,
  settings: Record<string, unknown> = {},
  workspace: Record<string, unknown> = {},
) {
  const w = await t.workspace({ ...workspace, settings: { ...OPERATIONS_SETTINGS, ...settings } });
  const { crew, foreman } = await crewWithForeman(t, w);
  const job = await scheduleJob(w);
  const workOrder = await workOrderOn(w, job.id, crew.id);
  return { w, crew, foreman, job, workOrder };
}

export const DAY = '2026-03-10';

/** The foreman files a report for the work order's day. */
export async function fileReport(
  api: Workspace['api'],
  workOrderId: number,
  body: Record<string, unknown> = {},
  date = DAY,
) {
  return (
    await ok(
      api.post('/v1/crew/daily-reports', {
        work_order_id: workOrderId,
        date,
        work_performed: 'Sealed the lot',
        ...body,
      }),
    )
  ).data;
}

/** The foreman submits the day. */
export async function submitDay(api: Workspace['api'], workOrderId: number, date = DAY) {
  return (await ok(api.post('/v1/crew/daily-logs/submit', { work_order_id: workOrderId, date }))).data;
}

/** A time entry of `userId` on the work order, clocked in at `clockIn` (stored UTC) for two hours. */
export async function timeEntry(
  t: TestApp,
  w: Workspace,
  workOrder: { id: number; job_id: number },
  userId: number,
  clockIn: string,
  extra: { voided_at?: string } = {},
) {
  const out = new Date(Date.parse(`${clockIn.slice(0, 23)}Z`) + 2 * 3600_000)
    .toISOString()
    .replace('Z', '')
    .padEnd(26, '0');
  const row = await t.database.db
    .insertInto('time_entries')
    .values({
      firm_id: w.firmId,
      user_id: userId,
      job_id: workOrder.job_id,
      work_order_id: workOrder.id,
      clock_in: clockIn,
      clock_out: out,
      voided_at: extra.voided_at ?? null,
      created_at: clockIn,
      updated_at: clockIn,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Which of `ids` are approved, and by whom. */
export async function approvals(t: TestApp, ids: number[]) {
  const rows = await t.database.db
    .selectFrom('time_entries')
    .select(['id', 'approved_at', 'approved_by_user_id'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.approved_at === null ? null : r.approved_by_user_id]));
}
