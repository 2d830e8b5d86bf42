// GET /v1/search: the best few records of each type for a text, as the key's user sees them.
import { badRequest } from '#platform/errors.ts';
import type { ServiceContext } from '#platform/context.ts';
import { parseSearchQuery } from './query.ts';
import { searchTypeOf } from './registry.ts';
import { SEARCH_TYPE_NAMES, type SearchResult, type SearchTypeName } from '#src/area.ts';

/** Results per type. */
export const PER_TYPE = 5;

/** The types to search: all when absent, else the comma list, each name checked. */
export function parseTypes(raw: string | undefined): SearchTypeName[] {
  if (raw === undefined || raw.trim() === '') return [...SEARCH_TYPE_NAMES];
  const names = raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = names.filter((t) => !(SEARCH_TYPE_NAMES as readonly string[]).includes(t));
  if (unknown.length) {
    throw badRequest(
      `Unknown type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; types accepts ${SEARCH_TYPE_NAMES.join(', ')}`,
      { code: 'invalid_types', field: 'types', accepted: [...SEARCH_TYPE_NAMES] },
    );
  }
  return SEARCH_TYPE_NAMES.filter((t) => names.includes(t));
}

export async function search(
  ctx: ServiceContext,
  input: { q?: string; types?: string },
): Promise<{ data: SearchResult[]; query: string }> {
  const q = parseSearchQuery(input.q);
  const types = parseTypes(input.types);
  const caller = { firmId: ctx.auth.firm.id, user: ctx.auth.user, engine: ctx.database.dialect.engine };
  // One read transaction: a consistent view across types, and the planner setting stays local.
  const found = await ctx.database.db.transaction().execute(async (trx) => {
    await ctx.database.dialect.avoidTableScans(trx);
    return Promise.all(types.map((name) => searchTypeOf(name)?.search(trx, caller, q, PER_TYPE) ?? []));
  });
  return {
    data: found
      .flat()
      .map(({ type, id, title, subtitle, status, app_url }) => ({ type, id, title, subtitle, status, app_url })),
    query: q.text,
  };
}
