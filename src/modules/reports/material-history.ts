// The material-history report (docs/reports.md, "Material history"): what the materials estimated
// from start to end were costed at, month by month: the material cost lines of estimates created in
// the range (the estimate's created_at, its month a local month in the workspace's time zone), by
// month, material name (any case) and unit.
//
// - A material use: a cost line of type material, not an alternate and not suppressed, on a quoted
//   line (active, not excluded, not optional) of an estimate that is not a change order and not
//   archived, on a job the user may see (or no job).
// - Unit cost: the cost line's own unit cost (estimate_cost_lines.unit_cost_cents, what the
//   estimator costed it at). Average unit cost is the mean over the uses (each estimate's price
//   counts once, however much it bought); low and high are the lowest and highest.
// - Quantity and cost: what the estimate's last pricing worked out for the line (the `calculation`
//   JSON's cost_lines.<id>.quantity, waste included, and .cost), read in SQL; blank for a line the
//   pricing has not reached.
//
// One GROUP BY over the cost lines; the month is a CASE over the instants each local month starts.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars } from '#platform/money.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { bucketOf } from './bucket.ts';
import { startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import { addMonths } from './run-query.ts';
import type { FullTable } from './run-result.ts';
import { quotedEstimates } from './quoted-estimates.ts';
import { countOf, sumMoney } from './table-math.ts';

/** Ranges up to this many months are placed month by month without reading the estimates' span. */
const MONTHS_WITHOUT_SPAN = 120;

/** The months from start's to end's, both counted. */
const monthsBetween = (start: string, end: string) =>
  (Number(end.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(end.slice(5, 7)) - Number(start.slice(5, 7)) + 1;

const round4 = (n: unknown) => (n === null || n === undefined ? null : Math.round(Number(n) * 10_000) / 10_000);

/** The local month (YYYY-MM) of the stored instant `at`, for instants from local dates start to end. */
export function monthOf(ctx: ServiceContext, at: RawBuilder<unknown>, start: string, end: string): RawBuilder<string> {
  const months: string[] = [];
  for (let first = `${start.slice(0, 7)}-01`; first <= end; first = addMonths(first, 1)) months.push(first);
  return bucketOf(
    at,
    months.slice(0, -1).map((m) => startOfDay(ctx, addMonths(m, 1))),
    months.map((m) => m.slice(0, 7)),
  );
}

export const materialHistory: ReportDefinition = {
  key: 'material-history',
  title: 'Material history',
  section: 'Estimating',
  description:
    'Materials on estimates created between start and end, by month, name and unit: times used, average, lowest and highest unit cost, quantity and cost',
  date_basis: 'created',
  uses: [],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const estimates = quotedEstimates(ctx, p, 'cost_lines');
    const costCents = sql<number>`cast(round(${estimates.number(sql`cl.id`, 'cost')} * 100) as bigint)`;
    const quantity = estimates.number(sql`cl.id`, 'quantity');
    // The counted material cost lines; `parts`, with their estimates' cost lines taken out.
    const costLines = (parts: boolean) =>
      estimates
        .counted(
          db
            .selectFrom('estimate_cost_lines as cl')
            .innerJoin('estimate_lines as el', 'el.id', 'cl.line_item_id')
            .innerJoin('estimates as e', 'e.id', 'cl.estimate_id'),
          parts,
        )
        .where('cl.firm_id', '=', firmId)
        .where('cl.type', '=', 'material')
        .where('cl.is_alternate', '=', 0)
        .where('cl.suppressed', '=', 0);
    // The months placed are the range's (bucket.ts: about log2(n) comparisons a cost line). Over a
    // range of more than ten years they are those from the first to the last estimate in it, found
    // by one more pass: a range over centuries would otherwise name thousands of months.
    const tz = ctx.auth.firm.timezone;
    let span: { first: string; last: string } | null = { first: p.start, last: p.end };
    if (monthsBetween(p.start, p.end) > MONTHS_WITHOUT_SPAN) {
      const read = await costLines(false)
        .select([sql<string>`min(e.created_at)`.as('first'), sql<string>`max(e.created_at)`.as('last')])
        .executeTakeFirst();
      span = read?.first
        ? { first: storedToLocal(String(read.first), tz).date, last: storedToLocal(String(read.last), tz).date }
        : null;
    }
    const month = span ? monthOf(ctx, sql`e.created_at`, span.first, span.last) : sql<string>`cast('' as text)`;
    let qb = costLines(true).select([
      month.as('month'),
      sql<string>`lower(cl.name)`.as('name_key'),
      'cl.unit',
      sql<string>`min(cl.name)`.as('material'),
      sql<number>`count(*)`.as('times_used'),
      sql<number>`sum(cl.unit_cost_cents)`.as('unit_cost_sum'),
      sql<number>`min(cl.unit_cost_cents)`.as('low'),
      sql<number>`max(cl.unit_cost_cents)`.as('high'),
      sql<number>`sum(${quantity})`.as('quantity'),
      sql<number>`sum(${costCents})`.as('cost_cents'),
    ]);
    // By position: the month's CASE has parameters, which PostgreSQL numbers apart in each copy.
    for (const i of [1, 2, 3]) qb = qb.groupBy(sql.raw(String(i))).orderBy(sql.raw(String(i)));
    const rows = await qb.execute();
    const table: FullTable = {
      key: 'materials',
      title: 'Materials by month',
      columns: [
        { key: 'month', label: 'Month', kind: 'text' },
        { key: 'material', label: 'Material', kind: 'text' },
        { key: 'unit', label: 'Unit', kind: 'text' },
        { key: 'times_used', label: 'Times used', kind: 'int' },
        { key: 'average_unit_cost', label: 'Average unit cost', kind: 'money' },
        { key: 'low_unit_cost', label: 'Lowest unit cost', kind: 'money' },
        { key: 'high_unit_cost', label: 'Highest unit cost', kind: 'money' },
        { key: 'quantity', label: 'Quantity', kind: 'number' },
        { key: 'cost', label: 'Estimated cost', kind: 'money' },
      ],
      rows: rows.map((r) => {
        const n = Number(r.times_used);
        return {
          month: String(r.month),
          material: String(r.material),
          unit: String(r.unit),
          times_used: n,
          average_unit_cost: centsToDollars(Math.round(Number(r.unit_cost_sum) / n)),
          low_unit_cost: centsToDollars(Number(r.low)),
          high_unit_cost: centsToDollars(Number(r.high)),
          quantity: round4(r.quantity),
          cost: centsToDollars(r.cost_cents === null ? null : Number(r.cost_cents)),
        };
      }),
      total: (kept) => ({ month: 'Total', times_used: countOf(kept, 'times_used'), cost: sumMoney(kept, 'cost') }),
      note: 'Average unit cost is the mean of the unit costs the estimates used, each use counted once',
    };
    const all = table.total!(table.rows);
    return {
      summary: [
        { label: 'Materials', value: String(new Set(rows.map((r) => `${r.name_key}\u0000${r.unit}`)).size) },
        { label: 'Times used', value: String(all.times_used) },
      ],
      tables: [table],
    };
  },
};
