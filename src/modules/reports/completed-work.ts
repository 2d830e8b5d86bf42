// The completed-work report (document 2: "completed-work (view: job, worktype, division,
// salesperson)"; docs/reports.md, "Completed work"): the work finished from start to end. A work
// order counts when it was completed in the range (its completed_at, a local date in the workspace's
// time zone) and is not cancelled; holds are not work and never count. Its job must be one the
// request's job filters keep and the user sees (the job scope, not narrowed by any job date: date
// basis `all`, the work order's completion dates the report).
//
// - view `job` (the default): one row per job with completed work: the work orders completed, the
//   last completion's local date, the completed quantity when every one of those work orders has a
//   quantity in one unit (else blank: adding SF to tons is no total), and the job's value (its
//   estimate's total, else its typed estimated value).
// - views `worktype`, `division`, `salesperson`: the same jobs summed by the job's work type (its
//   first), division or salesperson: jobs, work orders completed and value.
//
// One query: the scoped jobs joined to one GROUP BY over the work orders completed in the range
// (grouped again by the view's key for the other views). Total rows sum the rows kept.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { groupColumns } from './group-by.ts';
import { CUSTOMER_NAME, JOB_VALUE_CENTS, jobScope, startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { GroupKey } from './run-query.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

const VIEWS = ['job', 'worktype', 'division', 'salesperson'] as const;
const VIEW_KEY: Record<string, GroupKey> = { worktype: 'work_type', division: 'division', salesperson: 'salesperson' };

export const completedWork: ReportDefinition = {
  key: 'completed-work',
  title: 'Completed work',
  section: 'Operations',
  description:
    'Work orders completed between start and end and the jobs they belong to, by job, work type, division or salesperson (view)',
  date_basis: 'all',
  views: VIEWS,
  uses: [
    'view',
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
    const view = p.view ?? 'job';
    // The work orders completed in the range; the scope's jobs are theirs (the cap counts those).
    const completed = () =>
      db
        .selectFrom('work_orders')
        .where('work_orders.firm_id', '=', firmId)
        .where('work_orders.is_hold', '=', 0)
        .where('work_orders.status', '=', 'completed')
        .where('work_orders.cancelled_at', 'is', null)
        .where('work_orders.completed_at', '>=', startOfDay(ctx, p.start))
        .where('work_orders.completed_at', '<', startOfDay(ctx, addDays(p.end, 1)));
    const scope = await jobScope(ctx, p, {
      ranged: false,
      narrow: (qb) => qb.where('jobs.id', 'in', completed().select('work_orders.job_id')),
    });
    const done = completed()
      .select([
        'work_orders.job_id',
        sql<number>`count(*)`.as('work_orders'),
        sql<string>`max(work_orders.completed_at)`.as('last_completed'),
        sql<number>`count(work_orders.completed_qty)`.as('with_qty'),
        sql<number>`sum(work_orders.completed_qty)`.as('qty'),
        sql<string | null>`min(work_orders.completed_unit)`.as('unit_min'),
        sql<string | null>`max(work_orders.completed_unit)`.as('unit_max'),
        sql<number>`count(work_orders.completed_unit)`.as('with_unit'),
      ])
      .groupBy('work_orders.job_id')
      .as('done');
    const jobs = () => scope.jobs().innerJoin(done, 'done.job_id', 'jobs.id');
    const tz = ctx.auth.firm.timezone;
    let table: FullTable;
    if (view === 'job') {
      const rows = await jobs()
        .select([
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          'done.work_orders',
          'done.last_completed',
          'done.with_qty',
          'done.qty',
          'done.unit_min',
          'done.unit_max',
          'done.with_unit',
          JOB_VALUE_CENTS.as('value_cents'),
        ])
        .orderBy('done.last_completed', 'desc')
        .orderBy('jobs.id', 'desc')
        .execute();
      table = {
        key: 'jobs',
        title: 'Jobs with work completed',
        columns: [
          { key: 'job_number', label: 'Job #', kind: 'int' },
          { key: 'job_name', label: 'Job', kind: 'text' },
          { key: 'customer', label: 'Customer', kind: 'text' },
          { key: 'work_orders', label: 'Work orders completed', kind: 'int' },
          { key: 'last_completed', label: 'Last completed', kind: 'date' },
          { key: 'completed_quantity', label: 'Completed quantity', kind: 'number' },
          { key: 'completed_unit', label: 'Unit', kind: 'text' },
          { key: 'value', label: 'Job value', kind: 'money' },
        ],
        rows: rows.map((j) => {
          const n = Number(j.work_orders);
          const oneUnit =
            Number(j.with_qty) === n && Number(j.with_unit) === n && j.unit_min !== null && j.unit_min === j.unit_max;
          return {
            job_id: Number(j.id),
            job_number: Number(j.job_number),
            job_name: String(j.name),
            customer: String(j.customer),
            work_orders: n,
            last_completed: storedToLocal(String(j.last_completed), tz).date,
            completed_quantity: oneUnit ? Math.round(Number(j.qty) * 10_000) / 10_000 : null,
            completed_unit: oneUnit ? String(j.unit_min) : null,
            value: centsToDollars(Number(j.value_cents)),
          };
        }),
        total: (rows) => ({
          job_number: null,
          job_name: 'Total',
          work_orders: countOf(rows, 'work_orders'),
          value: sumMoney(rows, 'value'),
        }),
        note: scope.note,
      };
    } else {
      const [group] = await groupColumns(ctx, scope, [VIEW_KEY[view]!]);
      const expr = group!.expr as RawBuilder<string>;
      // By position: PostgreSQL would not see the select list's and the GROUP BY's copies of an
      // expression with parameters as one.
      const rows = await jobs()
        .select([
          expr.as('name'),
          sql<number>`count(*)`.as('jobs'),
          sql<number>`sum(done.work_orders)`.as('work_orders'),
          sql<number>`sum(${JOB_VALUE_CENTS})`.as('value_cents'),
        ])
        .groupBy(sql.raw('1'))
        .orderBy(sql.raw('1'))
        .execute();
      table = {
        key: view,
        title: `Completed work by ${group!.label.toLowerCase()}`,
        columns: [
          { key: group!.key, label: group!.label, kind: 'text' },
          { key: 'jobs', label: 'Jobs', kind: 'int' },
          { key: 'work_orders', label: 'Work orders completed', kind: 'int' },
          { key: 'value', label: 'Job value', kind: 'money' },
        ],
        rows: rows.map((r) => ({
          [group!.key]: String(r.name),
          jobs: Number(r.jobs),
          work_orders: Number(r.work_orders),
          value: centsToDollars(Number(r.value_cents)),
        })),
        total: (rows) => ({
          [group!.key]: 'Total',
          jobs: countOf(rows, 'jobs'),
          work_orders: countOf(rows, 'work_orders'),
          value: sumMoney(rows, 'value'),
        }),
        note: scope.note,
      };
    }
    const all = table.total!(table.rows) as Row;
    const jobCount = view === 'job' ? table.rows.length : Number(all.jobs);
    return {
      summary: [
        { label: 'Work orders completed', value: String(all.work_orders) },
        { label: 'Jobs', value: String(jobCount) },
        { label: 'Job value', value: formatCents(Math.round(Number(all.value) * 100)) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
