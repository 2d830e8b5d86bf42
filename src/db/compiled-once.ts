// Kysely builds and compiles SQL on every call, which costs more than running a small query on
// SQLite. A hot read whose shape never changes is compiled once per database (per Kysely
// instance) and then run with its parameters substituted. The builder is called with sentinel
// numbers in place of the parameters, so their positions in the compiled query can be found.
import type { CompiledQuery, Compilable } from 'kysely';
import type { Executor } from './dialect.ts';

const SENTINEL = -7_340_000_000;

export function compiledOnce<P extends number[], R>(build: (db: Executor, ...params: P) => Compilable<R>) {
  const cache = new WeakMap<object, { query: CompiledQuery<R>; slots: number[] }>();
  return async (db: Executor, ...params: P): Promise<R[]> => {
    let entry = cache.get(db);
    if (!entry) {
      const sentinels = params.map((_, i) => SENTINEL - i) as P;
      const query = build(db, ...sentinels).compile();
      const slots = query.parameters.map((p) => (typeof p === 'number' ? sentinels.indexOf(p) : -1));
      entry = { query, slots };
      // Transactions are short-lived objects: compile for them, but remember only long-lived databases.
      if (!db.isTransaction) cache.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => (slots[i] >= 0 ? params[slots[i]] : p));
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}
