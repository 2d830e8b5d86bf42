// Leads (document 2, Lead and the Leads endpoints): the inbox of people asking for work. A lead
// keeps what was submitted (name, email, phone, company, address, message, services, answers,
// utm) and the records intake matched or made (contact, customer, job, site, the Call new lead
// company follow-up). `respond_by` is the end of the speed-to-lead window the worker escalates
// after; `archived_records` the contact and customer a spam dismissal archived (restore brings
// them back); `entry_stage` the stage the lead's job opened in (leaving it converts the lead).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('company', 'text')
    .addColumn('address', 'text')
    .addColumn('message', 'text')
    /** JSON array of the workspace's job types as submitted. */
    .addColumn('services', 'text', (c) => c.notNull())
    .addColumn('timing', 'text')
    .addColumn('property_type', 'text')
    .addColumn('source', 'text')
    .addColumn('source_kind', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('assigned_to_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('assignment_reason', 'text')
    /** round_robin, territory, service, owner: which rule chose (round-robin continues after the last). */
    .addColumn('assignment_rule', 'text')
    .addColumn('first_contacted_at', 'text')
    .addColumn('first_contact_kind', 'text')
    .addColumn('first_contacted_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id').onDelete('set null'))
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('location_id', 'integer', (c) => c.references('locations.id').onDelete('set null'))
    .addColumn('follow_up_task_id', 'integer', (c) => c.references('account_tasks.id').onDelete('set null'))
    .addColumn('entry_stage', 'text')
    /** JSON [{label, value}]. */
    .addColumn('answers', 'text', (c) => c.notNull())
    /** JSON object. */
    .addColumn('utm', 'text', (c) => c.notNull())
    /** JSON array of strings. */
    .addColumn('match_reasons', 'text', (c) => c.notNull())
    /** JSON {contact, account, job, location}. */
    .addColumn('created_records', 'text', (c) => c.notNull())
    /** JSON {contact_id?, client_account_id?}: what a spam dismissal archived. */
    .addColumn('archived_records', 'text')
    .addColumn('respond_by', 'text')
    .addColumn('escalated_at', 'text')
    .addColumn('auto_spam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('problem', 'text')
    .addColumn('on_leads_pipeline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pipeline_stage_id', 'integer')
    .addColumn('estimated_value_cents', 'integer')
    .addColumn('customer_type', 'text')
    .addColumn('notes', 'text')
    .addColumn('next_follow_up_at', 'text')
    .addColumn('replaced_lead_id', 'integer', (c) => c.references('leads.id').onDelete('set null'))
    .addColumn('replaced_by_lead_id', 'integer', (c) => c.references('leads.id').onDelete('set null'))
    .addColumn('status_changed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('leads_firm_created').on('leads').columns(['firm_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('leads_firm_updated').on('leads').columns(['firm_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('leads_job').on('leads').columns(['job_id']).execute();
  await db.schema.createIndex('leads_contact').on('leads').columns(['contact_id']).execute();
  await db.schema.createIndex('leads_client_account').on('leads').columns(['client_account_id']).execute();
  await db.schema.createIndex('leads_follow_up').on('leads').columns(['follow_up_task_id']).execute();
  await db.schema.createIndex('leads_respond_by').on('leads').columns(['status', 'respond_by']).execute();
  await db.schema.createIndex('leads_round_robin').on('leads').columns(['firm_id', 'assignment_rule', 'id']).execute();
}
