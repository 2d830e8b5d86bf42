// The bid-vs-actual report (docs/reports.md, "Bid vs actual"): for each job won from start to end
// (date basis `decided`: it entered a won stage in the range), what it was sold for and expected to
// cost against what it cost and was invoiced.
//
// - Bid: what was sold, before tax: the subtotal of the job estimate's award snapshot (the estimate
//   as it was marked won) when it has one, else the job estimate's subtotal, else the estimated value
//   typed on the job. Estimated cost: the same snapshot's (else estimate's) cost; null without an
//   estimate. Estimated margin = bid - estimated cost, over bid.
// - Actual cost: the job's direct cost as month-end-job-cost counts it, to today: every entered job
//   cost (any date, credits net out) plus the labor of its closed, not void time entries with a pay
//   rate at their snapshot rates with overtime (job-labor.ts).
// - Invoiced: the job's invoices that are not draft, void or uncollectible, before tax (amount - tax,
//   as month-end counts revenue). Actual margin = invoiced - actual cost, over invoiced (null when
//   nothing is invoiced): the money in against the money out, not the contract, so a job still being
//   billed shows it.
// - Cost variance = actual cost - estimated cost (positive: over budget), over estimated cost.
// - A user who may not see job costs (can_see_job_costs) gets the report without the actual cost,
//   actual margin and variance columns and summary lines, and a note says so.
//
// Queries: the won jobs with their snapshot or estimate and one GROUP BY subquery each for invoices
// and job costs joined in (one query); the labor's two reads (job-labor.ts). group_by adds a table of
// the same jobs summed by the group keys, whose values the job query selects.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { can } from '#platform/permissions.ts';
import { millisOf } from '#platform/time.ts';
import { localDates } from '#engines/payroll/index.ts';
import { groupColumns, groupTableColumns } from './group-by.ts';
import { CUSTOMER_NAME, jobScope } from './job-scope.ts';
import { laborCentsByJob } from './job-labor.ts';
import { NOT_REVENUE } from './month-end-job-cost.ts';
import type { ReportDefinition } from './run.ts';
import type { Column, FullTable, Row } from './run-result.ts';
import { formatPct, ratio, sumMoney } from './table-math.ts';

/**
 * A job's (or a group's, or the total's) figures in cents. Estimated margin and cost variance are
 * over the jobs with an estimated cost only (`costed`), so a job without an estimate never shows as
 * all margin or all overrun in a sum.
 */
interface Cents {
  bid: number;
  estimatedCost: number | null;
  actualCost: number;
  invoiced: number;
  /** Bid and actual cost of the jobs that have an estimated cost. */
  costedBid: number;
  costedActual: number;
}

const COST_COLUMNS = new Set(['actual_cost', 'actual_margin', 'actual_margin_pct', 'cost_variance', 'variance_pct']);

function figures(c: Cents): Row {
  const estimatedMargin = c.estimatedCost === null ? null : c.costedBid - c.estimatedCost;
  const variance = c.estimatedCost === null ? null : c.costedActual - c.estimatedCost;
  return {
    bid: centsToDollars(c.bid),
    estimated_cost: centsToDollars(c.estimatedCost),
    estimated_margin: centsToDollars(estimatedMargin),
    estimated_margin_pct: estimatedMargin === null ? null : ratio(estimatedMargin, c.costedBid),
    actual_cost: centsToDollars(c.actualCost),
    invoiced: centsToDollars(c.invoiced),
    actual_margin: centsToDollars(c.invoiced - c.actualCost),
    actual_margin_pct: ratio(c.invoiced - c.actualCost, c.invoiced),
    cost_variance: centsToDollars(variance),
    variance_pct: variance === null || c.estimatedCost === null ? null : ratio(variance, c.estimatedCost),
  };
}

/** The figures of a set of job rows (each with actual_cost_all): money summed in cents. */
function summed(rows: readonly Row[]): Cents {
  const cents = (of: readonly Row[], k: string) => Math.round(sumMoney(of, k) * 100);
  const costed = rows.filter((r) => r.estimated_cost !== null && r.estimated_cost !== undefined);
  return {
    bid: cents(rows, 'bid'),
    estimatedCost: costed.length === 0 ? null : cents(costed, 'estimated_cost'),
    actualCost: cents(rows, 'actual_cost_all'),
    invoiced: cents(rows, 'invoiced'),
    costedBid: cents(costed, 'bid'),
    costedActual: cents(costed, 'actual_cost_all'),
  };
}

