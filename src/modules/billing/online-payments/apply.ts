// Applying what the payment processor reports (document 3: online invoices are open, paid, void or
// uncollectible, set only by the payment processor). Stripe's signed webhook and the built-in test
// mode's card form both end here, so a test payment exercises the exact path a real one takes.
//
// Each event is applied once: its row in payment_events (keyed by processor and event id) is
// written in the transaction that changes the invoice, and a replay finds it and changes nothing.
// The move itself is conditional on the invoice still being open, so an invoice is paid once and
// payment_received fires once, whatever arrives twice or at the same time. A payment alerts the
// office (crm's customer alerts) in the same transaction, so it is told once too.
import type { Database } from '#db/database.ts';
import type { Invoice } from '#db/tables.ts';
import { recordPaymentReceived } from '#billing/invoices/events.ts';
import { queueCustomerAlert } from '#crm/index.ts';
import { inFirmTransaction } from '#platform/context.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { formatCents } from '#platform/money.ts';
import type { PaymentEvent } from '#platform/payments/processor.ts';
import { now } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';

export type Applied =
  /** The invoice moved (paid, void or uncollectible). */
  | { result: 'applied'; invoice: Invoice }
  /** This event was applied before: nothing changed now. */
  | { result: 'replayed' }
  /** Recorded, but it moves nothing: the invoice is no longer open, or the amount falls short. */
  | { result: 'ignored'; reason: Ignored }
  /** No online invoice of ours matches the event (another system's checkout on the same account). */
  | { result: 'unknown_invoice' };

type Ignored = 'not_open' | 'amount_short' | 'currency_differs' | 'other_account';

const PROCESSOR_LABEL: Record<PaymentEvent['processor'], string> = {
  stripe: 'Stripe',
  test: 'Test mode (no money moved)',
};

export async function applyPaymentEvent(
  database: Database,
  mail: Pick<MailTransport, 'fromAddress'>,
  event: PaymentEvent,
): Promise<Applied> {
  return inFirmTransaction(database, event.firmId, async (trx) => {
    const invoice = await trx
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', event.invoiceId)
      .where('firm_id', '=', event.firmId)
      .where('payment_method', '=', 'online')
      .executeTakeFirst();
    if (!invoice) return { result: 'unknown_invoice' } as const;
    const firm = await trx
      .selectFrom('firms')
      .select('settings')
      .where('id', '=', event.firmId)
      .executeTakeFirstOrThrow();
    const t = now();
    const why = reasonToIgnore(invoice, event, settingsOf(firm).stripe_account);
    const recorded = await trx
      .insertInto('payment_events')
      .values({
        processor: event.processor,
        event_id: event.eventId,
        firm_id: event.firmId,
        invoice_id: invoice.id,
        outcome: event.outcome,
        amount_cents: event.amountCents,
        currency: event.currency,
        applied: why === null ? 1 : 0,
        received_at: t,
      })
      .onConflict((oc) => oc.columns(['processor', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!recorded) return { result: 'replayed' } as const;
    if (why !== null) return { result: 'ignored', reason: why } as const;
    const moved = await trx
      .updateTable('invoices')
      .set({
        status: event.outcome,
        ...(event.outcome === 'paid' ? { paid_at: t } : {}),
        payment_processor: event.processor,
        payment_reference: event.reference ?? invoice.payment_reference,
        updated_at: t,
      })
      .where('id', '=', invoice.id)
      .where('status', '=', 'open')
      .returningAll()
      .executeTakeFirstOrThrow();
    if (moved.status === 'paid') {
      await recordPaymentReceived(trx, moved);
      const number = moved.doc_number ?? moved.id;
      await queueCustomerAlert(trx, mail, {
        action: 'invoice_paid',
        firmId: moved.firm_id,
        jobId: moved.job_id,
        ref: `invoice:${moved.id}`,
        did: `paid invoice ${number} (${formatCents(event.amountCents)})`,
        at: t,
        facts: [
          ['Amount paid', `${formatCents(event.amountCents)} ${event.currency.toUpperCase()}`],
          ['Invoice', `#${number}${moved.project_name ? ` ${moved.project_name}` : ''}`],
          ['Invoice total', formatCents(Number(moved.amount_cents))],
          ['Paid online with', PROCESSOR_LABEL[event.processor]],
          ['Payment reference', moved.payment_reference],
        ],
        api: [`GET /v1/invoices/${moved.id}`, `GET /v1/payments?job_id=${moved.job_id}`],
      });
    }
    return { result: 'applied', invoice: moved } as const;
  });
}

/**
 * Why an event moves nothing: a Stripe payment taken by an account that is not the workspace's
 * pays nothing of it; only an open invoice moves (a paid one stays paid when a second
 * checkout of it completes), and a payment must cover the invoice in its currency.
 */
function reasonToIgnore(invoice: Invoice, event: PaymentEvent, account: string | null): Ignored | null {
  if (event.processor === 'stripe' && event.account !== account) return 'other_account';
  if (invoice.status !== 'open') return 'not_open';
  if (event.outcome !== 'paid') return null;
  if (event.currency.toUpperCase() !== invoice.currency.toUpperCase()) return 'currency_differs';
  if (event.amountCents < Number(invoice.amount_cents)) return 'amount_short';
  return null;
}
