// The worker's drain() contract (src/events/delivery-worker.ts: "Runs sweeps until nothing is due
// and nothing is in flight"), which every webhook test and benchmark relies on: one call sends every
// due delivery, also when a subscription has more due deliveries than it may have in flight at once
// and those attempts finish while the next claim is still choosing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/database.ts';
import type { DirectStatements } from '#db/direct-transaction.ts';
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
 * `db` with each statement the delivery queue runs on it shown to `see` (its SQL text) before it
 * runs: PostgreSQL's writes (on Database.queue), each one statement run as a compiled query
 * (executeQuery), which is what is watched; queries built and executed in place are not.
 */
function observing(db: Database['db'], see: (sql: string) => void): Database['db'] {
  return new Proxy(db, {
    get(inner, prop) {
      const value = Reflect.get(inner, prop, inner) as (...args: any[]) => any;
      if (prop === 'executeQuery') {
        return (query: { sql: string }, ...rest: unknown[]) => {
          see(query.sql);
          return value.call(inner, query, ...rest);
        };
      }
      return typeof value === 'function' ? value.bind(inner) : value;
    },
  });
}

/** SQLite's direct statements (Database.transact) with each one's SQL text shown to `see` before it runs. */
function watched(statements: DirectStatements, see: (sql: string) => void): DirectStatements {
  return {
    all: (text, values) => (see(text), statements.all(text, values)),
    run: (text, values) => (see(text), statements.run(text, values)),
    iterate: (text, values) => (see(text), statements.iterate(text, values)),
  };
}

/** One number from a count query. */
const countOf = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
  Number((await query.executeTakeFirstOrThrow()).n);

/**
 * Stands in for a database under load: on SQLite, a write that claims (the transaction that reads
 * the due candidates) comes back only once every attempt in flight when it began has been
 * answered, as happens when the commit is slow; those outcomes then wait for the next write. Rows
 * are untouched; no timing is asserted. `answered` counts the receiver's requests for workspace
 * `firmId`. PostgreSQL's write is one statement, and is left as it is.
 */
function slowClaims(database: Database, firmId: number, answered: () => number): Database {
  const transact = database.transact;
  if (!transact) return database;
  // The claim reads the due deliveries in due order.
  const isClaim = (text: string) => /from "?webhook_deliveries"?[\s\S]*order by "?next_attempt_at"?/.test(text);
  const leased = () =>
    countOf(
      database.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('firm_id', '=', firmId)
        .where('status', '=', 'pending')
        .where('locked_until', 'is not', null),
    );
  const recorded = () =>
    countOf(
      database.db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('d.firm_id', '=', firmId),
    );
  const slowTransact = async <T>(work: (statements: DirectStatements) => T): Promise<T> => {
    // Leased and not yet answered: what the receiver has still to see.
    const unanswered = (await leased()) - (answered() - (await recorded()));
    const before = answered();
    let claimed = false;
    const result = await transact((statements) =>
      work(
        watched(statements, (text) => {
          if (isClaim(text)) claimed = true;
        }),
      ),
    );
    if (claimed && unanswered > 0) {
      for (let i = 0; i < 500 && answered() < before + unanswered; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // Lets the answered attempts reach the worker before this write returns.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return result;
  };
  return { ...database, transact: slowTransact };
}

/**
 * Counts the worker's writes to the delivery queue: transactions on SQLite (Database.transact),
 * statements on PostgreSQL (where a write is one statement). Reads are not counted.
 */
function countedWrites(database: Database): { database: Database; writes: () => number } {
  let statements = 0;
  const see = (text: string) => {
    if (/update webhook_deliveries/.test(text)) statements++;
  };
  const transact = database.transact;
  if (!transact) return { database: { ...database, queue: observing(database.queue!, see) }, writes: () => statements };
  let transactions = 0;
  const counted = <T>(work: (s: DirectStatements) => T): Promise<T> =>
    transact((s) => {
      const before = statements;
      const result = work(watched(s, see));
      if (statements > before) transactions++;
      return result;
    });
  return { database: { ...database, transact: counted }, writes: () => transactions };
}

/** A receiver and a workspace subscribed to it, with `jobs` jobs created: one due delivery each. */
async function jobsToDeliver(jobs: number, name: string) {
  const r: Receiver = await startReceiver();
  cleanups.push(() => r.close());
  const w = await t.workspace();
  await subscribe(w, { target_url: r.url, event_type: 'job_created' });
  for (let i = 0; i < jobs; i++) await makeJob(w, { name: `${name} ${i}` });
  return { r, w };
}

describe('WebhookWorker.drain()', () => {
  it('writes each outcome together with the claim of the next delivery', async () => {
    const { r, w } = await jobsToDeliver(6, 'Write');

    // One slot: the first sweep claims one delivery and each outcome's write claims the next (the
    // last one finds none): 7. The closing sweep finds none either; on PostgreSQL its claim is a
    // statement all the same (8), on SQLite it only reads. Recorded and claimed apart, it was 12 and 13.
    const counted = countedWrites(t.database);
    const worker = new WebhookWorker(counted.database, {
      clock: new ManualClock(Date.now() + 1000),
      leaseMs: 30_000,
      concurrency: 1,
      allowPrivateNetwork: true,
    });
    cleanups.push(() => worker.settle());
    await worker.drain();

    expect(r.received).toHaveLength(6);
    expect((await deliveriesOf(w)).map((d) => d.status)).toEqual(Array(6).fill('succeeded'));
    expect(counted.writes()).toBe(t.database.dialect.engine === 'postgres' ? 8 : 7);
  });

  it('one drain sends every due delivery of a subscription that has more than its in-flight share', async () => {
    const { r, w } = await jobsToDeliver(5, 'Drain');

    // At most 2 attempts in flight to the subscription, so 5 deliveries take several claims.
    const clock = new ManualClock(Date.now() + 1000);
    const worker = new WebhookWorker(
      slowClaims(t.database, w.firmId, () => r.received.length),
      {
        clock,
        leaseMs: 30_000,
        concurrency: 8,
        perSubscription: 2,
        allowPrivateNetwork: true,
      },
    );
    cleanups.push(() => worker.settle());
    await worker.drain();

    expect(r.received).toHaveLength(5);
    expect((await deliveriesOf(w)).map((d) => d.status)).toEqual(Array(5).fill('succeeded'));
  });
});
