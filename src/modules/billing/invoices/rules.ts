// The money of an invoice (document 3, Invoice: amount = subtotal - discount + tax), in integer
// cents from the wire's dollars (platform/money.ts), and the wording rules that follow from the
// figures: the description, the payment terms and the due date. Pure: no database, no clock.
import { addDays } from '#platform/time.ts';
import { badRequest } from '#platform/errors.ts';
import { dollarsToCents } from '#platform/money.ts';

/** A line item as the client sends it: dollars. */
export interface LineItemInput {
  description: string;
  amount: number;
}

/** A line item as stored (invoices.line_items JSON): cents. */
export interface StoredLineItem {
  description: string;
  amount_cents: number;
}

export interface InvoiceFigures {
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  amount_cents: number;
}

/** Line items in cents; an amount that rounds to no cent at all is not "greater than zero". */
export function lineItemsInCents(lines: readonly LineItemInput[]): StoredLineItem[] {
  if (lines.length === 0)
    throw badRequest('line_items must hold at least one line item', {
      code: 'invalid_line_items',
      field: 'line_items',
    });
  return lines.map((line, i) => {
    const description = line.description.trim();
    if (description === '')
      throw badRequest(`line_items[${i}].description must not be blank`, {
        code: 'invalid_line_items',
        field: 'line_items',
      });
    const amount_cents = dollarsToCents(line.amount);
    if (amount_cents <= 0)
      throw badRequest(`line_items[${i}].amount must be greater than zero (at least 0.01)`, {
        code: 'invalid_line_items',
        field: 'line_items',
      });
    return { description, amount_cents };
  });
}

/**
 * subtotal = the sum of the lines; amount = subtotal - discount + tax. All integers, so the result
 * is exact to the cent for any lines. A discount above the subtotal, or an invoice for nothing, is 400.
 */
export function figuresOf(lines: readonly StoredLineItem[], discountCents: number, taxCents: number): InvoiceFigures {
  const subtotal_cents = lines.reduce((sum, l) => sum + l.amount_cents, 0);
  if (discountCents > subtotal_cents)
    throw badRequest('discount must not be more than the subtotal', {
      code: 'discount_exceeds_subtotal',
      field: 'discount',
    });
  const amount_cents = subtotal_cents - discountCents + taxCents;
  if (amount_cents <= 0)
    throw badRequest('The invoice total is zero', {
      code: 'zero_total',
      message: 'An invoice must bill something: lower the discount or add a line item',
    });
  return { subtotal_cents, discount_cents: discountCents, tax_cents: taxCents, amount_cents };
}

/** The first line item's description, or a count of them ("3 line items"). */
export function descriptionOf(lines: readonly StoredLineItem[]): string {
  return lines.length === 1 ? lines[0]!.description : `${lines.length} line items`;
}

/** "Due on receipt" for 0 days, else "Net N". */
export function paymentTermsOf(dueDays: number): string {
  return dueDays === 0 ? 'Due on receipt' : `Net ${dueDays}`;
}

/** The due date stays anchored to the issue date (the creation date until issued). */
export function dueDateOf(anchorDate: string, dueDays: number): string {
  return addDays(anchorDate, dueDays);
}

/** How the customer's documents name an invoice: its own number (numbers.ts), never the shared doc_number. */
export function invoiceNumberOf(i: { invoice_number: string }): string {
  return `#${i.invoice_number}`;
}
