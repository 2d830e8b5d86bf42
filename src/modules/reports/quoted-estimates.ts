// The estimates item history and material history count (docs/reports.md): the workspace's, not
// change orders, not archived, created from start to end, on jobs the user may see; their lines
// active, not excluded and not optional (what an estimate's price is made of). A line's numbers are
// the ones its estimate's last pricing stored in `calculation` (lines.<id>, cost_lines.<id>).
//
// The line numbers are read from each estimate's part of its calculation (calculation-parts.ts:
// taken out once on PostgreSQL; reading it per line parsed a 787-KB calculation 500 times for one
// estimate).
import { type SelectQueryBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { addDays } from '#platform/time.ts';
import { onVisibleJob } from '#crm/index.ts';
import { calculationParts } from './calculation-parts.ts';
import { startOfDay } from './job-scope.ts';
import type { RunParams } from './run-query.ts';

// biome-ignore lint/suspicious/noExplicitAny: the CTE `priced` is not one of DB's tables
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** The counted estimates' queries for `part`, the calculation's key the report reads (lines, cost_lines). */
export function quotedEstimates(ctx: ServiceContext, p: RunParams, part: 'lines' | 'cost_lines') {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  // The estimates (`e`) counted.
  const countedEstimates = (qb: AnyQuery) =>
    qb
      .where('e.firm_id', '=', firmId)
      .where('e.is_change_order', '=', 0)
      .where('e.archived_at', 'is', null)
      .where('e.created_at', '>=', startOfDay(ctx, p.start))
      .where('e.created_at', '<', startOfDay(ctx, addDays(p.end, 1)));
  const parts = calculationParts(ctx, part, countedEstimates(db.selectFrom('estimates as e')), sql`e.calculation`);
  return {
    /**
     * The counted lines of `qb` (joined to `estimates as e` and `estimate_lines as el`): on counted
     * estimates of visible jobs, joined to their parts when `withParts` (calculation-parts.ts; a
     * query that reads no line number, as a pass for the range's first and last dates, goes
     * without them).
     */
    counted: (qb: AnyQuery, withParts: boolean) =>
      onVisibleJob(
        countedEstimates(withParts ? parts.join(qb, 'e.id') : qb)
          .where('el.firm_id', '=', firmId)
          .where('el.active', '=', 1)
          .where('el.excluded', '=', 0)
          .where('el.is_optional', '=', 0),
        'e.job_id',
        firmId,
        ctx.auth.user,
      ),
    /** The number at `key` of the line or cost line whose id is `id`, in its estimate's calculation. */
    number: parts.number,
  };
}
