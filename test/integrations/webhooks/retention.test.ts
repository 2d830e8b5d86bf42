// Settled deliveries are kept GROUNDWORK_DELIVERY_RETENTION_DAYS (30 by default), then the idle
// webhook worker prunes them with their attempts and bodies (src/events/prune.ts), at most once an hour;
// pending deliveries stay however old, and the delivery log says how far back it reaches.
//
// A job created and won with an `all` subscription gives two deliveries (job_created is a
// webhook-only event `all` does not take: job_status_changed is not either; job_won is), and a
// `*` subscription gives the job events: three deliveries, all delivered once. Then, in the
// database, one is made settled 31 days ago, one settled 29 days ago, and one made pending since 31
// days ago (a worker that was off), due far ahead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAt } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job as makeJob } from '#test/helpers/records.ts';
import { deliveriesOf, HOUR, move, perTest, subscribe } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);
const DAY = 24 * HOUR;

describe('delivery retention', () => {
  it('prunes settled deliveries past 30 days with their attempts and bodies; keeps newer ones and old pending ones', async () => {
    const r = await receiver();
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    await subscribe(w, { target_url: r.url.replace('/hooks', '/star'), event_type: '*' });
    const job = await makeJob(w, { name: 'Retained Job' });
    await move(w, job.id, 'won');
    const tw = worker();
    await tw.drain();
    const log = await w.api.get('/v1/webhooks/deliveries');
    expect(log.body.retention_days).toBe(30);
    const [won, changed, created] = log.body.data.map((d: any) => d.id);
    expect(log.body.data.map((d: any) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    const { db } = t.database;
    const at = (daysAgo: number) => storedAt(tw.clock.now() - daysAgo * DAY);
    await db
      .updateTable('webhook_deliveries')
      .set({ created_at: at(32), updated_at: at(31) })
      .where('id', '=', created)
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({ created_at: at(32), updated_at: at(29) })
      .where('id', '=', changed)
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        created_at: at(31),
        updated_at: at(31),
        next_attempt_at: storedAt(tw.clock.now() + 10 * DAY),
      })
      .where('id', '=', won)
      .execute();

    // Pruned once already, on the drain's first idle sweep: not again within the hour.
    expect(await tw.worker.sweep()).toBe(0);
    expect((await deliveriesOf(w)).map((d) => d.id)).toEqual([won, changed, created]);

    tw.clock.advance(HOUR + 1);
    expect(await tw.worker.sweep()).toBe(0);
    expect((await deliveriesOf(w)).map((d) => d.id)).toEqual([won, changed]);
    // What is left of the three deliveries' attempts and bodies.
    const left = async (table: 'webhook_attempts' | 'webhook_payloads') =>
      (
        await db
          .selectFrom(table)
          .select('delivery_id')
          .where('delivery_id', 'in', [won, changed, created])
          .orderBy('delivery_id', 'desc')
          .execute()
      ).map((r) => r.delivery_id);
    expect(await left('webhook_attempts')).toEqual([won, changed]);
    expect(await left('webhook_payloads')).toEqual([won, changed]);
    expect((await w.api.get(`/v1/webhooks/deliveries/${created}`)).status).toBe(404);
  });
});
