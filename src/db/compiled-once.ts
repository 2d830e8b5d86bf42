// Kysely builds and compiles SQL on every call, which costs more than running a small query on
// SQLite. A hot read whose shape never changes is compiled once per database (per Kysely
// instance) and then run with its parameters substituted. The builder is called with sentinel
// values in place of the parameters (numbers for numbers, strings for strings), so their positions
// in the compiled query can be found.
import type { CompiledQuery, Compilable } from 'kysely';
import type { Executor } from './dialect.ts';
import { readNow } from './direct-read.ts';

const SENTINEL = -7_340_000_000;

/**
 * Parameter `i`'s stand-in while compiling: a number for a number; for a string, one no caller
 * sends, which lower- or upper-casing, trimming or wrapping would change, so a builder that binds
 * such a changed value is caught rather than compiled with the stand-in as a constant.
 */
const sentinelOf = (value: number | string, i: number) =>
  typeof value === 'number' ? SENTINEL - i : ` \u0000Compiled-Once Parameter ${i}\u0000 `;

export function compiledOnce<P extends (number | string)[], R>(build: (db: Executor, ...params: P) => Compilable<R>) {
  const cache = new WeakMap<object, { query: CompiledQuery<R>; slots: number[] }>();
  return async (db: Executor, ...params: P): Promise<R[]> => {
    let entry = cache.get(db);
    if (!entry) {
      const sentinels = params.map(sentinelOf) as P;
      const query = build(db, ...sentinels).compile();
      const slots = query.parameters.map((p) => sentinels.indexOf(p as number | string));
      // A parameter the builder changed (lower-cased, wrapped in %) would be sent as its stand-in.
      sentinels.forEach((_, i) => {
        if (!slots.includes(i)) throw new Error(`compiledOnce: parameter ${i} is not bound as given`);
      });
      entry = { query, slots };
      // Transactions are short-lived objects: compile for them, but remember only long-lived databases.
      if (!db.isTransaction) cache.set(db, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((p, i) => (slots[i] >= 0 ? params[slots[i]] : p));
    const rows = readNow(db, query, parameters);
    if (rows) return rows;
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}
