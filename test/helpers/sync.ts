// Document 1's incremental-sync recipe, run the way a client runs it: ask for rows changed after a
// cursor, save the last row's updated_at as the next cursor, repeat until a page has fewer rows
// than limit. Used by every list that takes updated_after.
import { expect } from 'vitest';
import type { Client } from './harness.ts';

export interface SyncPull {
  /** Every row of the pull, in the order received. */
  rows: { id: number; updated_at: string }[];
  /** Rows per page. */
  pageSizes: number[];
  /** The cursor the client keeps for its next pull: the last row's updated_at. */
  cursor: string;
}

/**
 * Pulls `path` (which may carry its own query) from `since` with `limit`, and asserts that the pull
 * ends, that updated_at never goes backwards and that it returns exactly the rows `expectIds`,
 * each once.
 */
export async function expectSyncRecipe(
  api: Client,
  path: string,
  opts: { limit: number; expectIds: number[]; since?: string },
): Promise<SyncPull> {
  const join = path.includes('?') ? '&' : '?';
  const pull: SyncPull = { rows: [], pageSizes: [], cursor: opts.since ?? '2000-01-01T00:00:00Z' };
  // Every page but the last holds at least limit new rows, so more pages than this means a loop.
  const maxPages = Math.ceil(opts.expectIds.length / opts.limit) + 1;
  for (;;) {
    const res = await api.get(`${path}${join}updated_after=${encodeURIComponent(pull.cursor)}&limit=${opts.limit}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data as { id: number; updated_at: string }[];
    pull.rows.push(...data);
    pull.pageSizes.push(data.length);
    if (data.length > 0) pull.cursor = data[data.length - 1]!.updated_at;
    if (data.length < opts.limit) break;
    expect(
      pull.pageSizes.length,
      `${path}: the recipe does not finish (pages ${pull.pageSizes.join(', ')})`,
    ).toBeLessThanOrEqual(maxPages);
  }
  const times = pull.rows.map((r) => r.updated_at);
  expect(times, `${path}: oldest updated_at first`).toEqual([...times].sort());
  const ids = pull.rows.map((r) => r.id);
  expect(
    [...ids].sort((a, b) => a - b),
    `${path}: every row exactly once`,
  ).toEqual([...opts.expectIds].sort((a, b) => a - b));
  return pull;
}
