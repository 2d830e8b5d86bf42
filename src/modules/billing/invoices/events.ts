// Invoice business events (document 1, Events: invoice_created and payment_received, with the
// data fields it lists), recorded in the write's transaction; `job` rides along because the event
// names its job. The `invoice` part of their webhook bodies is the invoice as GET shows it now.
import type { Executor } from '#db/dialect.ts';
import type { Invoice } from '#db/tables.ts';
import type { PayloadPart } from '#events/payload-parts.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { zWire } from '#platform/time.ts';
import { invoicesOf } from './repo.ts';
import { invoiceObject, type InvoiceRow } from './serialize.ts';

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

export const invoicePayloadPart: PayloadPart = {
  field: 'invoice',
  appliesTo: (event) => event.entity_type === 'invoice',
  async build(db, event) {
    const row = await invoicesOf(db, event.firm_id).where('invoices.id', '=', event.entity_id).executeTakeFirst();
    return row ? invoiceObject(row as InvoiceRow) : null;
  },
};
