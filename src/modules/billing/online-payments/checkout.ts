// Starting the processor's checkout for an open online invoice (the invoice page's Pay button,
// pages/invoice.ts). Stripe answers the same session to the same idempotency key for a day; the key
// changes every hour, so a customer who comes back later gets a fresh session rather than one that
// may have expired, while a double click within the hour opens one.
import type { Checkout, ProcessorPayments } from '#platform/payments/processor.ts';
import { now } from '#platform/time.ts';
import type { InvoiceRow } from '#billing/invoices/serialize.ts';
import type { InvoiceSender } from '#billing/invoices/visit.ts';
import { invoiceNumberOf } from '#billing/invoices/rules.ts';

export function startCheckoutOf(
  payments: ProcessorPayments,
  invoice: InvoiceRow,
  sender: InvoiceSender,
  pageUrl: string,
): Promise<Checkout> {
  const hour = now().slice(0, 13).replace(/\D/g, '');
  return payments.startCheckout({
    firmId: invoice.firm_id,
    invoiceId: invoice.id,
    amountCents: Number(invoice.amount_cents),
    currency: invoice.currency,
    description: `Invoice ${invoiceNumberOf(invoice)} from ${sender.firmName}${invoice.project_name ? `: ${invoice.project_name}` : ''}`,
    customerEmail: invoice.client_email,
    successUrl: `${pageUrl}?paid=1`,
    cancelUrl: pageUrl,
    idempotencyKey: `groundwork-invoice-${invoice.id}-${hour}`,
    account: sender.stripeAccount,
  });
}
