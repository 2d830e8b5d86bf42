// A payment row on the wire (document 3, Payment row). No accounting system is connected, so no
// payment has been posted there.
import { type Static, Type } from '@sinclair/typebox';
import { centsToDollars } from '#platform/money.ts';
import { ListOf, NullableInstant, NullableInteger, NullableString } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import type { PaymentRow } from './repo.ts';

export const PaymentSchema = Type.Object({
  invoice_id: Type.Integer(),
  job_id: Type.Integer(),
  doc_number: NullableInteger(),
  amount: Type.Number({ description: 'Dollars' }),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  paid_at: Type.String({ description: 'UTC, Z' }),
  payment_method: Type.String({ description: 'check or online' }),
  client_name: NullableString(),
  accounting: Type.Object({ has_payment: Type.Boolean(), payment_synced_at: NullableInstant() }),
});
export const PaymentList = ListOf(PaymentSchema);

export function paymentObject(row: PaymentRow): Static<typeof PaymentSchema> {
  return {
    invoice_id: row.id,
    job_id: row.job_id,
    doc_number: row.doc_number,
    amount: centsToDollars(row.amount_cents),
    amount_cents: row.amount_cents,
    currency: row.currency,
    paid_at: zWire(row.paid_at!),
    payment_method: row.payment_method,
    client_name: row.client_name,
    accounting: { has_payment: false, payment_synced_at: null },
  };
}
