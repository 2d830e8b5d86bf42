// An invoice row (and its creator's name) to the wire: dollars beside every _cents twin, Z times,
// the payment terms from due_days, and the accounting object (no accounting system is connected,
// so nothing has been copied there).
import type { Invoice } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';
import { descriptionOf, paymentTermsOf, type StoredLineItem } from './rules.ts';
import type { InvoiceObject, InvoiceSummary } from './schemas.ts';

/** An invoice row with its creator's name (null once the user is gone). */
export type InvoiceRow = Invoice & { created_by_name: string | null };

export const NOT_IN_ACCOUNTING = {
  has_invoice: false,
  has_payment: false,
  invoice_synced_at: null,
  sync_error: null,
} as const;

export const lineItemsOf = (row: Pick<Invoice, 'line_items'>) => JSON.parse(row.line_items) as StoredLineItem[];

export function invoiceSummary(row: InvoiceRow, lines: StoredLineItem[] = lineItemsOf(row)): InvoiceSummary {
  return {
    id: row.id,
    job_id: row.job_id,
    doc_number: row.doc_number,
    invoice_number: row.invoice_number,
    status: row.status,
    payment_method: row.payment_method,
    billing_type: row.billing_type,
    description: descriptionOf(lines),
    currency: row.currency,
    subtotal: centsToDollars(row.subtotal_cents),
    subtotal_cents: row.subtotal_cents,
    discount: centsToDollars(row.discount_cents),
    discount_cents: row.discount_cents,
    tax: centsToDollars(row.tax_cents),
    tax_cents: row.tax_cents,
    amount: centsToDollars(row.amount_cents),
    amount_cents: row.amount_cents,
    due_days: row.due_days,
    due_date: row.due_date,
    payment_terms: paymentTermsOf(row.due_days),
    issued_at: zWire(row.issued_at),
    paid_at: zWire(row.paid_at),
    client_name: row.client_name,
    client_email: row.client_email,
    client_address: row.client_address,
    project_name: row.project_name,
    project_address: row.project_address,
    reference_number: row.reference_number,
    memo: row.memo,
    remit_to_name: row.remit_to_name,
    remit_to_address: row.remit_to_address,
    payment_instructions: row.payment_instructions,
    sender_name: row.sender_name,
    sender_email: row.sender_email,
    created_by:
      row.created_by_user_id !== null && row.created_by_name !== null
        ? { id: row.created_by_user_id, name: row.created_by_name }
        : null,
    estimate_id: row.estimate_id,
    quickbooks: { ...NOT_IN_ACCOUNTING },
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
}

export function invoiceObject(row: InvoiceRow): InvoiceObject {
  const lines = lineItemsOf(row);
  return {
    ...invoiceSummary(row, lines),
    line_items: lines.map((l) => ({
      description: l.description,
      amount: centsToDollars(l.amount_cents),
      amount_cents: l.amount_cents,
    })),
  };
}