const FIGURE_COLUMNS: Column[] = [
  { key: 'bid', label: 'Bid', kind: 'money' },
  { key: 'estimated_cost', label: 'Estimated cost', kind: 'money' },
  { key: 'estimated_margin', label: 'Estimated margin', kind: 'money' },
  { key: 'estimated_margin_pct', label: 'Estimated margin %', kind: 'pct' },
  { key: 'actual_cost', label: 'Actual cost', kind: 'money' },
  { key: 'invoiced', label: 'Invoiced', kind: 'money' },
  { key: 'actual_margin', label: 'Actual margin', kind: 'money' },
  { key: 'actual_margin_pct', label: 'Actual margin %', kind: 'pct' },
  { key: 'cost_variance', label: 'Cost variance', kind: 'money' },
  { key: 'variance_pct', label: 'Variance %', kind: 'pct' },
];

export const bidVsActual: ReportDefinition = {
  key: 'bid-vs-actual',
  title: 'Bid vs actual',
  section: 'Job cost',
  description:
    'Jobs won between start and end: what each was sold for and estimated to cost against what it has cost and been invoiced, with estimated and actual margins and the cost variance',
  date_basis: 'decided',
  uses: ['salesperson_ids', 'estimator_ids', 'customer_ids', 'division_ids', 'statuses', 'work_types', 'group_by'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const seesCosts = can(ctx.auth.user, 'can_see_job_costs');
    const scope = await jobScope(ctx, p);
    const won = () => scope.jobs().where(sql.ref('stage.type'), '=', 'won');
    const groups = await groupColumns(ctx, scope, p.groupBy);
    const invoiced = db
      .selectFrom('invoices')
      .select(['invoices.job_id', sql<number>`sum(invoices.amount_cents - invoices.tax_cents)`.as('cents')])
      .where('invoices.firm_id', '=', firmId)
      .where('invoices.status', 'not in', [...NOT_REVENUE] as string[] as 'draft'[])
      .where('invoices.job_id', 'in', won().select('jobs.id'))
      .groupBy('invoices.job_id')
      .as('invoiced');
    const entered = db
      .selectFrom('job_costs')
      .select(['job_costs.job_id', sql<number>`sum(job_costs.amount_cents)`.as('cents')])
      .where('job_costs.firm_id', '=', firmId)
      .where('job_costs.job_id', 'in', won().select('jobs.id'))
      .groupBy('job_costs.job_id')
      .as('entered');
    const [jobs, labor] = await Promise.all([
      won()
        .leftJoin('estimate_snapshots as award', 'award.id', 'job_estimate.award_snapshot_id')
        .leftJoin(invoiced, 'invoiced.job_id', 'jobs.id')
        .leftJoin(entered, 'entered.job_id', 'jobs.id')
        .select([
          ...groups.map((g) => g.expr.as(g.key)),
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          scope.basis.as('at'),
          sql<number>`coalesce(award.subtotal_cents, job_estimate.subtotal_cents, jobs.estimated_value_cents, 0)`.as(
            'bid_cents',
          ),
          sql<number | null>`case when award.id is not null then award.cost_cents else job_estimate.cost_cents end`.as(
            'estimated_cost_cents',
          ),
          sql<number>`coalesce(invoiced.cents, 0)`.as('invoiced_cents'),
          sql<number>`coalesce(entered.cents, 0)`.as('entered_cents'),
        ])
        .orderBy(scope.basis, 'desc')
        .orderBy('jobs.id', 'desc')
        .execute(),
      seesCosts ? laborCentsByJob(ctx, won().select('jobs.id')) : Promise.resolve(new Map<number, number>()),
    ]);
    // The local date of each job's decision, a quarter hour of instants read at a time (20,000 jobs).
    const localDateOf = localDates(ctx.auth.firm.timezone);
    // actual_cost_all keeps the actual cost for sums even when its column is hidden from the user.
    const rows: Row[] = jobs.map((j) => {
      const id = Number(j.id);
      const estimatedCost = j.estimated_cost_cents === null ? null : Number(j.estimated_cost_cents);
      const actualCost = Number(j.entered_cents) + (labor.get(id) ?? 0);
      const c: Cents = {
        bid: Number(j.bid_cents),
        estimatedCost,
        actualCost,
        invoiced: Number(j.invoiced_cents),
        costedBid: estimatedCost === null ? 0 : Number(j.bid_cents),
        costedActual: estimatedCost === null ? 0 : actualCost,
      };
      return {
        ...Object.fromEntries(groups.map((g) => [g.key, String(j[g.key])])),
        job_id: id,
        job_number: Number(j.job_number),
        job_name: String(j.name),
        customer: String(j.customer),
        decided_on: localDateOf(millisOf(String(j.at))),
        ...figures(c),
        actual_cost_all: centsToDollars(c.actualCost),
      };
    });
    const shown = (cols: Column[]) => (seesCosts ? cols : cols.filter((c) => !COST_COLUMNS.has(c.key)));
    const strip = (r: Row): Row =>
      Object.fromEntries(
        Object.entries(r).filter(
          ([k]) => k !== 'actual_cost_all' && k !== 'group_key' && (seesCosts || !COST_COLUMNS.has(k)),
        ),
      );
    const hiddenNote = seesCosts ? null : 'Actual costs are hidden: the key’s user may not see job costs';
    const note = [scope.note, hiddenNote].filter((n) => n !== null).join('. ') || null;
    const jobTable: FullTable = {
      key: 'jobs',
      title: 'Won jobs',
      columns: shown([
        { key: 'job_number', label: 'Job #', kind: 'int' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'customer', label: 'Customer', kind: 'text' },
        { key: 'decided_on', label: 'Won', kind: 'date' },
        ...FIGURE_COLUMNS,
      ]),
      rows: rows.map(strip),
      // The shown rows have lost actual_cost_all: sum from the kept rows' own figures by job id.
      total: (kept) => {
        const ids = new Set(kept.map((r) => r.job_id));
        return strip({
          job_number: null,
          job_name: 'Total',
          ...figures(summed(rows.filter((r) => ids.has(r.job_id)))),
        });
      },
      note,
    };
    const tables: FullTable[] = [];
    if (groups.length > 0) {
      const byKey = new Map<string, Row[]>();
      for (const r of rows) {
        const k = JSON.stringify(groups.map((g) => r[g.key]));
        byKey.set(k, [...(byKey.get(k) ?? []), r]);
      }
      const sorted = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const groupRows: Row[] = sorted.map(([key, members]) => ({
        ...Object.fromEntries(groups.map((g) => [g.key, members[0]![g.key]!])),
        jobs: members.length,
        ...figures(summed(members)),
        group_key: key,
      }));
      tables.push({
        key: 'groups',
        title: `Bid vs actual by ${groups.map((g) => g.label.toLowerCase()).join(', ')}`,
        columns: shown([...groupTableColumns(groups), { key: 'jobs', label: 'Jobs', kind: 'int' }, ...FIGURE_COLUMNS]),
        rows: groupRows.map(strip),
        // The total of the groups kept: their jobs' figures summed afresh.
        total: (kept) => {
          const keys = new Set(kept.map((r) => JSON.stringify(groups.map((g) => r[g.key]))));
          const members = sorted.filter(([k]) => keys.has(k)).flatMap(([, m]) => m);
          return strip({
            ...Object.fromEntries(groups.map((g, i) => [g.key, i === 0 ? 'Total' : null])),
            jobs: members.length,
            ...figures(summed(members)),
          });
        },
        note,
      });
    }
    tables.push(jobTable);
    const all = summed(rows);
    const f = figures(all);
    const money = (v: unknown) => (v === null ? '—' : formatCents(Math.round(Number(v) * 100)));
    return {
      summary: [
        { label: 'Jobs won', value: String(rows.length) },
        { label: 'Bid', value: money(f.bid) },
        { label: 'Estimated cost', value: money(f.estimated_cost) },
        {
          label: 'Estimated margin',
          value: `${money(f.estimated_margin)} (${formatPct(f.estimated_margin_pct as number | null)})`,
        },
        ...(seesCosts ? [{ label: 'Actual cost', value: money(f.actual_cost) }] : []),
        { label: 'Invoiced', value: money(f.invoiced) },
        ...(seesCosts
          ? [
              {
                label: 'Actual margin',
                value: `${money(f.actual_margin)} (${formatPct(f.actual_margin_pct as number | null)})`,
              },
              {
                label: 'Cost variance',
                value: `${money(f.cost_variance)} (${formatPct(f.variance_pct as number | null)})`,
              },
            ]
          : []),
      ],
      tables,
      truncated: scope.truncated,
    };
  },
};
