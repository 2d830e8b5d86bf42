// Invoice business events (document 1, Events: invoice_created and payment_received, with the
// data fields it lists), recorded in the write's transaction; `job` rides along because the event
// names its job. Document 1's business payload has no invoice object (only job and estimate), so
// none is added: a subscriber reads the invoice with GET /v1/invoices/{id}.
import type { Executor } from '#db/dialect.ts';
import type { Invoice } from '#db/tables.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { zWire } from '#platform/time.ts';

type Recorded = Pick<Invoice, 'id' | 'firm_id' | 'job_id' | 'doc_number' | 'amount_cents' | 'status' | 'paid_at'>;

const figures = (i: Recorded) => ({
  invoice_id: i.id,
  doc_number: i.doc_number,
  amount_cents: i.amount_cents,
  status: i.status,
});

export async function recordInvoiceCreated(trx: Executor, i: Recorded): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: i.firm_id,
    type: 'invoice_created',
    entity: { type: 'invoice', id: i.id },
    jobId: i.job_id,
    data: figures(i),
  });
}

export async function recordPaymentReceived(trx: Executor, i: Recorded): Promise<void> {
  await recordBusinessEvent(trx, {
    firmId: i.firm_id,
    type: 'payment_received',
    entity: { type: 'invoice', id: i.id },
    jobId: i.job_id,
    data: { ...figures(i), paid_at: zWire(i.paid_at) },
  });
}
