// A transaction run on SQLite's one connection directly, all at once, instead of statement by
// statement through Kysely. Kysely reaches the connection through a mutex and a chain of promises
// for the BEGIN, every statement, every row of a stream and the COMMIT; the webhook worker's write
// (a batch's outcomes and the next claim: four statements, one a read of up to 64 rows) paid that
// chain on the event loop that also sends the deliveries (docs/performance.md, "The delivery's
// body out of its row, and its write in one call").
//
// `work` runs synchronously, so nothing else can reach the connection until it has committed or,
// if it throws, rolled back. It runs at once when the connection is free (no transaction open, no
// stream iterating: the test db/direct-read.ts makes for a read); otherwise it waits for Kysely to
// hand the connection over, which it does only once no transaction holds it.
import type { Kysely } from 'kysely';
import type { DB } from './tables.ts';

type Row = Record<string, unknown>;

/** The statements `work` runs, each prepared once per text (db/sqlite-statements.ts). */
export interface DirectStatements {
  all(sql: string, parameters: unknown[]): Row[];
  run(sql: string, parameters: unknown[]): void;
  iterate(sql: string, parameters: unknown[]): IterableIterator<Row>;
}

export type TransactNow = <T>(work: (statements: DirectStatements) => T) => { value: T } | null;

/**
 * Runs `work` as one transaction on SQLite's connection directly (see above): `transactNow` runs it
 * when the connection is free (db/sqlite-statements.ts), `db` is the Kysely instance that hands the
 * connection over otherwise. Database.transact (database.ts) is this, bound to its connection.
 */
export async function transactDirectly<T>(
  db: Kysely<DB>,
  transactNow: TransactNow,
  work: (statements: DirectStatements) => T,
): Promise<T> {
  const now = transactNow(work);
  if (now) return now.value;
  // Kysely runs this callback holding its mutex: no transaction or stream of its own is open then.
  return db.connection().execute(async () => {
    const held = transactNow(work);
    if (!held) throw new Error('the connection Kysely handed over was not free');
    return held.value;
  });
}
