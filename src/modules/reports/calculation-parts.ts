// One part of each estimate's stored calculation (`lines` or `cost_lines`), read by a report's
// lines. Where the database parses stored JSON on every read (PostgreSQL: dialect.ts,
// keepsParsedJson), each estimate's part is taken out once, as `priced.part` in a materialized CTE
// the lines join (db/with-materialized.ts puts it in front of the query that reads them): read per
// line, a 500-line estimate's whole calculation was parsed again for each of its lines. SQLite
// keeps parsed JSON, so there the lines read the calculation column itself.
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { WithMaterialized } from '#db/with-materialized.ts';

// biome-ignore lint/suspicious/noExplicitAny: the CTE `priced` is not one of DB's tables
type AnyQuery = SelectQueryBuilder<any, any, any>;

export interface CalculationParts {
  /** `qb` joined to `priced` on `estimateId` (a column reference), and the CTE put in front; `qb` as it is where the parts are not taken out. */
  join<Q extends AnyQuery>(qb: Q, estimateId: string): Q;
  /** The number at `key` of the row whose id is `id` in its estimate's part. */
  number(id: RawBuilder<unknown>, key: string): RawBuilder<number>;
  /** Whether the boolean at `key` of the row whose id is `id` in its estimate's part is true. */
  isTrue(id: RawBuilder<unknown>, key: string): RawBuilder<boolean>;
}

/**
 * `part` of the calculations of `estimates` (a query from `estimates as e`, filtered to the ones
 * the report reads); `calculation` is the column the lines read it from where the parts are not
 * taken out.
 */
export function calculationParts(
  ctx: ServiceContext,
  part: 'lines' | 'cost_lines',
  estimates: AnyQuery,
  calculation: RawBuilder<unknown>,
): CalculationParts {
  const { db, dialect } = ctx.database;
  const priced = dialect.keepsParsedJson
    ? null
    : new WithMaterialized(
        db,
        'priced',
        estimates.select(['e.id', dialect.jsonPart(sql`e.calculation`, [part]).as('part')]),
      );
  return {
    join: <Q extends AnyQuery>(qb: Q, estimateId: string) =>
      priced ? (qb.innerJoin('priced', 'priced.id', estimateId).withPlugin(priced) as Q) : qb,
    number: (id, key) =>
      priced ? dialect.jsonNumberIn(sql`priced.part`, [id, key]) : dialect.jsonNumber(calculation, [part, id, key]),
    isTrue: (id, key) =>
      priced ? dialect.jsonTrueIn(sql`priced.part`, [id, key]) : dialect.jsonTrue(calculation, [part, id, key]),
  };
}
