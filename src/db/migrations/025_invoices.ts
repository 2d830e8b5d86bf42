// Invoices (document 3: Invoice resource, Invoice (check) state table, Invoices and payments;
// docs/api-decisions.md, "Invoices").
//
// - invoices: check invoices made by POST /v1/invoices (online ones, set by the payment processor,
//   share the table with payment_method 'online'). Money is integer cents; the line items are a
//   JSON array of {description, amount_cents}. A paid invoice is its own payment row (GET
//   /v1/payments: one per paid invoice, no partial payments), so paid_at is indexed per workspace.
//   The remit-to of the last invoice is the workspace's default when its settings name none.
//   Invoices are never deleted: a job deleted outright takes its invoices with it, nothing else does.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('estimate_id', 'integer', (c) => c.references('estimates.id').onDelete('set null'))
    .addColumn('doc_number', 'integer')
    /** check: draft, sent, paid, void; online: open, paid, void, uncollectible. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** check or online. */
    .addColumn('payment_method', 'text', (c) => c.notNull())
    /** full, deposit, milestone, custom, line_items, recurring. */
    .addColumn('billing_type', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** JSON: [{description, amount_cents}]. */
    .addColumn('line_items', 'text', (c) => c.notNull())
    .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
    .addColumn('discount_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('due_days', 'integer', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('client_name', 'text')
    .addColumn('client_email', 'text')
    .addColumn('client_address', 'text')
    .addColumn('project_name', 'text')
    .addColumn('project_address', 'text')
    .addColumn('reference_number', 'text')
    .addColumn('memo', 'text')
    .addColumn('remit_to_name', 'text')
    .addColumn('remit_to_address', 'text')
    .addColumn('payment_instructions', 'text')
    .addColumn('sender_name', 'text')
    .addColumn('sender_email', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoices_firm_updated')
    .on('invoices')
    .columns(['firm_id', 'updated_at', 'id'])
    .execute();
  // Newest first within a workspace: the list's default order and the last remit-to used. Without
  // it the planner takes the workspace's rows from invoices_firm_updated and sorts them all.
  await db.schema.createIndex('invoices_firm_id').on('invoices').columns(['firm_id', 'id']).execute();
  await db.schema.createIndex('invoices_job').on('invoices').columns(['job_id']).execute();
  await db.schema.createIndex('invoices_firm_paid').on('invoices').columns(['firm_id', 'paid_at']).execute();
}
