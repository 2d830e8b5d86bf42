// Proposals (document 3: Proposal resource, Proposal state table, Proposals endpoints;
// docs/api-decisions.md, "Proposals").
//
// - proposals: one per estimate (customer copies aside), made by POST /v1/estimates/{id}/proposal.
//   `content` and `sections` are the editable wording and layout (JSON); `priced` is the snapshot
//   of the estimate's lines as the customer sees them, with the totals in cents columns beside it:
//   refreshed from the estimate while the proposal is a draft (or void), frozen once sent. The
//   customer link is the token's salt and hash (platform/link-tokens.ts), switchable and expiring.
//   Acceptance keeps the signer, their consent, the drawn signature, and the exact document signed
//   (`signed_document`) with its SHA-256, so the executed PDF can be made again and checked.
// - proposal_audit_events: the append-only trail of what the customer did on the page (opened,
//   consented, signed, declined), each with UTC time, IP and user agent. Nothing updates a row.
// - proposal_templates: the saved layouts GET /v1/proposal-templates lists (string ids), with the
//   starter set every workspace gets.
// - users.proposal_send_limit_cents: the total above which the user's sends wait for an owner.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('proposal_send_limit_cents', 'bigint').execute();

  await db.schema
    .createTable('proposals')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('estimate_id', 'integer', (c) => c.references('estimates.id').onDelete('set null'))
    .addColumn('doc_number', 'integer')
    /** draft, sent, viewed, accepted, rejected, void. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text')
    .addColumn('client_email', 'text')
    .addColumn('client_company', 'text')
    .addColumn('valid_until', 'text')
    .addColumn('is_customer_copy', 'integer', (c) => c.notNull().defaultTo(0))
    /** not_required, pending, approved, rejected. */
    .addColumn('approval_status', 'text', (c) => c.notNull())
    .addColumn('approval_requested_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('approval_decided_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('approval_decided_at', 'text')
    .addColumn('approval_note', 'text')
    .addColumn('template_id', 'text')
    /** JSON: cover_html, intro_html, scope_html, terms_html, closing_html. */
    .addColumn('content', 'text', (c) => c.notNull())
    /** JSON: section titles and items, custom sections, order, pages, display switches, photos, terms. */
    .addColumn('sections', 'text', (c) => c.notNull())
    /** JSON: the lines as the customer sees them (proposals/priced.ts). */
    .addColumn('priced', 'text', (c) => c.notNull())
    .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('optional_total_cents', 'bigint', (c) => c.notNull())
    .addColumn('priced_at', 'text', (c) => c.notNull())
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('link_enabled', 'integer', (c) => c.notNull())
    .addColumn('link_expires_on', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('sent_to', 'text')
    .addColumn('sent_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('first_viewed_at', 'text')
    .addColumn('last_viewed_at', 'text')
    .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('accepted_at', 'text')
    .addColumn('rejected_at', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('voided_at', 'text')
    .addColumn('signer_name', 'text')
    .addColumn('signer_email', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('consent_version', 'text')
    /** A drawn signature as a PNG data URL, or null when the signer typed their name only. */
    .addColumn('signature_image', 'text')
    /** The document the customer signed (canonical JSON) and its SHA-256 in hex. */
    .addColumn('signed_document', 'text')
    .addColumn('document_sha256', 'text')
    .addColumn('executed_file_id', 'integer', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('proposals_firm_updated')
    .on('proposals')
    .columns(['firm_id', 'updated_at', 'id'])
    .execute();
  await db.schema.createIndex('proposals_job').on('proposals').columns(['job_id']).execute();
  await db.schema.createIndex('proposals_estimate').on('proposals').columns(['estimate_id']).execute();

  await db.schema
    .createTable('proposal_audit_events')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposals.id').onDelete('cascade'))
    /** opened, consented, signed, declined. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    /** JSON: what else the step recorded (the consent version, the signer, the reason). */
    .addColumn('data', 'text')
    .execute();
  await db.schema
    .createIndex('proposal_audit_events_proposal')
    .on('proposal_audit_events')
    .columns(['proposal_id', 'id'])
    .execute();

  await db.schema
    .createTable('proposal_templates')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    /** The string id the API shows (starter ids are words, saved ones `tpl_<n>`). */
    .addColumn('template_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    /** JSON: section_order, pages, display, photo_layout, show_photos, accent_color. */
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('starter', 'integer', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('proposal_templates_key')
    .on('proposal_templates')
    .columns(['firm_id', 'template_key'])
    .unique()
    .execute();
}
