// The data-dump report (docs/reports.md, "Data dump"): every job in scope as one row with every
// column an owner takes to a spreadsheet: the jobs created from start to end (date basis `created`
// unless the request names another), narrowed by the job filters, by job number.
//
// - Dates (created, bid: the first proposal sent, decided: entered a won, lost or excluded stage)
//   are local dates in the workspace's time zone; bid and decided are blank until they happen.
// - Value is the job's value in every report (its estimate's total, else its typed estimated value).
//   Estimate price, cost and margin are the job estimate's stored totals (price with tax; margin is
//   subtotal - cost, as the estimate shows it); blank without an estimate.
// - Invoiced: the job's invoices that are not draft, void or uncollectible, with tax (what the
//   customer was billed, as receivables counts it); collected: those of them paid.
//
// The scoped jobs with one GROUP BY subquery over their invoices joined in, as a list table
// (run-result.ts): the count and sums of every row in one query (the summary's, and the total row's
// when no q narrows the rows), and the page shown in another.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { groupColumns } from './group-by.ts';
import { CUSTOMER_NAME, JOB_VALUE_CENTS, jobCells, jobScope } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { Column, ListTable } from './run-result.ts';

/** Not billed: never sent, cancelled, or written off (as receivables counts). */
const NOT_BILLED = ['draft', 'void', 'uncollectible'] as const;

const MONEY_COLUMNS = ['value', 'estimate_price', 'estimate_cost', 'estimate_margin', 'invoiced', 'collected'];

const COLUMNS: Column[] = [
  { key: 'job_number', label: 'Job #', kind: 'int' },
  { key: 'job_name', label: 'Job', kind: 'text' },
  { key: 'customer', label: 'Customer', kind: 'text' },
  { key: 'status', label: 'Status', kind: 'text' },
  { key: 'outcome', label: 'Outcome', kind: 'text' },
  { key: 'work_types', label: 'Work types', kind: 'text' },
  { key: 'salesperson', label: 'Salesperson', kind: 'text' },
  { key: 'estimator', label: 'Estimator', kind: 'text' },
  { key: 'division', label: 'Division', kind: 'text' },
  { key: 'source', label: 'Source', kind: 'text' },
  { key: 'customer_type', label: 'Customer type', kind: 'text' },
  { key: 'property_type', label: 'Property type', kind: 'text' },
  { key: 'address', label: 'Address', kind: 'text' },
  { key: 'city', label: 'City', kind: 'text' },
  { key: 'zip', label: 'ZIP', kind: 'text' },
  { key: 'created', label: 'Created', kind: 'date' },
  { key: 'bid', label: 'Bid', kind: 'date' },
  { key: 'decided', label: 'Decided', kind: 'date' },
  { key: 'value', label: 'Value', kind: 'money' },
  { key: 'estimate_price', label: 'Estimate price', kind: 'money' },
  { key: 'estimate_cost', label: 'Estimate cost', kind: 'money' },
  { key: 'estimate_margin', label: 'Estimate margin', kind: 'money' },
  { key: 'invoiced', label: 'Invoiced', kind: 'money' },
  { key: 'collected', label: 'Collected', kind: 'money' },
];

