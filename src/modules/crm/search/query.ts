// The search text and how each engine matches it. Shared by every search type.
//
// Both engines index each searched field as ' ' || value (db/migrations/004_search.ts):
// - 3 or more characters match anywhere in a field (FTS5 trigram phrase on SQLite, ILIKE
//   '%q%' on the pg_trgm-indexed expression on PostgreSQL), case folded in any script;
// - 2 characters match the start of a word: ' ' + q is one trigram in both indexes.
// The user's text is always literal: FTS5 gets one quoted phrase, LIKE gets escaped wildcards.
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '#db/dialect.ts';
import { badRequest } from '#platform/errors.ts';
import { escapeLike } from '#platform/text.ts';
import type { Rank, SearchQuery } from '#src/area.ts';

export const MIN_QUERY_LENGTH = 2;
export const MAX_QUERY_LENGTH = 120;

/**
 * How many matches of a type are ranked: the most recently created ones (the order both indexes
 * give cheaply), plus the exact-identifier lookups each type adds. Keeps a very common term (one
 * matching every job) as fast as a rare one.
 */
export const CANDIDATES = 200;

export function parseSearchQuery(raw: string | undefined): SearchQuery {
  const text = (raw ?? '').trim().replace(/\s+/g, ' ');
  const length = Array.from(text).length;
  if (length < MIN_QUERY_LENGTH || length > MAX_QUERY_LENGTH) {
    throw badRequest(
      `q must be ${MIN_QUERY_LENGTH} to ${MAX_QUERY_LENGTH} characters (after trimming spaces); got ${length}`,
      { code: 'invalid_query', field: 'q' },
    );
  }
  return { text, folded: text.toLowerCase(), short: length < 3 };
}

/** The FTS5 MATCH argument: one phrase, quotes doubled, so operators and * are plain text. */
export function ftsPhrase(q: SearchQuery): string {
  return `"${(q.short ? ' ' + q.text : q.text).replaceAll('"', '""')}"`;
}

/** The ILIKE pattern (escape character backslash, PostgreSQL's default). */
export function likeContains(q: SearchQuery): string {
  const escaped = escapeLike(q.text);
  return q.short ? `% ${escaped}%` : `%${escaped}%`;
}

/**
 * Condition "the record matches" for the candidate query of one type: on SQLite the FTS table
 * (aliased `s`, cross-joined first so it drives the query) is matched; on PostgreSQL the indexed
 * expression, written exactly as in the index.
 */
export function matchCondition(
  engine: Engine,
  ftsTable: string,
  pgExpression: string,
  q: SearchQuery,
): RawBuilder<boolean> {
  return engine === 'sqlite'
    ? sql<boolean>`${sql.table(ftsTable)} match ${ftsPhrase(q)}`
    : sql<boolean>`${sql.raw(pgExpression)} ilike ${likeContains(q)}`;
}

/** 0 exact (a field equals the text), 1 prefix (a field starts with it), 2 contains. */

export function rankOf(q: SearchQuery, values: readonly (string | number | null | undefined)[]): Rank {
  let best: Rank = 2;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const folded = String(v).trim().replace(/\s+/g, ' ').toLowerCase();
    if (folded === q.folded) return 0;
    if (folded.startsWith(q.folded)) best = 1;
  }
  return best;
}
