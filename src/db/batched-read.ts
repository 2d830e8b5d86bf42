// On PostgreSQL every read is a round trip to another process on the same machine: the query's
// write wakes a backend, the backend plans nothing (the statement is prepared) but still pays a
// protocol exchange, and its answer wakes the server again. Under load most of a keyed read's cost
// is that exchange, not the row. So the keyed reads that arrive in one turn of the event loop (the
// requests Node parsed from the sockets that were ready together) are answered by one statement
// for all their keys, sent when the turn's I/O is done (setImmediate): one exchange for many reads.
// At most MAX_IN_FLIGHT statements are out at once; reads made meanwhile wait for the next.
//
// Only for a database opened with batching on (PostgreSQL). On SQLite a read is a call into the
// same process and gains nothing from waiting. In a transaction a read runs alone on the
// transaction's connection: it must see that transaction's writes.
import type { Kysely } from 'kysely';
import type { Executor } from './dialect.ts';
import type { DB } from './tables.ts';

const batching = new WeakSet<object>();

/** Reads made through batchedRead on `db` are gathered per event-loop turn (database.ts, PostgreSQL). */
export function batchReadsOn(db: Kysely<DB>): void {
  batching.add(db);
}

/** The most keys one statement carries; a busier turn's reads take several. */
export const MAX_BATCH = 32;

/**
 * Statements of one reader in flight at once per database. While they are out, new reads gather
 * for the next: the busier the server, the more keys a statement carries (measured under 10
 * connections of spread reads: about 5,400–6,400 reads a second with 2, 4,400–6,000 with 1,
 * 3,000–5,300 unbounded). It also keeps reads from taking more than 2 of the pool's connections.
 */
const MAX_IN_FLIGHT = 2;

/**
 * `keys` padded, by repeating the last, to the next power of two (at most MAX_BATCH). A statement
 * with an array parameter is planned again on every run (PostgreSQL finds no generic plan as cheap
 * for an array of unknown length: measured, 0.4 ms a run), so a `many` lists its keys one
 * parameter each, and keeps six texts (1, 2, 4 … 32 keys) prepared rather than one per count.
 */
export function paddedKeys<K>(keys: readonly K[]): K[] {
  let size = 1;
  while (size < keys.length) size *= 2;
  const padded = keys.slice();
  while (padded.length < size) padded.push(keys[keys.length - 1]);
  return padded;
}

interface Waiter<R> {
  resolve(row: R | undefined): void;
  reject(err: unknown): void;
}

interface Pending<K, R> {
  keys: Map<string, { key: K; waiters: Waiter<R>[] }>;
}

interface State<K, R> {
  /** The reads gathered for the next statement. */
  pending: Pending<K, R> | null;
  /** Statements sent and not yet answered. */
  inFlight: number;
  /** Whether a send waits for the end of this turn. */
  scheduled: boolean;
}

export interface BatchedRead<K, R> {
  /** The read of one key alone: SQLite, a transaction, a database without batching. */
  one(db: Executor, key: K): Promise<R | undefined>;
  /** One statement for many keys; it may leave out keys that have no row. */
  many(db: Kysely<DB>, keys: K[]): Promise<R[]>;
  /** The same text for a key and for the row that answers it. */
  keyOf(key: K): string;
  rowKey(row: R): string;
}

/**
 * `read(db, key)`: the row for `key`, or undefined. On a batching database, calls made in one turn
 * share one `many` statement; every caller gets its own copy of a row (callers may shape it).
 */
export function batchedRead<K, R extends object>(spec: BatchedRead<K, R>) {
  const stateByDb = new WeakMap<object, State<K, R>>();
  /** Reads gathered and statements sent (the benchmarks and tests read how well reads share). */
  const counts = { reads: 0, statements: 0 };

  const schedule = (db: Kysely<DB>, state: State<K, R>) => {
    if (state.scheduled || !state.pending || state.inFlight >= MAX_IN_FLIGHT) return;
    state.scheduled = true;
    setImmediate(() => {
      state.scheduled = false;
      send(db, state);
    });
  };

  const send = (db: Kysely<DB>, state: State<K, R>) => {
    const pending = state.pending;
    if (!pending) return;
    state.pending = null;
    const entries = [...pending.keys.values()];
    for (let at = 0; at < entries.length; at += MAX_BATCH) {
      if (state.inFlight >= MAX_IN_FLIGHT) {
        // The rest goes first in the next statement, when one of these is answered.
        state.pending = { keys: new Map(entries.slice(at).map((e) => [spec.keyOf(e.key), e])) };
        return;
      }
      const part = entries.slice(at, at + MAX_BATCH);
      counts.statements++;
      state.inFlight++;
      spec
        .many(
          db,
          part.map((e) => e.key),
        )
        .then((rows) => {
          const found = new Map<string, R>();
          for (const row of rows) found.set(spec.rowKey(row), row);
          for (const { key, waiters } of part) {
            const row = found.get(spec.keyOf(key));
            waiters.forEach((w, i) => {
              w.resolve(row && i > 0 ? { ...row } : row);
            });
          }
        })
        // A failed statement (or a failure handing out its rows) fails the reads still waiting on it.
        .catch((err: unknown) => {
          for (const { waiters } of part) for (const w of waiters) w.reject(err);
        })
        .finally(() => {
          state.inFlight--;
          schedule(db, state);
        });
    }
  };

  const read = (db: Executor, key: K): Promise<R | undefined> => {
    if (db.isTransaction || !batching.has(db)) return spec.one(db, key);
    counts.reads++;
    const root = db as Kysely<DB>;
    let state = stateByDb.get(root);
    if (!state) {
      state = { pending: null, inFlight: 0, scheduled: false };
      stateByDb.set(root, state);
    }
    state.pending ??= { keys: new Map() };
    const text = spec.keyOf(key);
    let entry = state.pending.keys.get(text);
    if (!entry) {
      entry = { key, waiters: [] };
      state.pending.keys.set(text, entry);
    }
    const waiters = entry.waiters;
    const answer = new Promise<R | undefined>((resolve, reject) => waiters.push({ resolve, reject }));
    schedule(root, state);
    return answer;
  };
  return Object.assign(read, { counts });
}
