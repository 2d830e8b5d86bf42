// The estimated spend on won jobs that the sub-utilization, vendor-utilization and minority
// reports read: the cost lines of each won job's estimate (the job's estimate_id: its won estimate,
// see estimates/job-estimate.ts), each at the cost its last pricing gave it.
//
// A cost line's cost is not a column: the pricing engine stores it in the estimate's `calculation`
// JSON under cost_lines.<id> ({cost (dollars), included, ...}). A cost line counts when that
// pricing has it (its line is in the bid), it is `included` (not an alternate, not suppressed) and
// its line is not optional (a bundle sub-line follows its master's flag, as in the totals). The
// cost is read in SQL (json_extract / jsonb) and turned into whole cents per line before summing.
//
// The numbers are read from each won estimate's cost_lines part (calculation-parts.ts: taken out
// once on PostgreSQL, where read per cost line a 500-line estimate's whole calculation was parsed
// again for each of its 2,500 cost lines).
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { calculationParts } from './calculation-parts.ts';
import { type JobScope, type JobsQuery, jobScope } from './job-scope.ts';
import type { RunParams } from './run-query.ts';

// biome-ignore lint/suspicious/noExplicitAny: a join to the CTE `priced`, which is not one of DB's tables
type AnyQuery = SelectQueryBuilder<any, any, any>;

export interface WonCostLines {
  scope: JobScope;
  /** The counted cost lines of the scoped won jobs' estimates, joined as `cl` (with `ci`, its catalog item, left joined). */
  lines(): JobsQuery;
  /** A counted cost line's cost in cents. */
  cents: RawBuilder<number>;
  /** A number its estimate's last pricing gave a counted cost line (`quantity`, `cost`…). */
  number(key: string): RawBuilder<number>;
}

/** The won jobs of the report's scope (decided by default) and their estimates' counted cost lines. */
export async function wonCostLines(ctx: ServiceContext, p: RunParams): Promise<WonCostLines> {
  const { db } = ctx.database;
  const scope = await jobScope(ctx, p, { basis: p.dateBasis ?? 'decided' });
  const parts = calculationParts(
    ctx,
    'cost_lines',
    db.selectFrom('estimates as e').where('e.id', 'in', wonJobs(scope).select('jobs.estimate_id')),
    sql`job_estimate.calculation`,
  );
  const number = (key: string) => parts.number(sql`cl.id`, key);
  const cents = sql<number>`cast(round(coalesce(${number('cost')}, 0) * 100) as bigint)`;
  const lines = () =>
    // `priced` is no table of DB: joined by name, the query typed as the scope's again.
    (parts.join(wonJobs(scope) as unknown as AnyQuery, 'jobs.estimate_id') as JobsQuery)
      .innerJoin('estimate_cost_lines as cl', (j) => j.onRef('cl.estimate_id', '=', 'jobs.estimate_id'))
      .innerJoin('estimate_lines as el', 'el.id', 'cl.line_item_id')
      .leftJoin('estimate_lines as master', 'master.id', 'el.bundle_parent_service_id')
      .leftJoin('catalog_items as ci', 'ci.id', 'cl.catalog_item_id')
      .where('el.is_optional', '=', 0)
      .where(sql<boolean>`coalesce(master.is_optional, 0) = 0`)
      .where(parts.isTrue(sql`cl.id`, 'included')) as JobsQuery;
  return { scope, lines, cents, number };
}

/** The won jobs of a scope, for a report's own queries over them. */
export const wonJobs = (scope: JobScope): JobsQuery => scope.jobs().where(sql.ref('stage.type'), '=', 'won');
