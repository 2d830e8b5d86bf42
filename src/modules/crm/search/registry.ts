// What a search type is. A record kind joins GET /v1/search by an object in its area's manifest
// (`searchTypes`, src/area.ts):
//
//   export const invoiceSearch: SearchType = { type: 'invoice', search: (db, caller, q, limit) => ... };
//
// `search` returns the type's best `limit` hits for the key's user, best first (see rankHits).
// Kinds the spec names whose records do not exist yet are accepted in `types` and return nothing.
import type { Engine, Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { contributions } from '#src/area.ts';
import type { Rank, SearchQuery } from './query.ts';

/** Every type name GET /v1/search accepts (document 2, Search and merge), in response order. */
export const SEARCH_TYPE_NAMES = [
  'job',
  'client_account',
  'contact',
  'location',
  'lead',
  'proposal',
  'invoice',
  'note',
  'project',
  'measurement',
] as const;
export type SearchTypeName = (typeof SEARCH_TYPE_NAMES)[number];

/** Who is searching: results are what this user sees in this workspace. */
export interface SearchCaller {
  firmId: number;
  user: User;
  engine: Engine;
}

/** One result as the API returns it. */
export interface SearchResult {
  type: SearchTypeName;
  id: number;
  title: string;
  subtitle: string | null;
  status: string | null;
  app_url: string;
}

/** A result with what orders it within its type. */
export interface SearchHit extends SearchResult {
  rank: Rank;
  /** Stored-form timestamp (sorts as text). */
  updated_at: string;
}

export interface SearchType {
  type: SearchTypeName;
  search(db: Executor, caller: SearchCaller, q: SearchQuery, limit: number): Promise<SearchHit[]>;
}

export function searchTypeOf(name: SearchTypeName): SearchType | undefined {
  return contributions().searchTypes.get(name);
}

/** Best first: exact, then prefix, then contains; then most recently updated; then newest. */
export function rankHits(hits: SearchHit[], limit: number): SearchHit[] {
  const seen = new Set<number>();
  return hits
    .filter((h) => !seen.has(h.id) && seen.add(h.id))
    .sort(
      (a, b) =>
        a.rank - b.rank || (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) || b.id - a.id,
    )
    .slice(0, limit);
}
