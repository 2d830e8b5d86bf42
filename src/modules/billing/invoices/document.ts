// The invoice as the customer sees it: one pure description that the invoice page
// (src/pages/invoice.ts) and the PDF (pdf.ts) both render, so the two never disagree. Dates are the
// workspace's (issue date in its time zone), money is formatted from integer cents.
import { formatCents } from '#platform/money.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { invoiceNumberOf, paymentTermsOf } from './rules.ts';
import { lineItemsOf, type InvoiceRow } from './serialize.ts';

export interface InvoiceDocument {
  firmName: string;
  /** "Invoice #1042-2" (its own number, numbers.ts). */
  title: string;
  /** What the customer is asked for, in words: Paid, Due 2026-12-27, Due on receipt, Uncollectible. */
  standing: string;
  paid: boolean;
  online: boolean;
  facts: { label: string; value: string }[];
  lines: { description: string; amount: string }[];
  totals: { label: string; amount: string; strong?: boolean }[];
  /** Where to send a check, with the instructions (check invoices). */
  remit: { name: string | null; address: string; instructions: string | null } | null;
  memo: string | null;
}

const present = (rows: { label: string; value: string | null }[]) =>
  rows.filter((r): r is { label: string; value: string } => r.value !== null && r.value.trim() !== '');

export function invoiceDocument(i: InvoiceRow, firm: { name: string; timezone: string }): InvoiceDocument {
  const issued = i.issued_at === null ? null : storedToLocal(i.issued_at, firm.timezone).date;
  const paid = i.status === 'paid';
  const standing = paid
    ? `Paid ${i.paid_at === null ? '' : storedToLocal(i.paid_at, firm.timezone).date}`.trim()
    : i.status === 'uncollectible'
      ? 'Marked uncollectible'
      : i.due_days === 0
        ? 'Due on receipt'
        : `Due ${i.due_date}`;
  const totals: InvoiceDocument['totals'] = [{ label: 'Subtotal', amount: formatCents(i.subtotal_cents) }];
  if (i.discount_cents > 0) totals.push({ label: 'Discount', amount: formatCents(-i.discount_cents) });
  if (i.tax_cents > 0) totals.push({ label: 'Tax', amount: formatCents(i.tax_cents) });
  totals.push({ label: 'Total', amount: formatCents(i.amount_cents), strong: !paid });
  if (paid) totals.push({ label: 'Amount due', amount: formatCents(0), strong: true });
  return {
    firmName: firm.name,
    title: `Invoice ${invoiceNumberOf(i)}`,
    standing,
    paid,
    online: i.payment_method === 'online',
    facts: present([
      { label: 'Bill to', value: [i.client_name, i.client_address, i.client_email].filter(Boolean).join('\n') || null },
      { label: 'Project', value: [i.project_name, i.project_address].filter(Boolean).join('\n') || null },
      { label: 'Issued', value: issued },
      { label: 'Terms', value: paymentTermsOf(i.due_days) },
      { label: 'Due date', value: i.due_date },
      { label: 'Your reference', value: i.reference_number },
    ]),
    lines: lineItemsOf(i).map((l) => ({ description: l.description, amount: formatCents(l.amount_cents) })),
    totals,
    remit:
      i.payment_method === 'check' && i.remit_to_address
        ? { name: i.remit_to_name, address: i.remit_to_address, instructions: i.payment_instructions }
        : null,
    memo: i.memo,
  };
}
