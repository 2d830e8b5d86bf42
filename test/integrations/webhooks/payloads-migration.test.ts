// Migration 043 (src/db/migrations/043_delivery_payloads.ts) moves each delivery's body out of its
// row into webhook_payloads and re-keys the subscription index. Taken back to the schema before it,
// with one delivery sent and one still pending, the migration keeps every body byte for byte: the
// delivery log shows the sent one's, and the pending one goes out with the body it was queued with.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as movePayloads } from '#db/migrations/043_delivery_payloads.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job as makeJob } from '#test/helpers/records.ts';
import { deliveriesOf, deliveryDetail, move, perTest, subscribe } from './kit.ts';

// An app of its own: its schema is taken back to before 043, so no other test reads through
// statements prepared against the old columns.
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

/** The schema as migration 042 left it: the body in the delivery's row, the index on (subscription_id, status). */
async function beforeMigration(): Promise<void> {
  const { db } = t.database;
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update webhook_deliveries set payload = (select p.payload from webhook_payloads p where p.delivery_id = webhook_deliveries.id)`.execute(
    db,
  );
  await db.schema.dropTable('webhook_payloads').execute();
  await db.schema.dropIndex('webhook_deliveries_subscription').execute();
  await db.schema
    .createIndex('webhook_deliveries_subscription')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'status'])
    .execute();
}

describe('migration 043_delivery_payloads', () => {
  it('moves every body out of the delivery rows unchanged; a pending delivery is sent with its own', async () => {
    const r = await receiver();
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    const sent = await makeJob(w, { name: 'Sent Before' });
    await move(w, sent.id, 'won');
    const tw = worker();
    await tw.drain();
    expect(r.received).toHaveLength(1);
    const pendingJob = await makeJob(w, { name: 'Pending Across' });
    await move(w, pendingJob.id, 'won');
    const [pending, done] = await deliveriesOf(w);
    expect([pending.status, done.status]).toEqual(['pending', 'succeeded']);

    const { db } = t.database;
    const bodies = async () =>
      (
        await db
          .selectFrom('webhook_payloads')
          .select(['delivery_id', 'payload'])
          .where('delivery_id', 'in', [pending.id, done.id])
          .orderBy('delivery_id')
          .execute()
      ).map((b) => [Number(b.delivery_id), b.payload]);
    const before = await bodies();
    expect(before.map(([id]) => id)).toEqual([done.id, pending.id]);

    await beforeMigration();
    await expect(db.selectFrom('webhook_payloads').select('delivery_id').execute()).rejects.toThrow();
    await movePayloads(db, t.database.dialect);

    expect(await bodies()).toEqual(before);
    await expect(sql`select payload from webhook_deliveries`.execute(db)).rejects.toThrow();
    expect((await deliveryDetail(w, done.id)).payload).toEqual(r.received[0]!.body);

    await tw.drain();
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.raw).toBe(before[1]![1]);
    expect((await deliveryDetail(w, pending.id)).status).toBe('succeeded');
  });
});
