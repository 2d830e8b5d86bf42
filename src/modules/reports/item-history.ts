// The item-history report (docs/reports.md, "Item history"): the services quoted on estimates
// created from start to end (the estimate's created_at, a local date in the workspace's time zone),
// by service name (any case) and unit: how often, how much, at what unit prices, and how much of it
// was won.
//
// - A quoted line: a line of an estimate that is not a change order and not archived, active, not
//   excluded and not optional (what the estimate's price is made of), that the estimate's last
//   pricing priced. Estimates on jobs the user may not see are left out.
// - A line's price is the price its estimate's last pricing gave it (the `calculation` JSON's
//   lines.<id>.price: unit price or markup on cost, or a pinned override, before tax), read in SQL
//   and made whole cents per line before summing. Its quantity is the line's stored quantity (decimal
//   text, read as a number). Its unit price is price / quantity, so it is what the customer was
//   quoted per unit whatever way it was priced; lines of quantity 0 count in the value but not in the
//   unit prices.
// - Average unit price = quoted value / total quantity (weighted by quantity); low and high are the
//   lowest and highest line unit price. Unit prices are numbers to four places (a sealcoat is quoted
//   at $0.455 per square foot).
// - Won: the line's estimate is the one its job went with (the job's estimate) and the job is in a
//   won stage.
//
// The lines (their estimate joined by key, each line's price read once) in a CTE, and one GROUP BY
// over it.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { quotedEstimates } from './quoted-estimates.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

const round4 = (n: unknown) => (n === null || n === undefined ? null : Math.round(Number(n) * 10_000) / 10_000);

export const itemHistory: ReportDefinition = {
  key: 'item-history',
  title: 'Item history',
  section: 'Estimating',
  description:
    'The services quoted on estimates created between start and end, by name and unit: times quoted, quantity, average, lowest and highest unit price, quoted value and what was won',
  date_basis: 'created',
  uses: [],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const estimates = quotedEstimates(ctx, p, 'lines');
    const priceCents = sql<number>`cast(round(${estimates.number(sql`el.id`, 'price')} * 100) as bigint)`;
    // Won: the estimate is its job's, in a won stage. Asked of the won jobs as one set (a hash of
    // their (job, estimate) pairs), not by joining every line's job and stage: on PostgreSQL that
    // join of all 100,000 jobs was a fifth of the report.
    const wonPairs = db
      .selectFrom('jobs')
      .innerJoin('job_stages as stage', (j) =>
        j.onRef('stage.firm_id', '=', 'jobs.firm_id').onRef('stage.key', '=', 'jobs.status'),
      )
      .where('jobs.firm_id', '=', firmId)
      .where('stage.type', '=', 'won')
      .select(['jobs.id', 'jobs.estimate_id']);
    const won = sql<boolean>`((e.job_id, e.id) in ${wonPairs})`;
    const lines = estimates
      .counted(db.selectFrom('estimate_lines as el').innerJoin('estimates as e', 'e.id', 'el.estimate_id'), true)
      .select([
        'el.name',
        'el.unit',
        'el.estimate_id',
        sql<number>`cast(el.quantity as numeric)`.as('quantity'),
        priceCents.as('cents'),
        sql<number>`case when ${won} then 1 else 0 end`.as('won'),
      ]);
    // Each line's price is read out of its estimate's JSON once, into a materialized CTE the
    // aggregates read: written into each aggregate, the database parsed the JSON eight times a line
    // (2.1 s against 0.9 at 100,000 estimates; docs/performance.md, "Owner reports").
    const priced = sql<boolean>`quoted.quantity > 0`;
    const rows = await db
      .with(
        (cte) => cte('quoted').materialized(),
        () => lines,
      )
      .selectFrom('quoted')
      .where('quoted.cents', 'is not', null)
      .select([
        sql<string>`min(quoted.name)`.as('service'),
        'quoted.unit',
        sql<number>`count(*)`.as('times_quoted'),
        sql<number>`count(distinct quoted.estimate_id)`.as('estimates'),
        sql<number>`sum(quoted.quantity)`.as('quantity'),
        sql<number>`sum(quoted.cents)`.as('value_cents'),
        sql<number>`min(case when ${priced} then quoted.cents * 1.0 / quoted.quantity / 100 end)`.as('low'),
        sql<number>`max(case when ${priced} then quoted.cents * 1.0 / quoted.quantity / 100 end)`.as('high'),
        sql<number>`sum(case when ${priced} then quoted.quantity else 0 end)`.as('priced_quantity'),
        sql<number>`sum(case when ${priced} then quoted.cents else 0 end)`.as('priced_cents'),
        sql<number>`sum(quoted.won)`.as('won'),
        sql<number>`sum(case when quoted.won = 1 then quoted.cents else 0 end)`.as('won_cents'),
      ])
      .groupBy([sql`lower(quoted.name)`, 'quoted.unit'])
      .orderBy(sql`sum(quoted.cents)`, 'desc')
      .orderBy(sql`lower(quoted.name)`)
      .orderBy('quoted.unit')
      .execute();
    const table: FullTable = {
      key: 'services',
      title: 'Services quoted',
      columns: [
        { key: 'service', label: 'Service', kind: 'text' },
        { key: 'unit', label: 'Unit', kind: 'text' },
        { key: 'times_quoted', label: 'Times quoted', kind: 'int' },
        { key: 'estimates', label: 'Estimates', kind: 'int' },
        { key: 'quantity', label: 'Quantity', kind: 'number' },
        { key: 'average_unit_price', label: 'Average unit price', kind: 'number' },
        { key: 'low_unit_price', label: 'Lowest unit price', kind: 'number' },
        { key: 'high_unit_price', label: 'Highest unit price', kind: 'number' },
        { key: 'quoted_value', label: 'Quoted value', kind: 'money' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
      ],
      rows: rows.map((r) => {
        const pricedQuantity = Number(r.priced_quantity);
        return {
          service: String(r.service),
          unit: String(r.unit),
          times_quoted: Number(r.times_quoted),
          estimates: Number(r.estimates),
          quantity: round4(r.quantity),
          average_unit_price: pricedQuantity > 0 ? round4(Number(r.priced_cents) / 100 / pricedQuantity) : null,
          low_unit_price: round4(r.low),
          high_unit_price: round4(r.high),
          quoted_value: centsToDollars(Number(r.value_cents)),
          won: Number(r.won),
          won_value: centsToDollars(Number(r.won_cents)),
        };
      }),
      // Quantities of different units do not add up: the total counts lines and sums money only.
      total: (kept) => ({
        service: 'Total',
        times_quoted: countOf(kept, 'times_quoted'),
        quoted_value: sumMoney(kept, 'quoted_value'),
        won: countOf(kept, 'won'),
        won_value: sumMoney(kept, 'won_value'),
      }),
      note: 'Unit prices are the quoted price per unit before tax (line price / quantity)',
    };
    const all = table.total!(table.rows);
    return {
      summary: [
        { label: 'Services', value: String(table.rows.length) },
        { label: 'Lines quoted', value: String(all.times_quoted) },
        { label: 'Quoted value', value: formatCents(Math.round(Number(all.quoted_value) * 100)) },
        { label: 'Won value', value: formatCents(Math.round(Number(all.won_value) * 100)) },
      ],
      tables: [table],
    };
  },
};
