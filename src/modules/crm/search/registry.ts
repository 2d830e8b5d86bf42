// The search types GET /v1/search asks: each area lists its record kinds in its manifest
// (`searchTypes`; the SearchType contract is in src/area.ts), for example
//
//   export const invoiceSearch: SearchType = { type: 'invoice', search: (db, caller, q, limit) => ... };
//
// `search` returns the type's best `limit` hits for the key's user, best first (see rankHits).
import { contributions, type SearchHit, type SearchType, type SearchTypeName } from '#src/area.ts';

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
