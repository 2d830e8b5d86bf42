// The platform spine: workspaces, users, keys, customers, sites, jobs, tags and the event log.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';
  await db.schema
    .createTable('firms')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('subscription_status', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('job_types', 'text', (c) => c.notNull())
    .addColumn('divisions', 'text', (c) => c.notNull())
    .addColumn('owner_user_id', 'integer')
    .addColumn('next_job_number', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('estimating_role', 'text', (c) => c.notNull())
    .addColumn('job_title', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('headshot_url', 'text')
    .addColumn('office_user', 'integer', (c) => c.notNull())
    .addColumn('schedule_editor', 'integer', (c) => c.notNull())
    .addColumn('payroll_approver', 'integer', (c) => c.notNull())
    .addColumn('sees_own_jobs_only', 'integer', (c) => c.notNull())
    .addColumn('can_delete_jobs', 'integer', (c) => c.notNull())
    .addColumn('can_view_reports', 'integer', (c) => c.notNull())
    .addColumn('can_see_pay', 'integer', (c) => c.notNull())
    .addColumn('can_see_job_costs', 'integer', (c) => c.notNull())
    .addColumn('pricing_access', 'integer', (c) => c.notNull())
    .addColumn('removed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_firm').on('users').columns(['firm_id', 'id']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('firm_id', 'integer', (c) => c.references('firms.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('partner_key_grants')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id'))
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema
    .createIndex('partner_key_grants_key_firm')
    .unique()
    .on('partner_key_grants')
    .columns(['api_key_id', 'firm_id'])
    .execute();

  await db.schema
    .createTable('job_stages')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('is_completed', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_stages_firm_key').unique().on('job_stages').columns(['firm_id', 'key']).execute();

  await db.schema
    .createTable('client_accounts')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('external_ref', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('notes', 'text')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_accounts_ref')
    .unique()
    .on('client_accounts')
    .columns(['firm_id', 'external_ref'])
    .execute();
  await db.schema.createIndex('client_accounts_name').on('client_accounts').columns(['firm_id', 'name_key']).execute();

  await db.schema
    .createTable('locations')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('address_key', 'text', (c) => c.notNull())
    .addColumn('external_ref', 'text')
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('property_reference', 'text')
    .addColumn('notes', 'text')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('locations_ref').unique().on('locations').columns(['firm_id', 'external_ref']).execute();
  await db.schema.createIndex('locations_address').on('locations').columns(['firm_id', 'address_key']).execute();

  await db.schema
    .createTable('contacts')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('company', 'text')
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contacts_firm').on('contacts').columns(['firm_id', 'id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('team_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('contact_name', 'text')
    .addColumn('contact_email', 'text')
    .addColumn('contact_phone', 'text')
    .addColumn('bill_to_name', 'text')
    .addColumn('bill_to_email', 'text')
    .addColumn('address', 'text')
    .addColumn('description', 'text')
    .addColumn('notes', 'text')
    .addColumn('job_type', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('estimated_value_cents', 'bigint')
    .addColumn('probability', 'integer')
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('next_follow_up', 'text')
    .addColumn('measurement_count', 'integer', (c) => c.notNull())
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('location_id', 'integer', (c) => c.references('locations.id'))
    .addColumn('external_ref', 'text')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('accounting_sync_error', 'text')
    .addColumn('assigned_to_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('crm_deal_id', 'text')
    .addColumn('crm_contact_id', 'text')
    .addColumn('crm_company_id', 'text')
    .addColumn('job_number', 'integer', (c) => c.notNull())
    .addColumn('accounting_job_number', 'text')
    .addColumn('own_property_reference', 'text')
    .addColumn('external_work_order_number', 'text')
    .addColumn('description_customer_visible', 'integer', (c) => c.notNull())
    .addColumn('bid_due_date', 'text')
    .addColumn('customer_type', 'text')
    .addColumn('property_type', 'text')
    .addColumn('bond_required', 'integer')
    .addColumn('liquidated_damages', 'integer')
    .addColumn('davis_bacon', 'integer')
    .addColumn('liquidated_damages_per_day_cents', 'bigint')
    .addColumn('linked_contact_id', 'integer', (c) => c.references('contacts.id'))
    .addColumn('operations_division', 'text')
    .addColumn('operations_assignee_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_firm_id').on('jobs').columns(['firm_id', 'id']).execute();
  await db.schema.createIndex('jobs_ref').unique().on('jobs').columns(['firm_id', 'external_ref']).execute();
  await db.schema.createIndex('jobs_number').unique().on('jobs').columns(['firm_id', 'job_number']).execute();
  await db.schema.createIndex('jobs_updated').on('jobs').columns(['firm_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('jobs_name').on('jobs').columns(['firm_id', 'name_key']).execute();
  await db.schema.createIndex('jobs_status').on('jobs').columns(['firm_id', 'status', 'id']).execute();
  await db.schema.createIndex('jobs_assignee').on('jobs').columns(['firm_id', 'assigned_to_user_id', 'id']).execute();
  await db.schema.createIndex('jobs_customer').on('jobs').columns(['client_account_id']).execute();
  await db.schema.createIndex('jobs_location').on('jobs').columns(['location_id']).execute();

  await db.schema
    .createTable('job_assignees')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('job_assignees_pk', ['job_id', 'user_id'])
    .execute();
  await db.schema.createIndex('job_assignees_user').on('job_assignees').columns(['user_id', 'job_id']).execute();

  await db.schema
    .createTable('job_contacts')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
    .addColumn('role', 'text')
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('bills_separately', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_contacts_pk', ['job_id', 'contact_id'])
    .execute();

  await db.schema
    .createTable('job_tags')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_tags_name').unique().on('job_tags').columns(['firm_id', 'name_key']).execute();

  await db.schema
    .createTable('job_tag_links')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('job_tags.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_tag_links_pk', ['job_id', 'tag_id'])
    .execute();

  await db.schema
    .createTable('job_counts')
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_counts_pk', ['firm_id', 'status'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('in_feed', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_firm').on('events').columns(['firm_id', 'id']).execute();
}
