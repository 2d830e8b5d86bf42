// The estimates item history and material history count (docs/reports.md): the workspace's, not
// change orders, not archived, created from start to end, on jobs the user may see; their lines
// active, not excluded and not optional (what an estimate's price is made of). A line's numbers are
// the ones its estimate's last pricing stored in `calculation` (lines.<id>, cost_lines.<id>).
//
// Where the database parses stored JSON on every read (PostgreSQL: dialect.ts, keepsParsedJson),
// each estimate's part of its calculation is taken out once, as `priced.part` in a materialized
// CTE the lines join (db/with-materialized.ts puts it in front of the query that reads them);
// reading it per line parsed a 787-KB calculation 500 times for one estimate.
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { addDays } from '#platform/time.ts';
import { onVisibleJob } from '#crm/index.ts';
import { WithMaterialized } from '#db/with-materialized.ts';
import { startOfDay } from './job-scope.ts';
import type { RunParams } from './run-query.ts';

// biome-ignore lint/suspicious/noExplicitAny: the CTE `priced` is not one of DB's tables
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** The counted estimates' queries for `part`, the calculation's key the report reads (lines, cost_lines). */
export function quotedEstimates(ctx: ServiceContext, p: RunParams, part: 'lines' | 'cost_lines') {
  const { db, dialect } = ctx.database;
  const firmId = ctx.auth.firm.id;
  // The estimates (`e`) counted.
  const countedEstimates = (qb: AnyQuery) =>
    qb
      .where('e.firm_id', '=', firmId)
      .where('e.is_change_order', '=', 0)
      .where('e.archived_at', 'is', null)
      .where('e.created_at', '>=', startOfDay(ctx, p.start))
      .where('e.created_at', '<', startOfDay(ctx, addDays(p.end, 1)));
  const priced = !dialect.keepsParsedJson
    ? new WithMaterialized(
        db,
        'priced',
        countedEstimates(db.selectFrom('estimates as e')).select([
          'e.id',
          dialect.jsonPart(sql`e.calculation`, [part]).as('part'),
        ]),
      )
    : null;
  return {
    /**
     * The counted lines of `qb` (joined to `estimates as e` and `estimate_lines as el`): on counted
     * estimates of visible jobs, with `priced` joined, and put in front, when `parts` and the parts
     * are taken out once (a query that reads no line number, as a pass for the range's first and
     * last dates, goes without it).
     */
    counted: (qb: AnyQuery, parts: boolean) =>
      onVisibleJob(
        countedEstimates(priced && parts ? qb.innerJoin('priced', 'priced.id', 'e.id').withPlugin(priced) : qb)
          .where('el.firm_id', '=', firmId)
          .where('el.active', '=', 1)
          .where('el.excluded', '=', 0)
          .where('el.is_optional', '=', 0),
        'e.job_id',
        firmId,
        ctx.auth.user,
      ),
    /** The number at `key` of the line or cost line whose id is `id`, in its estimate's calculation. */
    number: (id: RawBuilder<unknown>, key: string): RawBuilder<number> =>
      priced
        ? dialect.jsonNumberIn(sql`priced.part`, [id, key])
        : dialect.jsonNumber(sql`e.calculation`, [part, id, key]),
  };
}
