// On SQLite a query is a call into this process, but Kysely reaches the one connection through a
// mutex and a chain of promises (acquire, execute, transform, release): 4–6 µs of the main thread
// for each cached job read under load, against SQLite's own ~13 µs (docs/performance.md, "Reads
// past Kysely's mutex").
// A hot read compiled once (compiled-once.ts) is run on the connection directly when the connection
// is free: outside a transaction, no stream open. Otherwise it goes through Kysely and waits its
// turn, so a read never sees, nor runs inside, another request's open transaction.
import type { CompiledQuery } from 'kysely';
import type { Executor } from './dialect.ts';

type ReadNow = (sql: string, parameters: readonly unknown[]) => Record<string, unknown>[] | null;

const readers = new WeakMap<object, ReadNow>();

/** Reads compiled once on `db` may run on its connection directly (database.ts, SQLite). */
export function readDirectlyOn(db: object, readNow: ReadNow): void {
  readers.set(db, readNow);
}

/** The rows of `query` read now, or null when it must go through Kysely (see above). */
export function readNow<R>(db: Executor, query: CompiledQuery<R>, parameters: readonly unknown[]): R[] | null {
  if (db.isTransaction) return null;
  const read = readers.get(db);
  return read ? (read(query.sql, parameters) as R[] | null) : null;
}
