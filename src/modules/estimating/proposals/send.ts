// Sending a proposal (document 3, POST /v1/proposals/{id}/send: EMAILS CUSTOMER; Proposal state
// table: draft → sent, proposal_sent), once the send-approval limit allows it (approval.ts).
//
// The email goes inline through the mail transport, outside any transaction, and only then is
// the send recorded: a message the server could not hand on is a 502 with nothing recorded, and
// a proposal is never marked sent for a customer who got nothing. Sending again re-sends the link
// (to the same or another recipient) without a second proposal_sent.
import type { Proposal } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { emailField } from '#platform/email-phone.ts';
import { ApiError, conflict, unprocessable } from '#platform/errors.ts';
import { newMessageId } from '#platform/mail/message.ts';
import { senderOf } from '#platform/mail/queue.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { MailSendError, mailNotDelivered, sendWithin } from '#platform/mail/transport.ts';
import { now } from '#platform/time.ts';
import { markJobBid, sequenceOn, sequenceSettingsOf, startSequenceIn } from '#crm/index.ts';
import { recordProposalEvent } from './events.ts';
import { linkActive, shareUrlOf } from './link.ts';
import { formatMoney } from './document.ts';
import { assertApproved } from './approval.ts';
import { assertNotClosed, proposalOr404, today, writtenProposal } from './service.ts';

/** How long a send waits for the mail server before answering 502. */
export const SEND_TIMEOUT_MS = 20_000;

export interface SendInput {
  to?: string;
  message?: string;
  start_follow_up_sequence?: boolean;
}

function proposalMail(ctx: ServiceContext, p: Proposal, url: string, note: string | null) {
  const firm = ctx.auth.firm.name;
  return renderMail({
    subject: `${firm}: ${p.title}`,
    greeting: p.client_name ? `Hi ${p.client_name},` : 'Hello,',
    paragraphs: [
      ...(note ? [note] : []),
      `${firm} sent you a proposal. You can read it, and accept it with an electronic signature or decline it, on its page.`,
    ],
    facts: [
      ['Proposal', p.doc_number === null ? p.title : `#${p.doc_number} ${p.title}`],
      ['Total', formatMoney(p.total_cents)],
      ['Valid until', p.valid_until],
    ],
    action: { label: 'Review the proposal', url },
    footer: customerFooter(firm),
  });
}

export async function sendProposal(ctx: ServiceContext, id: number, input: SendInput, origin: string) {
  const to = emailField(input.to, 'to');
  const day = today(ctx);
  const p = await proposalOr404(ctx, ctx.database.db, id);
  assertNotClosed(p, 'send');
  const recipient = to ?? p.client_email;
  if (!recipient)
    throw unprocessable('proposal has no client_email', {
      code: 'no_customer_email',
      message: 'Set client_email on the proposal or send `to` with the address to send it to',
    });
  if (!linkActive(p, day))
    throw conflict('The customer link is not active', {
      code: p.link_enabled !== 1 ? 'link_invalid' : 'link_expired',
      message: 'Turn the link on (PATCH …/link enabled true) or move its expires_on before sending it',
    });
  await assertApproved(ctx, p);

  const url = (await shareUrlOf(ctx.deps, p, origin, day))!;
  const mail = proposalMail(ctx, p, url, input.message?.trim() || null);
  try {
    await sendWithin(
      ctx.deps.mail,
      { to: recipient, ...mail, ...senderOf(ctx.auth), messageId: newMessageId(ctx.deps.mail.fromAddress) },
      SEND_TIMEOUT_MS,
    );
  } catch (err) {
    if (!(err instanceof MailSendError)) throw err;
    throw mailNotDelivered('Proposal', err);
  }

  const sequence = await inWorkspaceTransaction(ctx, async (trx) => {
    const current = await proposalOr404(ctx, trx, id);
    const t = now();
    const first = current.status === 'draft';
    await trx
      .updateTable('proposals')
      .set({
        ...(first ? { status: 'sent' as const, sent_at: t, sent_by_user_id: ctx.auth.user.id } : {}),
        sent_to: recipient,
        updated_at: t,
      })
      .where('id', '=', current.id)
      .execute();
    // The job's bid date (the reports' "bid" basis) is its first proposal's sending.
    if (first) await markJobBid(trx, ctx.auth.firm.id, current.job_id, t);
    const job = await trx.selectFrom('jobs').selectAll().where('id', '=', current.job_id).executeTakeFirstOrThrow();
    if (first)
      await recordProposalEvent(trx, {
        type: 'proposal_sent',
        proposal: {
          ...current,
          status: 'sent',
          sent_at: t,
          sent_by_user_id: ctx.auth.user.id,
          sent_to: recipient,
          updated_at: t,
        },
        actorUserId: ctx.auth.user.id,
        jobStatus: { previous: job.status, current: job.status },
      });
    return startFollowUps(ctx, trx, job, input.start_follow_up_sequence);
  });
  return { data: await writtenProposal(ctx, id, origin), emailed: true, follow_up_sequence: sequence };
}

/**
 * Sending may start the workspace's follow-up sequence (document 3): it does when the sequence is
 * on, unless the call says start_follow_up_sequence false. The email is already gone, so a sequence
 * that cannot start (the customer skips follow-ups, no customer email) never fails the send; the
 * answer says why it did not start.
 */
async function startFollowUps(
  ctx: ServiceContext,
  trx: Parameters<typeof startSequenceIn>[1],
  job: Parameters<typeof startSequenceIn>[2],
  wanted: boolean | undefined,
): Promise<{ started: boolean; reason: string | null }> {
  if (wanted === false) return { started: false, reason: 'not_requested' };
  const settings = await sequenceSettingsOf(trx, ctx.auth.firm.id);
  if (!sequenceOn(settings)) return { started: false, reason: 'sequence_not_enabled' };
  try {
    const started = await startSequenceIn(ctx, trx, job, settings);
    return { started, reason: started ? null : 'already_running' };
  } catch (err) {
    if (err instanceof ApiError && typeof err.body.code === 'string') return { started: false, reason: err.body.code };
    throw err;
  }
}
