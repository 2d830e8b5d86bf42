// POST /v1/change-orders/{id}/send (document 3: EMAILS CUSTOMER a review-and-sign link; draft →
// sent; emailed false with no customer email, link still created; a decided change order 400).
//
// The link is made (and stored) first, so the address in the email is the one the change order
// keeps however many sends race. The email then goes inline through the mail transport, outside
// any transaction, as proposals send theirs: a message the mail server refuses is a 502 and the
// change order stays as it was. Only then is the send recorded: draft → sent in the first sent
// stage. Sending a sent change order again re-sends the same link.
import type { ChangeOrder } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { newMessageId } from '#platform/mail/message.ts';
import { senderOf } from '#platform/mail/queue.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { MailSendError, mailNotDelivered, sendWithin } from '#platform/mail/transport.ts';
import { now } from '#platform/time.ts';
import { signedMoney } from './figures.ts';
import { linkFor } from './link.ts';
import type { ChangeOrderRow } from './repo.ts';
import { figuresOf } from './serialize.ts';
import { assertOperations, changeOrderOr404, refuseClosed, writtenChangeOrder } from './service.ts';
import { changeOrderStages, firstStage } from './stages.ts';

/** How long a send waits for the mail server before answering 502. */
export const SEND_TIMEOUT_MS = 20_000;

const days = (n: number) => (n === 0 ? null : `${n > 0 ? '+' : '−'}${Math.abs(n)} day${Math.abs(n) === 1 ? '' : 's'}`);

function changeOrderMail(ctx: ServiceContext, co: ChangeOrderRow, url: string) {
  const firm = ctx.auth.firm.name;
  return renderMail({
    subject: `${firm}: change order #${co.co_number} — ${co.title}`,
    greeting: co.customer_name ? `Hi ${co.customer_name},` : 'Hello,',
    paragraphs: [
      `${firm} sent you a change order for ${co.job_name}. You can review it, and approve it with an electronic signature or decline it, on its page.`,
    ],
    facts: [
      ['Change order', `#${co.co_number} ${co.title}`],
      ['Job', co.job_name],
      ['Price change', signedMoney(figuresOf(co).amount_cents)],
      ['Schedule change', days(co.days_delta)],
    ],
    action: { label: 'Review the change order', url },
    footer: customerFooter(firm),
  });
}

export async function sendChangeOrder(ctx: ServiceContext, id: number, origin: string) {
  assertOperations(ctx);
  const current = await changeOrderOr404(ctx, ctx.database.db, id);
  refuseClosed(current);
  const link = await linkFor(ctx.deps, current, origin);
  if (current.token_salt === null) {
    await inWorkspaceTransaction(ctx, async (trx) => {
      await trx
        .updateTable('change_orders')
        .set({ token_salt: link.salt, token_hash: link.hash })
        .where('id', '=', current.id)
        .where('token_salt', 'is', null)
        .execute();
    });
  }
  // The link the change order keeps (another send may have made it first).
  const co = await changeOrderOr404(ctx, ctx.database.db, id);
  const { url } = await linkFor(ctx.deps, co, origin);

  const recipient = co.customer_email;
  if (recipient) {
    try {
      await sendWithin(
        ctx.deps.mail,
        {
          to: recipient,
          ...changeOrderMail(ctx, co, url),
          ...senderOf(ctx.auth),
          messageId: newMessageId(ctx.deps.mail.fromAddress),
        },
        SEND_TIMEOUT_MS,
      );
    } catch (err) {
      if (!(err instanceof MailSendError)) throw err;
      throw mailNotDelivered('Change order', err, 'the change order was not marked sent');
    }
  }

  const stage = firstStage(changeOrderStages(ctx.auth.settings), 'sent');
  await inWorkspaceTransaction(ctx, async (trx) => {
    const t = now();
    const fresh = await trx.selectFrom('change_orders').selectAll().where('id', '=', co.id).executeTakeFirstOrThrow();
    // Decided while the email went out: the decision stands and the send changes nothing.
    if (fresh.status !== 'draft' && fresh.status !== 'sent') return;
    const changes: Partial<ChangeOrder> =
      fresh.status === 'draft'
        ? {
            status: 'sent',
            stage,
            sent_at: fresh.sent_at ?? t,
            sent_by_user_id: fresh.sent_by_user_id ?? ctx.auth.user.id,
          }
        : {};
    await trx
      .updateTable('change_orders')
      .set({ ...changes, sent_to: recipient ?? fresh.sent_to, updated_at: t })
      .where('id', '=', co.id)
      .where('status', '=', fresh.status)
      .execute();
  });
  return {
    data: await writtenChangeOrder(ctx, id, origin),
    url,
    emailed: recipient !== null,
    message: recipient
      ? null
      : 'The change order has no customer_email, so nothing was emailed: share url with the customer, or set customer_email and send again',
  };
}
