// Case-insensitive "contains" over one or more columns, with the user's text taken literally.
// PostgreSQL's ILIKE folds case in any script; SQLite's LIKE folds only ASCII, so there both
// sides go through `casefold`, a JavaScript lower-casing function registered on the connection.
import { sql, type RawBuilder } from 'kysely';
import { likePattern } from '#platform/text.ts';
import type { Engine } from './dialect.ts';

export const CASEFOLD_FUNCTION = 'casefold';

export function containsText(columns: string[], q: string, engine: Engine): RawBuilder<boolean> {
  const tests =
    engine === 'postgres'
      ? columns.map((c) => sql`${sql.ref(c)} ilike ${likePattern(q)} escape '\\'`)
      : columns.map(
          (c) => sql`${sql.raw(CASEFOLD_FUNCTION)}(${sql.ref(c)}) like ${likePattern(q.toLowerCase())} escape '\\'`,
        );
  return sql<boolean>`(${sql.join(tests, sql` or `)})`;
}
