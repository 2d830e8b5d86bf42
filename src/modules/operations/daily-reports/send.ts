// POST /v1/daily-reports/{id}/send (document 2: EMAILS A THIRD PARTY; {data: report, emailed_to};
// 502 and nothing recorded when it cannot be sent). The email goes inline through the mail
// transport, outside any transaction, as proposals and change orders send theirs; only once the
// mail server has taken it is the send recorded on the report (last_emailed_at, last_emailed_to).
// Sending is an office user's act, like every daily-log write: a crew login is refused.
import type { ServiceContext } from '#platform/context.ts';
import { looksLikeEmail } from '#platform/email-phone.ts';
import { ApiError, badRequest } from '#platform/errors.ts';
import { assertOfficeUser } from '#platform/guards.ts';
import { newMessageId } from '#platform/mail/message.ts';
import { senderOf } from '#platform/mail/queue.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { MailSendError, sendWithin } from '#platform/mail/transport.ts';
import { now } from '#platform/time.ts';
import { findReport } from './repo.ts';
import type { DailyReportObject } from './schemas.ts';
import { dailyReportObject } from './serialize.ts';
import { dailyReportNotFound, getDailyReport } from './service.ts';

/** How long a send waits for the mail server before answering 502. */
export const SEND_TIMEOUT_MS = 20_000;

/** An answer to one of the workspace's own questions, as a reader sees it. */
function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(answerText).join(', ');
  return JSON.stringify(value);
}

/** "Tuesday, March 10, 2026" of a YYYY-MM-DD day. */
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });

export function dailyReportMail(
  firm: string,
  report: DailyReportObject,
  names: { job: string; workOrder: string | null },
) {
  const completed =
    report.completed_quantity === null ? null : `${report.completed_quantity} ${report.completed_unit ?? ''}`.trim();
  return renderMail({
    subject: `${firm}: daily report for ${names.job}, ${report.date}`,
    greeting: 'Hello,',
    paragraphs: [`${firm} sent you the daily report for ${names.job} on ${longDate(report.date)}.`],
    facts: [
      ['Job', names.job],
      ['Work order', names.workOrder],
      ['Date', report.date],
      ['Filed by', report.submitted_by?.name],
      ['Weather', report.weather],
      ['Work performed', report.work_performed],
      ['Completed', completed],
      ['Delays', report.delay_notes],
      ['Safety', report.safety_notes],
      ['Materials', report.material_notes],
      ['Equipment', report.equipment_notes],
      ...Object.entries(report.answers).map(([q, a]) => [q, answerText(a)] as const),
      ['Photos', report.photo_count > 0 ? String(report.photo_count) : null],
    ],
    footer: customerFooter(firm),
  });
}

export async function sendDailyReport(ctx: ServiceContext, id: number, toEmail: string) {
  const db = ctx.database.db;
  const firmId = ctx.auth.firm.id;
  assertOfficeUser(ctx, 'Sending a daily report needs an office user; a crew login cannot');
  const row = await findReport(db, firmId, id, ctx.auth.user);
  if (!row) throw dailyReportNotFound();
  const to = toEmail.trim();
  if (!looksLikeEmail(to))
    throw badRequest('to_email does not look like an email address', { code: 'invalid_email', field: 'to_email' });
  const [job, workOrder] = await Promise.all([
    db.selectFrom('jobs').select('name').where('id', '=', row.job_id).executeTakeFirst(),
    db.selectFrom('work_orders').select('title').where('id', '=', row.work_order_id).executeTakeFirst(),
  ]);
  const report = dailyReportObject(row);
  const mail = dailyReportMail(ctx.auth.firm.name, report, {
    job: job?.name ?? `Job ${row.job_id}`,
    workOrder: workOrder?.title ?? null,
  });
  try {
    await sendWithin(
      ctx.deps.mail,
      { to, ...mail, ...senderOf(ctx.auth), messageId: newMessageId(ctx.deps.mail.fromAddress) },
      SEND_TIMEOUT_MS,
    );
  } catch (err) {
    if (!(err instanceof MailSendError)) throw err;
    // Document 2's words for it; the code and retryable as every inline send (mail/transport.ts).
    throw new ApiError(502, 'Email could not be sent', {
      code: 'mail_not_delivered',
      message: `The mail server did not take the message (${err.message}); nothing was recorded, send again`,
      retryable: !err.permanent,
    });
  }
  const at = now();
  await db
    .updateTable('daily_reports')
    .set({ last_emailed_at: at, last_emailed_to: to, updated_at: at })
    .where('id', '=', id)
    .execute();
  return { data: await getDailyReport(ctx, id), emailed_to: to };
}
