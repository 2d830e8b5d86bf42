// Many rows of one table, each given its own value of one text column, in one statement per few
// hundred rows instead of one UPDATE per row: `WITH v AS (VALUES (id, value), …) UPDATE … FROM v`, which both
// engines read (SQLite since 3.33). A write that changes a column on hundreds of rows (an estimate's
// hauls when their driving times are looked up again) then costs a round trip, not hundreds.
import { sql } from 'kysely';
import type { DB } from './tables.ts';
import type { Executor } from './dialect.ts';

/** Rows per statement: two parameters each, well under SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 400;

export async function setTextById<T extends keyof DB & string>(
  db: Executor,
  table: T,
  column: keyof DB[T] & string,
  rows: readonly { id: number; value: string | null }[],
): Promise<void> {
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    // Typed in the first row: PostgreSQL takes a VALUES list's parameters as text otherwise.
    const values = sql.join(
      rows
        .slice(at, at + ROWS_PER_STATEMENT)
        .map((r, i) =>
          i === 0 ? sql`(cast(${r.id} as integer), cast(${r.value} as text))` : sql`(${r.id}, ${r.value})`,
        ),
    );
    // The VALUES named in a CTE: SQLite takes no column names on a subquery's alias.
    await sql`with v (id, value) as (values ${values})
      update ${sql.table(table)} set ${sql.ref(column)} = v.value
      from v where ${sql.ref(`${table}.id`)} = v.id`.execute(db);
  }
}
