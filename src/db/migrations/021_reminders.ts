// Reminders and follow-ups (issue 14): the reminders table (document 2, Reminder resource and state
// table) and two columns on company follow-ups: the round the worker last emailed (so a remind-me
// follow-up emails its teammate once per round) and the person a birthday follow-up is for.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';
import { storedAt } from '#platform/time.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';
  await db.schema
    .createTable('reminders')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('reminder_type', 'text', (c) => c.notNull()) // contract_renewal | maintenance_checkin | follow_up
    .addColumn('status', 'text', (c) => c.notNull()) // pending | sent | done | dismissed
    // Customers are never deleted outright (a merge moves their reminders first).
    .addColumn('client_account_id', 'integer', (c) => c.references('client_accounts.id'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    // Leads (migration 020) are built beside this one: a plain id, no foreign key, not checked.
    .addColumn('lead_id', 'integer')
    .addColumn('due_at', ts, (c) => c.notNull())
    /** The IANA zone the due time was last read in; repeats keep its wall-clock time. */
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('repeat_every', 'integer')
    .addColumn('repeat_unit', 'text') // day | week | month (null: one-off)
    .addColumn('last_emailed_at', ts)
    .addColumn('assigned_to_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('completed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reminders_firm')
    .on('reminders')
    .columns(['firm_id', 'status', 'due_at', 'id'])
    .execute();
  // The worker's sweep: pending reminders by due time, across workspaces.
  await db.schema.createIndex('reminders_due').on('reminders').columns(['status', 'due_at']).execute();
  await db.schema.createIndex('reminders_customer').on('reminders').columns(['client_account_id']).execute();
  await db.schema.createIndex('reminders_contact').on('reminders').columns(['contact_id']).execute();
  await db.schema.createIndex('reminders_job').on('reminders').columns(['job_id']).execute();

  // The due_at of the round whose email_me message was queued: a round emails once, and moving
  // due_at (a snooze, the next round of a repeat) arms the next one.
  await db.schema.alterTable('account_tasks').addColumn('emailed_due_at', ts).execute();
  // The person a birthday follow-up is for (POST /v1/contacts/{id}/birthday-reminder): at most one each.
  await db.schema
    .alterTable('account_tasks')
    .addColumn('birthday_contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('account_tasks_birthday')
    .unique()
    .on('account_tasks')
    .columns(['birthday_contact_id'])
    .execute();
  // The worker's sweep of follow-ups to email: open ones by due time, across workspaces.
  await db.schema.createIndex('account_tasks_due').on('account_tasks').columns(['status', 'due_at']).execute();
  // Follow-ups already past due when this runs are not emailed late: only rounds still ahead are.
  await db
    .updateTable('account_tasks')
    .set((eb: any) => ({ emailed_due_at: eb.ref('due_at') }))
    .where('email_me', '!=', 'none')
    .where('due_at', '<=', storedAt(Date.now()))
    .execute();
}
