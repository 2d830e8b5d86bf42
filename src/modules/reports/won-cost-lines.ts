// The estimated spend on won jobs that the sub-utilization, vendor-utilization and minority
// reports read: the cost lines of each won job's estimate (the job's estimate_id: its won estimate,
// see estimates/job-estimate.ts), each at the cost its last pricing gave it.
//
// A cost line's cost is not a column: the pricing engine stores it in the estimate's `calculation`
// JSON under cost_lines.<id> ({cost (dollars), included, ...}). A cost line counts when that
// pricing has it (its line is in the bid), it is `included` (not an alternate, not suppressed) and
// its line is not optional (a bundle sub-line follows its master's flag, as in the totals). The
// cost is read in SQL (json_extract / jsonb) and turned into whole cents per line before summing.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { type JobScope, type JobsQuery, jobScope } from './job-scope.ts';
import type { RunParams } from './run-query.ts';

export interface WonCostLines {
  scope: JobScope;
  /** The counted cost lines of the scoped won jobs' estimates, joined as `cl` (with `ci`, its catalog item, left joined). */
  lines(): JobsQuery;
  /** A counted cost line's cost in cents. */
  cents: RawBuilder<number>;
}

/** The won jobs of the report's scope (decided by default) and their estimates' counted cost lines. */
export async function wonCostLines(ctx: ServiceContext, p: RunParams): Promise<WonCostLines> {
  const dialect = ctx.database.dialect;
  const scope = await jobScope(ctx, p, { basis: p.dateBasis ?? 'decided' });
  const calc = sql`job_estimate.calculation`;
  const path = (key: string) => ['cost_lines', sql`cl.id`, key];
  const cents = sql<number>`cast(round(coalesce(${dialect.jsonNumber(calc, path('cost'))}, 0) * 100) as bigint)`;
  const lines = () =>
    scope
      .jobs()
      .where(sql.ref('stage.type'), '=', 'won')
      .innerJoin('estimate_cost_lines as cl', (j) => j.onRef('cl.estimate_id', '=', 'jobs.estimate_id'))
      .innerJoin('estimate_lines as el', 'el.id', 'cl.line_item_id')
      .leftJoin('estimate_lines as master', 'master.id', 'el.bundle_parent_service_id')
      .leftJoin('catalog_items as ci', 'ci.id', 'cl.catalog_item_id')
      .where('el.is_optional', '=', 0)
      .where(sql<boolean>`coalesce(master.is_optional, 0) = 0`)
      .where(dialect.jsonTrue(calc, path('included'))) as JobsQuery;
  return { scope, lines, cents };
}

/** The won jobs of a scope, for a report's own queries over them. */
export const wonJobs = (scope: JobScope): JobsQuery => scope.jobs().where(sql.ref('stage.type'), '=', 'won');
