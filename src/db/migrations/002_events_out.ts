// Events out (issue 3): webhook subscriptions, their deliveries and every attempt, the feed's
// index, and workspace export files built in the background.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    .addColumn('deactivated_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_subscriptions_firm')
    .on('webhook_subscriptions')
    .columns(['firm_id', 'active'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('webhook_subscriptions.id'))
    .addColumn('event_row_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', ts)
    .addColumn('locked_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('last_attempt_at', ts)
    .addColumn('last_response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', ts)
    .addColumn('redelivery_of', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // The sweep's query: pending deliveries by due time. Partial, so the millions of settled
  // deliveries a busy workspace accumulates never sit in it.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
  await db.schema.createIndex('webhook_deliveries_firm').on('webhook_deliveries').columns(['firm_id', 'id']).execute();
  await db.schema
    .createIndex('webhook_deliveries_subscription')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'status'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').columns(['event_id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('delivery_uuid', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('signed_at', ts, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'number'])
    .execute();

  // Counts a workspace's feed events; bumping it is also what serialises feed writers (events/record.ts).
  await db.schema
    .alterTable('firms')
    .addColumn('feed_events', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The feed reads a workspace's feed events in id order.
  await db.schema.createIndex('events_feed').on('events').columns(['firm_id', 'in_feed', 'id']).execute();

  await db.schema
    .createTable('export_files')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('size_bytes', 'bigint')
    .addColumn('row_counts', 'text')
    .addColumn('watermark', ts)
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('created_by_user_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('export_files_status').on('export_files').columns(['status', 'id']).execute();
  await db.schema.createIndex('export_files_firm').on('export_files').columns(['firm_id', 'id']).execute();

  // Download links of ready exports: only a SHA-256 of each link's token is kept.
  await db.schema
    .createTable('export_file_links')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('export_file_id', 'integer', (c) => c.notNull().references('export_files.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}
