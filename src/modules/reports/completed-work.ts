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
// The scoped jobs joined to one GROUP BY over the work orders completed in the range. The job view
// is a list table (run-result.ts: a page of rows in SQL, so thousands of jobs are never all read to
// show a page) whose count and sums, summed in the cap's pass, are also the summary's; the other
// views group the same join again by the view's key, and their total rows sum the rows kept.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { groupColumns } from './group-by.ts';
import {
  CUSTOMER_NAME,
  JOB_VALUE_CENTS,
  type JobIds,
  type JobsQuery,
  jobCells,
  jobScope,
  jobsBeforeCap,
  keptByCap,
  type ScopeOptions,
  startOfDay,
} from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { GroupKey } from './run-query.ts';
import type { FullTable, ListTable, ReportTable } from './run-result.ts';
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
    // `ofJobs`: of those jobs only, looked up by job. Their workspace test is then kept off the
    // (firm, is_hold, date) index (`+ 0`): SQLite, without statistics, read every work order of the
    // workspace through it rather than each job's few.
    const completed = (ofJobs?: JobIds) =>
      (ofJobs
        ? db
            .selectFrom('work_orders')
            .where('work_orders.job_id', 'in', ofJobs)
            .where(sql`work_orders.firm_id + 0`, '=', firmId)
        : db.selectFrom('work_orders').where('work_orders.firm_id', '=', firmId)
      )
        .where('work_orders.is_hold', '=', 0)
        .where('work_orders.status', '=', 'completed')
        .where('work_orders.cancelled_at', 'is', null)
        .where('work_orders.completed_at', '>=', startOfDay(ctx, p.start))
        .where('work_orders.completed_at', '<', startOfDay(ctx, addDays(p.end, 1)));
    // Each job's work orders completed in the range; `ordered`, as the job view lists them (latest
    // completion first), so its page joins the first rows' jobs and stops (job-scope.ts, JobRows);
    // `ofJobs`, those of some jobs only (the cap reads one day's jobs: job-scope.ts, `summed`).
    const doneRows = (ordered: boolean, ofJobs?: JobIds) => {
      const rows = completed(ofJobs)
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
        .groupBy('work_orders.job_id');
      return ordered
        ? rows.orderBy(sql`max(work_orders.completed_at)`, 'desc').orderBy('work_orders.job_id', 'desc')
        : rows;
    };
    const done = (ordered = false, ofJobs?: JobIds) => ({
      rows: doneRows(ordered, ofJobs).as('done'),
      jobId: 'done.job_id',
    });
    // A quantity only when every work order counted has one in the same unit (adding SF to tons is
    // no total): the unit as SQL too, so q finds a row by it.
    const oneUnit = sql<boolean>`(done.with_qty = done.work_orders and done.with_unit = done.work_orders
        and done.unit_min = done.unit_max)`;
    const unit = sql<string | null>`(case when ${oneUnit} then done.unit_min end)`;
    // The job view's rows, latest completion first.
    const listed = (jobs: JobsQuery) =>
      jobs
        .select([
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          'done.work_orders',
          'done.last_completed',
          sql<number | null>`(case when ${oneUnit} then done.qty end)`.as('qty'),
          unit.as('unit'),
          JOB_VALUE_CENTS.as('value_cents'),
        ])
        .orderBy('done.last_completed', 'desc')
        .orderBy('done.job_id', 'desc');
    // The job view's figures are sums over the jobs with completed work: taken in the cap's own
    // pass over those jobs (job-scope.ts, `summed`). The other views group the jobs the cap keeps.
    const options: ScopeOptions =
      view === 'job'
        ? {
            ranged: false,
            summed: {
              rows: (ofJobs) => done(false, ofJobs),
              values: { work_orders: sql`done.work_orders`, value_cents: JOB_VALUE_CENTS },
            },
          }
        : { ranged: false, capOver: (qb) => qb.where('jobs.id', 'in', completed().select('work_orders.job_id')) };
    // The job view's first page, read beside the cap's pass rather than after it (on PostgreSQL the
    // two statements run at once, on two connections): before the cap, so with each job's basis.
    // When the cap leaves out none of its rows they are the capped list's first rows too (the cap
    // only removes rows); when it leaves out one, the page is read again with the cap.
    const uncapped = jobsBeforeCap(ctx, p, options);
    const early =
      view === 'job' && p.q === null
        ? listed(uncapped.jobs(done(true)))
            .select(uncapped.basis.as('cap_at'))
            .limit(p.rowsLimit)
            .execute()
        : null;
    // Awaited only when the table is shaped: a refusal before then must not leave it unhandled.
    early?.catch(() => undefined);
    const scope = await jobScope(ctx, p, options);
    const jobs = (ordered = false) => scope.jobs(done(ordered));
    const tz = ctx.auth.firm.timezone;
    let table: ReportTable;
    // The summary's figures, over every job with completed work (q narrows the table only).
    let all: { jobs: number; work_orders: number; value_cents: number };
    if (view === 'job') {
      // The table's sums over the rows q keeps. Without q they are the scope's, summed with the cap:
      // the summary's figures and the total row's.
      const sums = {
        work_orders: sql`coalesce(sum(done.work_orders), 0)`,
        value_cents: sql`coalesce(sum(${JOB_VALUE_CENTS}), 0)`,
      };
      const whole = {
        rows_total: Number(scope.sums!.rows_total),
        work_orders: Number(scope.sums!.work_orders ?? 0),
        value_cents: Number(scope.sums!.value_cents ?? 0),
      };
      const list: ListTable = {
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
        query: listed(jobs(true)),
        page: early
          ? async (limit) => {
              const rows = await early;
              if (rows.every((r) => keptByCap(scope.cutoff, r.cap_at, Number(r.id)))) return rows;
              return listed(jobs(true)).limit(limit).execute();
            }
          : undefined,
        row: (j) => ({
          ...jobCells(j),
          work_orders: Number(j.work_orders),
          last_completed: storedToLocal(String(j.last_completed), tz).date,
          completed_quantity: j.unit === null ? null : Math.round(Number(j.qty) * 10_000) / 10_000,
          completed_unit: j.unit === null ? null : String(j.unit),
          value: centsToDollars(Number(j.value_cents)),
        }),
        text: { job_name: sql`jobs.name`, customer: CUSTOMER_NAME, completed_unit: unit },
        total: {
          sums,
          row: (t) => ({
            job_number: null,
            job_name: 'Total',
            work_orders: Number(t.work_orders ?? 0),
            value: centsToDollars(Number(t.value_cents ?? 0)),
          }),
        },
        whole,
        note: scope.note,
      };
      table = list;
      all = {
        jobs: Number(whole.rows_total),
        work_orders: Number(whole.work_orders),
        value_cents: Number(whole.value_cents),
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
      const grouped: FullTable = {
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
      table = grouped;
      all = {
        jobs: countOf(grouped.rows, 'jobs'),
        work_orders: countOf(grouped.rows, 'work_orders'),
        value_cents: Math.round(sumMoney(grouped.rows, 'value') * 100),
      };
    }
    return {
      summary: [
        { label: 'Work orders completed', value: String(all.work_orders) },
        { label: 'Jobs', value: String(all.jobs) },
        { label: 'Job value', value: formatCents(all.value_cents) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
