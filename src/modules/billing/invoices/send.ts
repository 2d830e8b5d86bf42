// POST /v1/invoices/{id}/send (document 3: EMAILS CUSTOMER at client_email with a view link; the
// Invoice (check) state table: draft -> sent, issued on first send; re-sending allowed).
//
// The email goes inline, outside any transaction, and only then is the send recorded: a message the
// mail server did not take is a 502 with the invoice unchanged, so an invoice is never marked sent
// for a customer who got nothing. The link is made (once) before the mail, since the mail carries it.
import type { ServiceContext } from '#platform/context.ts';
import { conflict, unprocessable } from '#platform/errors.ts';
import { MailSendError, mailNotDelivered } from '#platform/mail/transport.ts';
import { invoicePageUrl, invoiceToken } from './link.ts';
import { mailInvoice } from './mail.ts';
import { getInvoice, invoiceOr404, issueOnSend, refuseOnline } from './service.ts';

export async function sendInvoice(ctx: ServiceContext, id: number, origin: string) {
  const invoice = await invoiceOr404(ctx, ctx.database.db, id);
  refuseOnline(invoice);
  if (invoice.status === 'void')
    throw conflict("A void invoice can't be sent", {
      code: 'invalid_transition',
      status: invoice.status,
      allowed_from: ['draft', 'sent', 'paid'],
    });
  if (!invoice.client_email)
    throw unprocessable('invoice has no client_email', {
      code: 'no_customer_email',
      field: 'client_email',
      message: 'Set client_email (PATCH /v1/invoices/{id}) and send again',
    });
  const token = await invoiceToken(ctx.database.db, ctx.deps, invoice);
  try {
    await mailInvoice(ctx, invoice, invoice.client_email, invoicePageUrl(origin, token));
  } catch (err) {
    if (!(err instanceof MailSendError)) throw err;
    throw mailNotDelivered('Invoice', err);
  }
  await issueOnSend(ctx, invoice.id);
  return { data: await getInvoice(ctx, invoice.id), emailed: true as const };
}
