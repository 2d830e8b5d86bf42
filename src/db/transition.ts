// A record's state change as a conditional update (issue 24): the UPDATE names the state the caller
// read and decided on, so of several calls deciding on the same state exactly one changes the row.
// On PostgreSQL the others wait for the winner's row lock and then find the row no longer matching;
// on SQLite, where one writer runs at a time, they find it changed when their turn comes. A caller
// that did not make the change has changed nothing, and answers from the row as it now is (the
// spec's 409, or the record as it stands when the spec answers a repeat that way).
//
// Where the spec lets a repeat act again (a repeating reminder moves one round per completion, an
// estimate gets a new version per issue), a call that comes after the first has committed finds a
// state it may legitimately move again; platform/repeats.ts tells such duplicates apart.
import type { Kysely, Updateable } from 'kysely';
import type { Executor } from './dialect.ts';
import type { DB } from './tables.ts';

/**
 * Sets `changes` on row `id` of `table` only while the row still holds every value of `from`, and
 * answers whether this call made the change.
 */
export async function transition<T extends keyof DB & string>(
  db: Executor,
  table: T,
  id: number,
  from: Updateable<DB[T]>,
  changes: Updateable<DB[T]>,
): Promise<boolean> {
  // Kysely cannot follow a table name chosen by the caller through `where(column, …)`: the
  // columns come from `from`, typed against that table above.
  let update = (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .updateTable(table as string)
    .set(changes as Record<string, unknown>)
    .where('id', '=', id);
  for (const [column, value] of Object.entries(from as Record<string, unknown>)) {
    if (value === undefined) continue;
    update = value === null ? update.where(column, 'is', null) : update.where(column, '=', value);
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
