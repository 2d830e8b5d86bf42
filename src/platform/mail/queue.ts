// Mail caused by a change: written in the change's own transaction (a rollback sends nothing, a
// crash loses nothing) and sent by the worker (worker.ts). Calls whose answer says whether the
// mail went (`emailed`, a 502) send inline instead (transport.ts, sendWithin).
import type { Executor } from '#db/dialect.ts';
import { now } from '#platform/time.ts';
import { workQueuedIn } from '#platform/work-queued.ts';
import { newMessageId } from './message.ts';
import type { RenderedMail } from './templates.ts';
import type { MailTransport } from './transport.ts';

/** The queue's name for the worker inside `serve` (platform/work-queued.ts): its table. */
export const MAIL_QUEUE = 'outgoing_mail';

/** next_attempt_at of a message nobody has tried yet: due at once, whatever the worker's clock says. */
export const DUE_AT_ONCE = '0000-01-01T00:00:00.000000';

export interface QueuedMail {
  firmId: number | null;
  /** lead_alert, lead_escalation, reminder_due, sequence_step … */
  kind: string;
  /** The record that caused it, `lead:12`. */
  ref?: string | null;
  to: string;
  /** The display name on From: the workspace's name. */
  fromName?: string | null;
  /** The acting teammate's address. */
  replyTo?: string | null;
  mail: RenderedMail;
}

/** Queues one message in `trx`; returns its row id. */
export async function queueMail(trx: Executor, transport: Pick<MailTransport, 'fromAddress'>, m: QueuedMail) {
  const row = await trx
    .insertInto('outgoing_mail')
    .values({
      firm_id: m.firmId,
      kind: m.kind,
      ref: m.ref ?? null,
      to_address: m.to,
      from_name: m.fromName ?? null,
      reply_to: m.replyTo ?? null,
      subject: m.mail.subject,
      text_body: m.mail.text,
      html_body: m.mail.html,
      message_id: newMessageId(transport.fromAddress),
      status: 'queued',
      next_attempt_at: DUE_AT_ONCE,
      locked_until: null,
      lease_token: null,
      last_error: null,
      sent_at: null,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  workQueuedIn(trx, MAIL_QUEUE);
  return row.id;
}

/** Mail sent for a change someone made: From shows the workspace, answers go to the acting teammate. */
export function senderOf(auth: { firm: { name: string }; user: { email: string } }) {
  return { fromName: auth.firm.name, replyTo: auth.user.email };
}
