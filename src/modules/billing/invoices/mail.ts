// The customer's invoice email (EMAILS CUSTOMER: POST /v1/invoices/{id}/send, and the pay-page email
// of request payment), and sending it on the spot. Both calls report the outcome in their answer,
// so the mail goes inline through the transport (never inside a transaction), not through the queue.
import type { Invoice } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { newMessageId } from '#platform/mail/message.ts';
import { senderOf } from '#platform/mail/queue.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { sendWithin } from '#platform/mail/transport.ts';
import { formatCents } from '#platform/money.ts';
import { invoiceNumberOf } from './rules.ts';

/** How long a call waits for the mail server before giving up on the message. */
export const SEND_TIMEOUT_MS = 20_000;

type Mailed = Pick<
  Invoice,
  'id' | 'invoice_number' | 'client_name' | 'amount_cents' | 'due_date' | 'due_days' | 'project_name' | 'payment_method'
>;

function invoiceMail(ctx: ServiceContext, invoice: Mailed, url: string) {
  const firm = ctx.auth.firm.name;
  const online = invoice.payment_method === 'online';
  return renderMail({
    subject: `${firm}: invoice ${invoiceNumberOf(invoice)} for ${formatCents(invoice.amount_cents)}`,
    greeting: invoice.client_name ? `Hi ${invoice.client_name},` : 'Hello,',
    paragraphs: [
      online
        ? `${firm} sent you an invoice you can pay online by card. The invoice, a PDF copy and the payment page are at the link below.`
        : `${firm} sent you an invoice. You can read it and download a PDF copy at the link below.`,
    ],
    facts: [
      ['Invoice', invoiceNumberOf(invoice)],
      ['Project', invoice.project_name],
      ['Amount due', formatCents(invoice.amount_cents)],
      ['Due', invoice.due_days === 0 ? 'On receipt' : invoice.due_date],
    ],
    action: { label: online ? 'View and pay the invoice' : 'View the invoice', url },
    footer: customerFooter(firm),
  });
}

/** Sends the invoice email now; throws MailSendError when the mail server did not take it. */
export async function mailInvoice(ctx: ServiceContext, invoice: Mailed, to: string, url: string): Promise<void> {
  await sendWithin(
    ctx.deps.mail,
    {
      to,
      ...invoiceMail(ctx, invoice, url),
      ...senderOf(ctx.auth),
      messageId: newMessageId(ctx.deps.mail.fromAddress),
    },
    SEND_TIMEOUT_MS,
  );
}
