// One row's UPDATE that writes only what differs from the row as read. A PATCH that names no field
// (or sends the values the record already holds) must answer the record unchanged (document 1: a
// PATCH with the same fields gives the same result): no statement with nothing to SET, which both
// engines refuse as a syntax error (a 500), and no new updated_at for a change that did not happen.
import type { Kysely, Updateable } from 'kysely';
import type { Executor } from './dialect.ts';
import type { DB } from './tables.ts';

/**
 * Whether a value to write equals the stored one. PostgreSQL hands bigint and numeric columns back
 * as text, so a number and its decimal text count as the same value.
 */
function same(stored: unknown, next: unknown): boolean {
  if (stored === next) return true;
  if (stored === null || next === null || stored === undefined) return false;
  return (typeof stored === 'string' || typeof stored === 'number') && String(stored) === String(next);
}

/** The entries of `changes` (undefined ones dropped) whose value differs from `row`'s. */
export function changedColumns<R extends object>(row: R, changes: Partial<R>): Partial<R> {
  const out: Partial<R> = {};
  for (const [k, v] of Object.entries(changes)) {
    if (v !== undefined && !same((row as Record<string, unknown>)[k], v)) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/**
 * Writes the columns of `changes` that differ from `row` (the row with that id, as read in the
 * same transaction), with `stamp` (its updated_at) added when any does, or when `touch` says
 * something beside the row changed (its tags, say). Runs no statement otherwise. Returns the
 * columns written, `null` when nothing was.
 */
export async function updateChanged<T extends keyof DB & string>(
  db: Executor,
  table: T,
  row: { id: number },
  changes: Updateable<DB[T]>,
  options: { stamp?: Updateable<DB[T]>; touch?: boolean } = {},
): Promise<Updateable<DB[T]> | null> {
  const diff = changedColumns(row as Record<string, unknown>, changes as Record<string, unknown>);
  if (Object.keys(diff).length === 0 && !options.touch) return null;
  const set = { ...diff, ...options.stamp } as Updateable<DB[T]>;
  if (Object.keys(set).length === 0) return null;
  // Kysely cannot follow a table name chosen by the caller through `where('id', …)`: every table
  // this is used on has an integer id.
  await (db as unknown as Kysely<Record<string, { id: number }>>)
    .updateTable(table as string)
    .set(set as Record<string, unknown>)
    .where('id', '=', row.id)
    .execute();
  return set;
}
