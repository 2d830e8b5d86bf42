// A delivery's body moves out of its row into webhook_payloads (one row per delivery, keyed by its
// id), and the subscription index no longer carries the status.
//
// The delivery row is written twice an attempt (the claim's lease, then the outcome) and its body
// never changes. With the body in it (about 1.3 KB of a 1.5 KB row) a batch of 16 settled
// deliveries spread over seven or eight table pages, and their leases over as many again; narrow,
// they share two or three. On SQLite every page a commit changes is a frame written to the log,
// which was the largest single cost of the webhook worker's bookkeeping. The index on
// (subscription_id, status) moved every settled delivery's entry from the pending part to the
// settled part: nine of the 32 frames a batch of 16 wrote. Its two readers (a subscription's
// pending deliveries when it is deactivated, the delivery log filtered by webhook) find them by
// subscription and id as well, and that key never changes (docs/performance.md, "The delivery's
// body out of its row").
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema
    .createTable('webhook_payloads')
    .addColumn('delivery_id', 'integer', (c) => c.primaryKey().notNull().references('webhook_deliveries.id'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into webhook_payloads (delivery_id, payload) select id, payload from webhook_deliveries`.execute(db);
  await db.schema.alterTable('webhook_deliveries').dropColumn('payload').execute();
  await db.schema.dropIndex('webhook_deliveries_subscription').execute();
  await db.schema
    .createIndex('webhook_deliveries_subscription')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'id'])
    .execute();
}
