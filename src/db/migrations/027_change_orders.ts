// Change orders (document 3: Change order resource and state table, Change orders endpoints;
// docs/api-decisions.md, "Change orders").
//
// - change_orders: one row per change order, numbered within its job (co_number, unique per job;
//   a void one keeps its number). quick ones carry the office's amount; tm and full ones price
//   through their change-order estimate (ep_estimate_id): their figures follow that estimate until
//   the change order is decided or void, and are frozen into the *_delta_cents columns and `lines`
//   then. A revision starts from a copy of the job's estimate, so the figures it was copied from
//   (base_*) are kept to take the difference. request_key is unique per workspace: a repeated
//   create finds the change order the first one made. The customer link (token salt and hash,
//   platform/link-tokens.ts) is made on the first send; the customer's signature keeps its typed
//   name, consent version, drawn PNG and the SHA-256 of the document signed, as proposals do.
// - change_order_audit_events: the append-only trail of what the customer did on the page
//   (opened, consented, signed, declined) with UTC time, IP and user agent, as proposals keep.
// - job_contracts: what approved change orders posted to a job (contract value, tax, cost
//   budget, days), written in the approval's transaction; the job's revised contract is its
//   original contract plus these.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('change_orders')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('co_number', 'integer', (c) => c.notNull())
    /** quick, tm, full. */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** additive or revision (tm and full); null for quick. */
    .addColumn('pricing_mode', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** draft, sent, approved, declined, void. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** A key of the workspace's change-order stages. */
    .addColumn('stage', 'text', (c) => c.notNull())
    /** office or field. */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('amount_delta_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_delta_cents', 'bigint', (c) => c.notNull())
    .addColumn('cost_delta_cents', 'bigint', (c) => c.notNull())
    .addColumn('days_delta', 'integer', (c) => c.notNull())
    /** JSON [{cost_code, amount_cents, cost_cents}]: the priced kinds' lines, frozen once decided. */
    .addColumn('lines', 'text')
    .addColumn('base_price_cents', 'bigint')
    .addColumn('base_tax_cents', 'bigint')
    .addColumn('base_cost_cents', 'bigint')
    /** JSON, as `lines`: the copied estimate's lines a revision is measured against. */
    .addColumn('base_lines', 'text')
    /** The job's contract value and cost budget right after this change order was approved. */
    .addColumn('revised_contract_cents', 'bigint')
    .addColumn('revised_budget_cents', 'bigint')
    .addColumn('ep_estimate_id', 'integer', (c) => c.references('estimates.id').onDelete('set null'))
    .addColumn('request_key', 'text')
    .addColumn('approved_at', 'text')
    /** office or customer. */
    .addColumn('approval_source', 'text')
    .addColumn('declined_at', 'text')
    .addColumn('decided_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decision_comment', 'text')
    .addColumn('voided_at', 'text')
    .addColumn('signature_name', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('consent_version', 'text')
    /** A drawn signature as a PNG data URL, or null when the signer typed their name only. */
    .addColumn('signature_image', 'text')
    /** The document the customer signed (canonical JSON) and its SHA-256 in hex. */
    .addColumn('signed_document', 'text')
    .addColumn('document_sha256', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('sent_to', 'text')
    .addColumn('sent_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_salt', 'text')
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('first_viewed_at', 'text')
    .addColumn('last_viewed_at', 'text')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exported_at', 'text')
    .addColumn('export_ref', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Newest first within a workspace (the list) and the export's id order.
  await db.schema.createIndex('change_orders_firm_id').on('change_orders').columns(['firm_id', 'id']).execute();
  await db.schema
    .createIndex('change_orders_job_number')
    .on('change_orders')
    .columns(['job_id', 'co_number'])
    .unique()
    .execute();
  // Unique per workspace; rows without a key (null) never collide on either engine.
  await db.schema
    .createIndex('change_orders_request_key')
    .on('change_orders')
    .columns(['firm_id', 'request_key'])
    .unique()
    .execute();
  await db.schema.createIndex('change_orders_estimate').on('change_orders').columns(['ep_estimate_id']).execute();

  await db.schema
    .createTable('change_order_audit_events')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('change_order_id', 'integer', (c) => c.notNull().references('change_orders.id').onDelete('cascade'))
    /** opened, consented, signed, declined. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    /** JSON: what else the step recorded (the consent version, the signer, the comment). */
    .addColumn('data', 'text')
    .execute();
  await db.schema
    .createIndex('change_order_audit_events_change_order')
    .on('change_order_audit_events')
    .columns(['change_order_id', 'id'])
    .execute();

  await db.schema
    .createTable('job_contracts')
    .addColumn('job_id', 'integer', (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('approved_amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('approved_tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('approved_cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('approved_days', 'integer', (c) => c.notNull())
    .addColumn('approved_count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
