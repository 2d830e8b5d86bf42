// How many condition ratings a workspace has made (document 1: each successful rating counts as
// one call): what the operator reads at GET /admin/v1/workspaces/{id}/usage. Every success is a
// row of condition_ratings, so the count is of those rows; errors were never kept.
import type { Executor } from '#db/dialect.ts';
import { storedAt } from '#platform/time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RatingUsage {
  total: number;
  /** Since the start of the current calendar month, UTC. */
  this_month: number;
  last_30_days: number;
  by_type: { paser: number; pci: number };
}

export async function ratingUsage(db: Executor, firmId: number, nowMs: number): Promise<RatingUsage> {
  const now = new Date(nowMs);
  const monthStart = storedAt(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const thirtyDays = storedAt(nowMs - 30 * DAY_MS);
  const rows = await db
    .selectFrom('condition_ratings')
    .select((eb) => [
      'rating_type',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('rated_at', '>=', monthStart).then(1).else(0).end()).as('this_month'),
      eb.fn.sum<number>(eb.case().when('rated_at', '>=', thirtyDays).then(1).else(0).end()).as('last_30_days'),
    ])
    .where('firm_id', '=', firmId)
    .groupBy('rating_type')
    .execute();
  const usage: RatingUsage = { total: 0, this_month: 0, last_30_days: 0, by_type: { paser: 0, pci: 0 } };
  for (const r of rows) {
    usage.total += Number(r.total);
    usage.this_month += Number(r.this_month);
    usage.last_30_days += Number(r.last_30_days);
    usage.by_type[r.rating_type] = Number(r.total);
  }
  return usage;
}
