// Case-insensitive "contains" over one or more columns, with the user's text taken literally.
import { sql, type RawBuilder } from 'kysely';
import { likePattern } from '../platform/text.ts';

export function containsText(columns: string[], q: string, like: 'like' | 'ilike'): RawBuilder<boolean> {
  const pattern = likePattern(q);
  const tests = columns.map((c) => sql`${sql.ref(c)} ${sql.raw(like)} ${pattern} escape '\\'`);
  return sql<boolean>`(${sql.join(tests, sql` or `)})`;
}
