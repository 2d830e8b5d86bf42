// The sub-utilization report (docs/reports.md, "Sub-utilization"): how much work the jobs won from
// start to end (date basis `decided` unless the request names another; the job filters apply) put
// out to subcontractors, estimated and actual.
//
// - Estimated: the won jobs' estimates' counted cost lines of type subcontractor (won-cost-lines.ts),
//   by subcontractor: the cost line's catalog item, else its own name (a typed-in sub).
// - Actual: the won jobs' entered job costs of cost type subcontract (any date: the job is chosen
//   by its decision date, its costs are all it has so far), by cost code and description. A job
//   cost names no catalog item, so the two sides cannot be matched firm by firm: they are matched
//   job by job in the third table (estimated, actual, variance = actual - estimated).
//
// Three queries, one per table (each a GROUP BY), and one for the summary's totals.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { CUSTOMER_NAME, jobCells } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';
import { wonCostLines, wonJobs } from './won-cost-lines.ts';

export const JOB_FILTERS = [
  'date_basis',
  'salesperson_ids',
  'estimator_ids',
  'customer_ids',
  'division_ids',
  'statuses',
  'work_types',
] as const;

const money = (key: string, label: string) => ({ key, label, kind: 'money' as const });
const toCents = (dollars: unknown) => Math.round(Number(dollars ?? 0) * 100);

