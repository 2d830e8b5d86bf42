// People and records (issue 4): the full contact record with its channels and company/site
// links, custom field definitions, notes and logged interactions, activities from other
// systems, job and company follow-ups, and the job activity log.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';

  // The spine's contacts table holds name, email, phone, company and the primary company.
  for (const [name, type, build] of [
    ['title', 'text', undefined],
    ['contact_type', 'text', undefined],
    ['notes', 'text', undefined],
    ['assigned_user_id', 'integer', undefined],
    ['preferred_channel', 'text', undefined],
    ['do_not_contact', 'integer', (c: any) => c.notNull().defaultTo(0)],
    ['do_not_contact_reason', 'text', undefined],
    ['birthday', 'text', undefined],
    ['tags', 'text', (c: any) => c.notNull().defaultTo('[]')],
    ['custom_fields', 'text', (c: any) => c.notNull().defaultTo('{}')],
    // casefold(display name), the A-to-Z order of the list.
    ['sort_key', 'text', (c: any) => c.notNull().defaultTo('')],
  ] as const) {
    await db.schema
      .alterTable('contacts')
      .addColumn(name, type, build ?? ((c) => c))
      .execute();
  }
  await db.schema.createIndex('contacts_sort').on('contacts').columns(['firm_id', 'sort_key', 'id']).execute();
  await db.schema.createIndex('contacts_updated').on('contacts').columns(['firm_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('contacts_customer').on('contacts').columns(['client_account_id']).execute();
  await db.schema.createIndex('job_contacts_contact').on('job_contacts').columns(['contact_id', 'job_id']).execute();

  // Every phone and email of a person. contacts.email / contacts.phone mirror the primary of
  // each kind so lists and job contact fields read one row.
  await db.schema
    .createTable('contact_channels')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    // Lower-cased email or the phone's digits: duplicate checks and the exact email filter.
    .addColumn('value_key', 'text', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('do_not_contact', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contact_channels_contact')
    .on('contact_channels')
    .columns(['contact_id', 'kind', 'position'])
    .execute();
  await db.schema
    .createIndex('contact_channels_value')
    .on('contact_channels')
    .columns(['firm_id', 'kind', 'value_key'])
    .execute();

  // A person's companies and sites, with roles; ended links stay as history.
  await db.schema
    .createTable('contact_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull()) // company | location
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull()) // JSON array
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('started_on', 'text')
    .addColumn('ended_on', 'text') // null while current
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contact_links_contact')
    .on('contact_links')
    .columns(['contact_id', 'kind', 'target_id'])
    .execute();
  await db.schema
    .createIndex('contact_links_target')
    .on('contact_links')
    .columns(['firm_id', 'kind', 'target_id'])
    .execute();
  await sql`create unique index contact_links_current on contact_links (contact_id, kind, target_id) where ended_on is null`.execute(
    db,
  );

  await db.schema
    .createTable('custom_field_definitions')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull()) // job | account | contact | location
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('label_key', 'text', (c) => c.notNull()) // casefolded label: uniqueness in any case
    .addColumn('field_type', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull()) // JSON array of strings
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('filterable', 'integer', (c) => c.notNull())
    .addColumn('show_as_flag', 'integer', (c) => c.notNull())
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('custom_fields_key')
    .unique()
    .on('custom_field_definitions')
    .columns(['firm_id', 'entity_type', 'key'])
    .execute();
  await db.schema
    .createIndex('custom_fields_label')
    .unique()
    .on('custom_field_definitions')
    .columns(['firm_id', 'entity_type', 'label_key'])
    .execute();

  // Notes and logged calls, emails and meetings, on exactly one of a job, a person or a company.
  await db.schema
    .createTable('notes')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('cascade'))
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull()) // note | call | email | meeting
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull())
    .addColumn('author_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notes_job').on('notes').columns(['job_id', 'id']).execute();
  await db.schema.createIndex('notes_contact').on('notes').columns(['contact_id', 'id']).execute();
  await db.schema.createIndex('notes_customer').on('notes').columns(['client_account_id', 'id']).execute();

  // Activities logged by other systems (POST /v1/activities), idempotent on source + external_id.
  await db.schema
    .createTable('activities')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text')
    .addColumn('outcome', 'text')
    .addColumn('direction', 'text')
    .addColumn('duration_seconds', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('lead_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activities_source_ref')
    .unique()
    .on('activities')
    .columns(['firm_id', 'source', 'external_id'])
    .execute();
  await db.schema.createIndex('activities_firm').on('activities').columns(['firm_id', 'occurred_at', 'id']).execute();
  await db.schema.createIndex('activities_job').on('activities').columns(['job_id']).execute();
  await db.schema.createIndex('activities_contact').on('activities').columns(['contact_id']).execute();
  await db.schema.createIndex('activities_customer').on('activities').columns(['client_account_id']).execute();

  // Job follow-ups (POST /v1/tasks).
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('due_at', ts)
    .addColumn('status', 'text', (c) => c.notNull()) // open | done
    .addColumn('assigned_to_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('completed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_firm').on('tasks').columns(['firm_id', 'status', 'due_at', 'id']).execute();
  await db.schema.createIndex('tasks_job').on('tasks').columns(['job_id']).execute();

  // Company follow-ups (POST /v1/account-tasks, remind-me).
  await db.schema
    .createTable('account_tasks')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('client_account_id', 'integer', (c) => c.notNull().references('client_accounts.id'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('due_at', ts)
    .addColumn('repeat', 'text', (c) => c.notNull()) // none | weekly | monthly | yearly
    .addColumn('email_me', 'text', (c) => c.notNull()) // none | that_day | day_before
    .addColumn('status', 'text', (c) => c.notNull()) // open | done
    .addColumn('assigned_to_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('completed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_tasks_firm')
    .on('account_tasks')
    .columns(['firm_id', 'status', 'due_at', 'id'])
    .execute();
  await db.schema.createIndex('account_tasks_customer').on('account_tasks').columns(['client_account_id']).execute();

  // The job page's activity log: tags, custom fields, notes, people and other job-page changes.
  await db.schema
    .createTable('job_activity')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull()) // JSON
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_activity_job').on('job_activity').columns(['job_id', 'id']).execute();

  // A merged-away site stays archived; its old id resolves to the survivor.
  await db.schema.alterTable('locations').addColumn('merged_into_id', 'integer').execute();
}
