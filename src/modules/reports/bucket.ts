// Which of a report's consecutive ranges (weeks, months, quarters) a record's instant or date falls
// in, as SQL. The ranges' edges are worked out here (local midnights as stored instants, or local
// dates) and compared in SQL, so a record is placed in the workspace's time zone without the
// database knowing it.
//
// A balanced tree of CASEs: about log2(n) comparisons a row. One CASE with a WHEN per edge made
// each row compare up to n times; over two years of weeks (105) that was most of the weekly
// summary's time at 100,000 jobs (docs/performance.md, "Owner reports").
import { type RawBuilder, sql } from 'kysely';

/**
 * `values[k]` for the k-th range: `at` before `edges[k]` (and not before `edges[k - 1]`); the
 * last value past the last edge. `edges` ascend and are one fewer than `values`. Numbers go in as
 * literals (a week's index), text as text parameters (a month's label).
 */
export function bucketOf<V extends string | number>(
  at: RawBuilder<unknown>,
  edges: readonly string[],
  values: readonly V[],
): RawBuilder<V> {
  if (values.length !== edges.length + 1) throw new Error('bucketOf: one value more than edges');
  const value = (v: V) => (typeof v === 'number' ? sql.lit(v) : sql`cast(${v} as text)`);
  // values lo..hi: below edges[mid] is lo..mid, else mid + 1..hi.
  const tree = (lo: number, hi: number): RawBuilder<V> => {
    if (lo === hi) return sql<V>`${value(values[lo]!)}`;
    const mid = (lo + hi) >> 1;
    return sql<V>`(case when ${at} < ${edges[mid]!} then ${tree(lo, mid)} else ${tree(mid + 1, hi)} end)`;
  };
  return tree(0, values.length - 1);
}
