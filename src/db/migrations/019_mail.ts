// Outgoing mail (GUIDE "Outside services", Email): a message caused by a change is written here in
// the change's own transaction, so a write that rolls back sends nothing and a crash loses
// nothing; the worker sends it (platform/mail/worker.ts) with leases, retries and backoff. The
// row keeps the finished message (subject, both bodies, Message-ID) so a retry sends the same one,
// and its status and last error are what the operator sees (GET /admin/v1/mail).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('outgoing_mail')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.references('firms.id').onDelete('cascade'))
    /** What the message is (lead_alert, reminder_due, sequence_step …). */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The record that caused it (`lead:12`), for the operator and for tests. */
    .addColumn('ref', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    /** queued, sent, failed (gave up: a refusal or every attempt used). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outgoing_mail_due')
    .on('outgoing_mail')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', sql.lit('queued'))
    .execute();
  await db.schema.createIndex('outgoing_mail_ref').on('outgoing_mail').columns(['ref']).execute();
}
