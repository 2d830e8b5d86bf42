// Invoice links and online payments (document 3: Invoice, Request payment online; docs/api-decisions.md,
// "Online payments").
//
// - invoices.token_salt / token_hash: the customer's link to the invoice page (platform/link-tokens.ts:
//   the token is derived from the salt, only its hash is stored). Made when an invoice is first sent
//   or requested online, so older invoices have none until then.
// - invoices.payment_processor / payment_reference: who took an online invoice's payment (test or
//   stripe) and their id of it (a Checkout Session), for reconciling with the processor's records.
// - payment_events: every processor event that concerned one of our invoices, keyed by the
//   processor's own event id. Inserting the row is what applies the event, so a replayed webhook (or
//   a retried test payment) finds its row and changes nothing.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('token_salt', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('token_hash', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('payment_processor', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('payment_reference', 'text').execute();
  await db.schema.createIndex('invoices_token_hash').on('invoices').column('token_hash').unique().execute();

  await db.schema
    .createTable('payment_events')
    /** test or stripe. */
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    /** paid, void, uncollectible. */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** 1 when it changed the invoice; 0 when the invoice was already past it (kept for the record). */
    .addColumn('applied', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_events_pk', ['processor', 'event_id'])
    .execute();
  await db.schema.createIndex('payment_events_invoice').on('payment_events').column('invoice_id').execute();
}