export const subUtilization: ReportDefinition = {
  key: 'sub-utilization',
  title: 'Sub-utilization',
  section: 'Job cost',
  description:
    'Subcontract work on the jobs won between start and end: estimated cost by subcontractor, actual subcontract job costs by cost code, and estimated against actual job by job',
  date_basis: 'decided',
  uses: JOB_FILTERS,
  async run(ctx: ServiceContext, p) {
    const { scope, lines, cents } = await wonCostLines(ctx, p);
    const subLines = () => lines().where(sql.ref('cl.type'), '=', 'subcontractor');
    const subCosts = () =>
      wonJobs(scope).innerJoin('job_costs as jc', 'jc.job_id', 'jobs.id').where('jc.cost_type', '=', 'subcontract');
    const name = sql<string>`coalesce(ci.name, cl.name)`;
    const code = sql<string>`coalesce(nullif(jc.cost_code, ''), '(no cost code)')`;
    const description = sql<string>`coalesce(nullif(jc.description, ''), '(no description)')`;
    const estimatedByJob = subLines()
      .select(['jobs.id as job_id', sql<number>`sum(${cents})`.as('cents')])
      .groupBy('jobs.id');
    const actualByJob = subCosts()
      .select(['jobs.id as job_id', sql<number>`sum(jc.amount_cents)`.as('cents')])
      .groupBy('jobs.id');

    const [subs, actual, jobs] = await Promise.all([
      subLines()
        .select([
          name.as('subcontractor'),
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`count(*)`.as('lines'),
          sql<number>`sum(${cents})`.as('cents'),
        ])
        .groupBy(['ci.id', name])
        .orderBy(sql`sum(${cents})`, 'desc')
        .orderBy(name)
        .execute(),
      subCosts()
        .select([
          code.as('cost_code'),
          description.as('description'),
          sql<number>`count(distinct jobs.id)`.as('jobs'),
          sql<number>`count(*)`.as('entries'),
          sql<number>`sum(jc.amount_cents)`.as('cents'),
        ])
        .groupBy([code, description])
        .orderBy(sql`sum(jc.amount_cents)`, 'desc')
        .orderBy(code)
        .orderBy(description)
        .execute(),
      wonJobs(scope)
        .leftJoin(estimatedByJob.as('e'), 'e.job_id', 'jobs.id')
        .leftJoin(actualByJob.as('a'), 'a.job_id', 'jobs.id')
        .where((eb) => eb.or([eb('e.job_id', 'is not', null), eb('a.job_id', 'is not', null)]))
        .select([
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          sql<number>`coalesce(e.cents, 0)`.as('estimated'),
          sql<number>`coalesce(a.cents, 0)`.as('actual'),
        ])
        .orderBy('jobs.job_number')
        .orderBy('jobs.id')
        .execute(),
    ]);

    const subsTable: FullTable = {
      key: 'subcontractors',
      title: 'Estimated subcontract cost by subcontractor',
      columns: [
        { key: 'subcontractor', label: 'Subcontractor', kind: 'text' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'cost_lines', label: 'Cost lines', kind: 'int' },
        money('estimated_cost', 'Estimated cost'),
      ],
      rows: subs.map((s) => ({
        subcontractor: String(s.subcontractor),
        jobs: Number(s.jobs),
        cost_lines: Number(s.lines),
        estimated_cost: centsToDollars(Number(s.cents)),
      })),
      total: (rows) => ({
        subcontractor: 'Total',
        jobs: null,
        cost_lines: countOf(rows, 'cost_lines'),
        estimated_cost: sumMoney(rows, 'estimated_cost'),
      }),
      note: scope.note ?? 'Jobs are not totalled: a job can use several subcontractors',
    };
    const actualTable: FullTable = {
      key: 'actual',
      title: 'Actual subcontract costs by cost code',
      columns: [
        { key: 'cost_code', label: 'Cost code', kind: 'text' },
        { key: 'description', label: 'Description', kind: 'text' },
        { key: 'jobs', label: 'Jobs', kind: 'int' },
        { key: 'entries', label: 'Entries', kind: 'int' },
        money('actual_cost', 'Actual cost'),
      ],
      rows: actual.map((a) => ({
        cost_code: String(a.cost_code),
        description: String(a.description),
        jobs: Number(a.jobs),
        entries: Number(a.entries),
        actual_cost: centsToDollars(Number(a.cents)),
      })),
      total: (rows) => ({
        cost_code: 'Total',
        description: null,
        jobs: null,
        entries: countOf(rows, 'entries'),
        actual_cost: sumMoney(rows, 'actual_cost'),
      }),
      note: scope.note,
    };
    const jobRow = (estimatedCents: number, actualCents: number) => ({
      estimated_cost: centsToDollars(estimatedCents),
      actual_cost: centsToDollars(actualCents),
      variance: centsToDollars(actualCents - estimatedCents),
      actual_pct_of_estimate: ratio(actualCents, estimatedCents),
    });
    const jobsTable: FullTable = {
      key: 'jobs',
      title: 'Estimated and actual subcontract cost by job',
      columns: [
        { key: 'job_number', label: 'Job #', kind: 'int' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'customer', label: 'Customer', kind: 'text' },
        money('estimated_cost', 'Estimated'),
        money('actual_cost', 'Actual'),
        money('variance', 'Variance (actual - estimated)'),
        { key: 'actual_pct_of_estimate', label: 'Actual % of estimate', kind: 'pct' },
      ],
      rows: jobs.map(
        (j): Row => ({
          ...jobCells(j),
          ...jobRow(Number(j.estimated), Number(j.actual)),
        }),
      ),
      total: (rows) => ({
        job_number: null,
        job_name: 'Total',
        customer: null,
        ...jobRow(toCents(sumMoney(rows, 'estimated_cost')), toCents(sumMoney(rows, 'actual_cost'))),
      }),
      note: scope.note,
    };
    const all = jobsTable.total!(jobsTable.rows);
    return {
      summary: [
        { label: 'Won jobs with subcontract work', value: String(jobs.length) },
        { label: 'Estimated subcontract cost', value: formatCents(toCents(all.estimated_cost)) },
        { label: 'Actual subcontract cost', value: formatCents(toCents(all.actual_cost)) },
        { label: 'Variance (actual - estimated)', value: formatCents(toCents(all.variance)) },
        { label: 'Actual % of estimate', value: formatPct(all.actual_pct_of_estimate as number | null) },
      ],
      tables: [subsTable, actualTable, jobsTable],
      truncated: scope.truncated,
    };
  },
};
