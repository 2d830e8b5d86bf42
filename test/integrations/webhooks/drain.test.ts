// The worker's drain() contract (src/events/delivery-worker.ts: "Runs sweeps until nothing is due
// and nothing is in flight"), which every webhook test and benchmark relies on: one call sends every
// due delivery, also when a subscription has more due deliveries than it may have in flight at once
// and those attempts finish while the next sweep is still choosing.
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/database.ts';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { ManualClock } from '#platform/clock.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import { deliveriesOf, subscribe } from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * Stands in for a database under load: a sweep's claim transaction (the one that reads the due
 * candidates) comes back only once the attempts that were in flight when it began have finished
 * and been recorded, as happens when the commit is slow. Rows are untouched; no timing is asserted.
 */
function slowSweeps(database: Database): Database {
  const als = new AsyncLocalStorage<{ sweep: boolean }>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node as any;
      const table = node.kind === 'SelectQueryNode' ? node.from?.froms?.[0]?.table?.identifier?.name : undefined;
      const store = als.getStore();
      if (store && table === 'webhook_deliveries' && node.limit && node.orderBy) store.sweep = true;
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
  const leased = async () =>
    (
      await database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('locked_until', 'is not', null)
        .execute()
    ).map((r) => r.id);
  const db = database.db.withPlugin(plugin);
  const slowDb = new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return () => {
          const builder = target.transaction();
          return {
            async execute<T>(fn: (trx: any) => Promise<T>): Promise<T> {
              const inFlight = await leased();
              const store = { sweep: false };
              const result = await als.run(store, () => builder.execute(fn));
              if (store.sweep && inFlight.length > 0) {
                for (let i = 0; i < 500; i++) {
                  const still = await leased();
                  if (!inFlight.some((id) => still.includes(id))) break;
                  await new Promise((resolve) => setTimeout(resolve, 10));
                }
                // Lets the finished attempts' bookkeeping run before the sweep returns.
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
              return result;
            },
          };
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...database, db: slowDb };
}

describe('WebhookWorker.drain()', () => {
  it('one drain sends every due delivery of a subscription that has more than its in-flight share', async () => {
    const r: Receiver = await startReceiver();
    cleanups.push(() => r.close());
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    for (let i = 0; i < 5; i++) await makeJob(w, { name: `Drain ${i}` });

    // At most 2 attempts in flight to the subscription, so 5 deliveries take several claims.
    const clock = new ManualClock(Date.now() + 1000);
    const worker = new WebhookWorker(slowSweeps(t.database), {
      clock,
      leaseMs: 30_000,
      concurrency: 8,
      perSubscription: 2,
      allowPrivateNetwork: true,
    });
    cleanups.push(() => worker.settle());
    await worker.drain();

    expect(r.received).toHaveLength(5);
    expect((await deliveriesOf(w)).map((d) => d.status)).toEqual(Array(5).fill('succeeded'));
  });
});
