// The invoice's money rules (billing/invoices/rules.ts) as properties: for any lines, discount and
// tax in whole cents, amount = subtotal - discount + tax exactly, and every _cents twin the wire
// shows is its dollars times 100 exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { figuresOf, lineItemsInCents } from '#billing/invoices/rules.ts';
import { invoiceObject, type InvoiceRow } from '#billing/invoices/serialize.ts';
import { centsToDollars } from '#platform/money.ts';

/** Whole cents up to a million dollars, as the dollars a client sends. */
const cents = fc.integer({ min: 1, max: 100_000_000 });
const lines = fc.array(
  cents.map((c) => ({ description: 'line', amount: c / 100 })),
  { minLength: 1, maxLength: 40 },
);

function row(figures: ReturnType<typeof figuresOf>, stored: ReturnType<typeof lineItemsInCents>): InvoiceRow {
  const t = '2026-01-02T03:04:05.000000';
  return {
    id: 1,
    firm_id: 1,
    job_id: 1,
    estimate_id: null,
    doc_number: null,
    invoice_number: 'INV-1',
    status: 'draft',
    payment_method: 'check',
    billing_type: 'line_items',
    currency: 'USD',
    line_items: JSON.stringify(stored),
    ...figures,
    due_days: 30,
    due_date: '2026-02-01',
    issued_at: null,
    paid_at: null,
    token_salt: null,
    token_hash: null,
    payment_processor: null,
    payment_reference: null,
    client_name: null,
    client_email: null,
    client_address: null,
    project_name: null,
    project_address: null,
    reference_number: null,
    memo: null,
    remit_to_name: null,
    remit_to_address: null,
    payment_instructions: null,
    sender_name: null,
    sender_email: null,
    created_by_user_id: null,
    created_by_name: null,
    created_at: t,
    updated_at: t,
  };
}

describe('invoice money', () => {
  it('amount = subtotal - discount + tax to the cent, for any lines', () => {
    fc.assert(
      fc.property(lines, fc.nat({ max: 100 }), fc.nat({ max: 10_000_000 }), (input, discountShare, taxCents) => {
        const stored = lineItemsInCents(input);
        const subtotal = input.reduce((sum, l) => sum + Math.round(l.amount * 100), 0);
        // A discount between 0 and the subtotal (the whole subtotal only with some tax).
        const discountCents = Math.min(Math.floor((subtotal * discountShare) / 100), subtotal - (taxCents > 0 ? 0 : 1));
        const f = figuresOf(stored, discountCents, taxCents);
        expect(f.subtotal_cents).toBe(subtotal);
        expect(f.amount_cents).toBe(subtotal - discountCents + taxCents);
        expect(Number.isInteger(f.amount_cents)).toBe(true);
      }),
    );
  });

  it('every _cents twin on the wire is its dollars times 100 exactly', () => {
    fc.assert(
      fc.property(lines, fc.nat({ max: 10_000_000 }), (input, taxCents) => {
        const stored = lineItemsInCents(input);
        const o = invoiceObject(row(figuresOf(stored, 0, taxCents), stored));
        for (const f of ['subtotal', 'discount', 'tax', 'amount'] as const) {
          expect(Math.round(o[f] * 100)).toBe(o[`${f}_cents`]);
          expect(o[f]).toBe(centsToDollars(o[`${f}_cents`]));
          // The dollars print with at most two decimals: exact in JSON text.
          expect(String(o[f])).toMatch(/^\d+(\.\d{1,2})?$/);
        }
        o.line_items.forEach((l, i) => {
          expect(l.amount_cents).toBe(Math.round(input[i]!.amount * 100));
          expect(String(l.amount)).toBe(String(l.amount_cents / 100));
        });
      }),
    );
  });

  it('refuses a discount above the subtotal and a total of zero', () => {
    const stored = lineItemsInCents([{ description: 'x', amount: 10 }]);
    expect(() => figuresOf(stored, 1001, 0)).toThrow(/discount/);
    expect(() => figuresOf(stored, 1000, 0)).toThrow(/bill something/);
    expect(figuresOf(stored, 1000, 1).amount_cents).toBe(1);
  });
});