export const dataDump: ReportDefinition = {
  key: 'data-dump',
  title: 'Data dump',
  section: 'Sales',
  description:
    'Every job created between start and end (or on another date basis) as one row with its customer, people, place, dates, value, estimate and what was invoiced and collected',
  date_basis: 'created',
  uses: [
    'date_basis',
    'salesperson_ids',
    'estimator_ids',
    'customer_ids',
    'division_ids',
    'statuses',
    'work_types',
    'outcomes',
  ],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const scope = await jobScope(ctx, p);
    const [division] = await groupColumns(ctx, scope, ['division']);
    const billed = db
      .selectFrom('invoices')
      .select([
        'invoices.job_id',
        sql<number>`sum(invoices.amount_cents)`.as('invoiced'),
        sql<number>`sum(case when invoices.status = 'paid' then invoices.amount_cents else 0 end)`.as('collected'),
      ])
      .where('invoices.firm_id', '=', firmId)
      .where('invoices.status', 'not in', [...NOT_BILLED])
      .where('invoices.job_id', 'in', scope.jobs().select('jobs.id'))
      .groupBy('invoices.job_id')
      .as('billed');
    const salesperson = sql<string>`coalesce(salesperson.name, '')`;
    const estimator = sql<string>`coalesce(estimator.name, '')`;
    const rows = () => scope.jobs().leftJoin(billed, 'billed.job_id', 'jobs.id');
    // Each money column's SQL sum over the rows, in cents: the total row's and the summary's.
    const sums: Record<string, RawBuilder<unknown>> = {
      value: sql`sum(${JOB_VALUE_CENTS})`,
      estimate_price: sql`sum(job_estimate.price_cents)`,
      estimate_cost: sql`sum(job_estimate.cost_cents)`,
      estimate_margin: sql`sum(job_estimate.margin_cents)`,
      invoiced: sql`sum(coalesce(billed.invoiced, 0))`,
      collected: sql`sum(coalesce(billed.collected, 0))`,
    };
    const whole = await rows()
      .select([sql<number>`count(*)`.as('rows_total'), ...MONEY_COLUMNS.map((k) => sums[k]!.as(k))])
      .executeTakeFirstOrThrow();
    const tz = ctx.auth.firm.timezone;
    const local = (at: unknown) => (at === null || at === undefined ? null : storedToLocal(String(at), tz).date);
    const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    const money = (v: unknown) => (v === null || v === undefined ? null : centsToDollars(Number(v)));
    const totalOf = (t: Record<string, unknown>) =>
      Object.fromEntries(MONEY_COLUMNS.map((k) => [k, centsToDollars(Number(t[k] ?? 0))]));
    const table: ListTable = {
      key: 'jobs',
      title: 'Jobs',
      columns: COLUMNS,
      query: rows()
        .select([
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          'stage.label as status',
          'stage.type as outcome',
          'jobs.job_type',
          salesperson.as('salesperson'),
          estimator.as('estimator'),
          division!.expr.as('division'),
          'jobs.source',
          'jobs.customer_type',
          'jobs.property_type',
          'jobs.address',
          'jobs.address_city',
          'jobs.address_zip',
          'jobs.created_at',
          'jobs.bid_at',
          'jobs.decided_at',
          JOB_VALUE_CENTS.as('value_cents'),
          'job_estimate.price_cents as estimate_price',
          'job_estimate.cost_cents as estimate_cost',
          'job_estimate.margin_cents as estimate_margin',
          sql<number>`coalesce(billed.invoiced, 0)`.as('invoiced'),
          sql<number>`coalesce(billed.collected, 0)`.as('collected'),
        ])
        .orderBy('jobs.job_number')
        .orderBy('jobs.id'),
      row: (j) => ({
        ...jobCells(j),
        status: String(j.status),
        outcome: String(j.outcome),
        work_types: text(j.job_type),
        salesperson: text(j.salesperson),
        estimator: text(j.estimator),
        division: String(j.division),
        source: text(j.source),
        customer_type: text(j.customer_type),
        property_type: text(j.property_type),
        address: text(j.address),
        city: text(j.address_city),
        zip: text(j.address_zip),
        created: local(j.created_at),
        bid: local(j.bid_at),
        decided: local(j.decided_at),
        value: money(j.value_cents),
        estimate_price: money(j.estimate_price),
        estimate_cost: money(j.estimate_cost),
        estimate_margin: money(j.estimate_margin),
        invoiced: money(j.invoiced),
        collected: money(j.collected),
      }),
      text: {
        job_name: sql`jobs.name`,
        customer: CUSTOMER_NAME,
        status: sql`stage.label`,
        outcome: sql`stage.type`,
        work_types: sql`jobs.job_type`,
        salesperson,
        estimator,
        division: division!.expr,
        source: sql`jobs.source`,
        customer_type: sql`jobs.customer_type`,
        property_type: sql`jobs.property_type`,
        address: sql`jobs.address`,
        city: sql`jobs.address_city`,
        zip: sql`jobs.address_zip`,
      },
      total: { sums, row: (t) => ({ job_number: null, job_name: 'Total', ...totalOf(t) }) },
      whole,
      note: scope.note,
    };
    const all = totalOf(whole);
    const dollars = (k: string) => formatCents(Math.round(Number(all[k]) * 100));
    return {
      summary: [
        { label: 'Jobs', value: String(Number(whole.rows_total)) },
        { label: 'Value', value: dollars('value') },
        { label: 'Invoiced', value: dollars('invoiced') },
        { label: 'Collected', value: dollars('collected') },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
