// The customer portal, reviews and follow-up sequences (document 2: Tag, portal message, review,
// share links; Follow-up sequence; docs/api-decisions.md, Customer portal, reviews and follow-up
// sequences).
//
// - portal_messages: a job's conversation with its customer (staff posts through the API, the
//   customer answers on the portal page), map comments carrying a point and the job's site.
// - portal_links: a customer's (client account's) portal link, at most one, turned off and on
//   again with a new token, or rotated; with the per-link allowance of posts from the page.
// - reviews: a review request (its link) and, once the customer answers, the review.
// - follow_up_sequence_settings: the workspace's one follow-up sequence (steps by day) and its
//   settings; job_follow_up_sequences and job_follow_up_steps: a sequence running on a job, with
//   its steps and when each is due.
// - client_accounts.skip_automatic_follow_ups: a customer company that gets no sequence.
// Tokens are never stored: a row keeps the salt they are derived from and their SHA-256
// (platform/link-tokens.ts).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .alterTable('client_accounts')
    .addColumn('skip_automatic_follow_ups', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('portal_messages')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    /** customer or staff. */
    .addColumn('author_type', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('map_comment', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('location_id', 'integer', (c) => c.references('locations.id').onDelete('set null'))
    .addColumn('location_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portal_messages_job').on('portal_messages').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('portal_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('client_account_id', 'integer', (c) =>
      c.notNull().unique().references('client_accounts.id').onDelete('cascade'),
    )
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    /** Posts from the page in the current window (portal-links/allowance.ts). */
    .addColumn('posts_in_window', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_window_start', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('client_name', 'text')
    .addColumn('client_email', 'text')
    .addColumn('token_salt', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'integer')
    .addColumn('content', 'text')
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('submitted_at', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reviews_firm').on('reviews').columns(['firm_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('reviews_job').on('reviews').columns(['job_id']).execute();

  await db.schema
    .createTable('follow_up_sequence_settings')
    .addColumn('firm_id', 'integer', (c) => c.primaryKey().references('firms.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('stop_on_customer_reply', 'integer', (c) => c.notNull())
    /** JSON array of steps: {day, kind: email|task, subject, body, title}. */
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('updated_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('job_follow_up_sequences')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    /** running, stopped, finished. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** stop (the API), won, lost, customer_reply; null while running or when finished. */
    .addColumn('stop_reason', 'text')
    .addColumn('stop_on_customer_reply', 'integer', (c) => c.notNull())
    .addColumn('started_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('job_follow_up_sequences_job')
    .on('job_follow_up_sequences')
    .columns(['job_id', 'status'])
    .execute();
  // At most one running sequence per job, whatever two writers do at once.
  await db.schema
    .createIndex('job_follow_up_sequences_one_running')
    .on('job_follow_up_sequences')
    .column('job_id')
    .unique()
    .where(sql.ref('status'), '=', sql.lit('running'))
    .execute();

  await db.schema
    .createTable('job_follow_up_steps')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('sequence_id', 'integer', (c) =>
      c.notNull().references('job_follow_up_sequences.id').onDelete('cascade'),
    )
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text')
    .addColumn('title', 'text')
    .addColumn('due_at', 'text', (c) => c.notNull())
    /** open, done (mail queued or follow-up made), skipped (no customer email), closed (stopped). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('done_at', 'text')
    .addColumn('task_id', 'integer', (c) => c.references('tasks.id').onDelete('set null'))
    .addColumn('mail_id', 'integer')
    .execute();
  await db.schema
    .createIndex('job_follow_up_steps_due')
    .on('job_follow_up_steps')
    .columns(['status', 'due_at', 'id'])
    .execute();
  await db.schema
    .createIndex('job_follow_up_steps_sequence')
    .on('job_follow_up_steps')
    .columns(['sequence_id', 'position'])
    .execute();
}
