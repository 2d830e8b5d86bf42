// The estimate-totals report (docs/reports.md, "Estimate totals"): what was estimated from start
// to end and at what margin. The workspace's estimates (not change orders, not archived) created
// from start to end (the estimate's created_at, local dates: date basis `created`) on the jobs the
// user may see that pass the job filters; estimator_ids is the estimate's own creator.
//
// Per group (default by estimator: the estimate's creator, "(no estimator)" when none): estimates,
// price (price_cents: the estimate's total as priced, tax included), cost (cost_cents), margin
// (margin_cents, as pricing worked it) and margin % = margin / price (null when price is 0). An
// estimate not priced yet counts with no price, cost or margin. The other group keys are the
// job's (work type, salesperson, customer …); month, quarter and year are the estimate's creation
// date, local to the workspace. The estimates table lists them, newest first.
//
// The report's scope is the job scope (every filter and visibility, not ranged, its cap over the
// jobs with an estimate in range) joined to the estimates in range, with the estimate's created_at
// as the basis group-by.ts's time buckets read: one GROUP BY for the groups, whose sums are the
// totals (the summary's, and the estimate list's when no q narrows it), and a page of the list (a
// list table, run-result.ts) picked and cut before its estimates are joined to their jobs. When the
// cap cut the jobs, every query reads the capped jobs first and then their estimates, so a large
// workspace's report reads 20,000 jobs' estimates, not all of them.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { groupColumns, groupedJobRows, groupTableColumns, summedMeasures } from './group-by.ts';
import { type JobScope, type JobsQuery, jobScope, startOfDay } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, ListTable, Row } from './run-result.ts';
import { groupValues, JOB_FILTERS, totalKeys } from './sales-measures.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';

const MEASURES = {
  estimates: sql<number>`count(*)`,
  price_cents: sql<number>`sum(coalesce(est.price_cents, 0))`,
  cost_cents: sql<number>`sum(coalesce(est.cost_cents, 0))`,
  margin_cents: sql<number>`sum(coalesce(est.margin_cents, 0))`,
};

/** The estimate's own columns its row in the list shows. */
const LISTED = [
  'est.id',
  'est.doc_number',
  'est.name',
  'est.status',
  'est.price_cents',
  'est.cost_cents',
  'est.margin_cents',
  'est.created_at',
] as const;

function measuresRow(estimates: number, price: number, cost: number, margin: number): Row {
  return {
    estimates,
    price: centsToDollars(price),
    cost: centsToDollars(cost),
    margin: centsToDollars(margin),
    margin_pct: ratio(margin, price),
  };
}

const aggregated = (m: Record<string, unknown> | undefined) =>
  measuresRow(
    Number(m?.estimates ?? 0),
    Number(m?.price_cents ?? 0),
    Number(m?.cost_cents ?? 0),
    Number(m?.margin_cents ?? 0),
  );

export const estimateTotals: ReportDefinition = {
  key: 'estimate-totals',
  title: 'Estimate totals',
  section: 'Estimating',
  description:
    'Estimates created between start and end, by estimator (or any group_by): how many, their price, cost, margin and margin %',
  date_basis: 'created',
  uses: [...JOB_FILTERS, 'group_by'],
  async run(ctx: ServiceContext, p) {
    const from = startOfDay(ctx, p.start);
    const to = startOfDay(ctx, addDays(p.end, 1));
    // The estimates counted (as `est`): the workspace's, not change orders, not archived, made in the range.
    const counted = <QB extends JobsQuery>(qb: QB): QB =>
      qb
        .where(sql.ref('est.firm_id'), '=', ctx.auth.firm.id)
        .where(sql.ref('est.is_change_order'), '=', 0)
        .where(sql.ref('est.archived_at'), 'is', null)
        .where(sql.ref('est.created_at'), '>=', from)
        .where(sql.ref('est.created_at'), '<', to) as QB;
    // The cap counts the jobs with such an estimate, not the workspace's jobs.
    const withEstimate = counted(ctx.database.db.selectFrom('estimates as est') as JobsQuery).select('est.job_id');
    const jobs = await jobScope(
      ctx,
      { ...p, estimatorIds: null },
      { ranged: false, capOver: (qb) => qb.where('jobs.id', 'in', withEstimate) },
    );
    // The estimates counted, with only the columns the report reads.
    const countedRows = () => {
      let rows = counted(ctx.database.db.selectFrom('estimates as est') as JobsQuery).select([
        ...LISTED,
        'est.job_id',
        'est.created_by_user_id',
      ]);
      if (p.estimatorIds) rows = rows.where(sql.ref('est.created_by_user_id'), 'in', p.estimatorIds);
      return rows;
    };
    // Those estimates (or `rows` of them) on their scoped jobs. When the cap kept only the latest
    // 20,000 jobs, those are read first (a range of the jobs' index on the basis) and their
    // estimates found by job: the report then reads 20,000 estimates however many the workspace
    // has. Otherwise each estimate is read first and joined to its job (job-scope.ts, JobRows):
    // walking every job of the workspace to find the few with an estimate in range cost more.
    const onJobs = (rows = countedRows()): JobsQuery =>
      jobs.truncated
        ? jobs.jobs().innerJoin(rows.as('est'), 'est.job_id', 'jobs.id')
        : jobs.jobs({ rows: rows.as('est'), jobId: 'est.job_id' });
    // With their creator.
    const estimates = (rows = countedRows()): JobsQuery =>
      onJobs(rows).leftJoin('users as est_creator', 'est_creator.id', 'est.created_by_user_id') as JobsQuery;
    const scope: JobScope = {
      jobs: () => estimates(),
      basis: sql<string>`est.created_at`,
      basisKey: 'created',
      truncated: jobs.truncated,
      cutoff: jobs.cutoff,
      note: jobs.note,
    };
    const groups = (await groupColumns(ctx, scope, p.groupBy.length > 0 ? p.groupBy : ['estimator'])).map((g) =>
      g.key === 'estimator' ? { ...g, expr: sql<string>`coalesce(nullif(est_creator.name, ''), '(no estimator)')` } : g,
    );
    const grouped = await groupedJobRows(scope, groups, MEASURES);
    const all = summedMeasures(grouped, MEASURES);
    const tz = ctx.auth.firm.timezone;
    const money = (key: string, label: string) => ({ key, label, kind: 'money' as const });
    const totalOf = (rows: Row[]) =>
      measuresRow(
        countOf(rows, 'estimates'),
        Math.round(sumMoney(rows, 'price') * 100),
        Math.round(sumMoney(rows, 'cost') * 100),
        Math.round(sumMoney(rows, 'margin') * 100),
      );
    const groupTable: FullTable = {
      key: 'groups',
      title: `Estimates by ${groups.map((g) => g.label.toLowerCase()).join(', ')}`,
      columns: [
        ...groupTableColumns(groups),
        { key: 'estimates', label: 'Estimates', kind: 'int' },
        money('price', 'Price'),
        money('cost', 'Cost'),
        money('margin', 'Margin'),
        { key: 'margin_pct', label: 'Margin %', kind: 'pct' },
      ],
      rows: grouped.map((g) => ({ ...groupValues(groups, g), ...aggregated(g) })),
      total: (rows) => ({ ...totalKeys(groups), ...totalOf(rows) }),
      note:
        scope.note ?? 'Change orders and archived estimates are left out; an unpriced estimate counts with no price',
    };
    const estimator = sql<string>`coalesce(est_creator.name, '')`;
    // The estimates as the list shows them, newest first.
    const listed = (qb: JobsQuery) =>
      qb
        .select([...LISTED, 'jobs.id as job_id', 'jobs.name as job_name', estimator.as('estimator')])
        .orderBy('est.created_at', 'desc')
        .orderBy('est.id', 'desc');
    const estimateTable: ListTable = {
      key: 'estimates',
      title: 'Estimates',
      columns: [
        { key: 'doc_number', label: 'Estimate #', kind: 'int' },
        { key: 'estimate_name', label: 'Estimate', kind: 'text' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'estimator', label: 'Estimator', kind: 'text' },
        { key: 'status', label: 'Status', kind: 'text' },
        money('price', 'Price'),
        money('cost', 'Cost'),
        money('margin', 'Margin'),
        { key: 'margin_pct', label: 'Margin %', kind: 'pct' },
        { key: 'created', label: 'Created', kind: 'date' },
      ],
      query: listed(estimates()),
      // The page's estimates picked, newest first, and cut: then only those are joined to their jobs
      // and creators. Uncapped, they are picked from the estimates alone with the scope as a list of
      // job ids (a walk of an index of the jobs); joining all 100,000 to their jobs first, or sorting
      // them all to join in order, cost more than the groups. Capped, from the capped jobs' estimates.
      page: (limit) =>
        listed(
          estimates(
            (jobs.truncated
              ? onJobs().select([...LISTED, 'est.job_id', 'est.created_by_user_id'])
              : countedRows().where(sql.ref('est.job_id'), 'in', jobs.jobs().select('jobs.id'))
            )
              .orderBy(sql.ref('est.created_at'), 'desc')
              .orderBy(sql.ref('est.id'), 'desc')
              .limit(limit),
          ),
        ).execute(),
      row: (e) => {
        const price = e.price_cents === null ? null : Number(e.price_cents);
        const margin = e.margin_cents === null ? null : Number(e.margin_cents);
        return {
          job_id: Number(e.job_id),
          doc_number: e.doc_number === null ? null : Number(e.doc_number),
          estimate_name: String(e.name),
          job_name: String(e.job_name),
          estimator: String(e.estimator),
          status: String(e.status),
          price: centsToDollars(price),
          cost: centsToDollars(e.cost_cents === null ? null : Number(e.cost_cents)),
          margin: centsToDollars(margin),
          margin_pct: price === null || margin === null ? null : ratio(margin, price),
          created: storedToLocal(String(e.created_at), tz).date,
        };
      },
      text: { estimate_name: sql`est.name`, job_name: sql`jobs.name`, estimator, status: sql`est.status` },
      total: {
        sums: {
          price_cents: MEASURES.price_cents,
          cost_cents: MEASURES.cost_cents,
          margin_cents: MEASURES.margin_cents,
        },
        // The count aggregated() adds is no column of this table: the shaped total leaves it out.
        row: (t) => ({ doc_number: null, estimate_name: 'Total', ...aggregated(t) }),
      },
      // The groups' total is every estimate's: the table's count and sums when no q narrows it.
      whole: { ...all, rows_total: all.estimates },
      note: scope.note,
    };
    const totals = aggregated(all);
    return {
      summary: [
        { label: 'Estimates', value: String(totals.estimates) },
        { label: 'Price', value: formatCents(all.price_cents!) },
        { label: 'Cost', value: formatCents(all.cost_cents!) },
        { label: 'Margin', value: formatCents(all.margin_cents!) },
        { label: 'Margin %', value: formatPct(totals.margin_pct as number | null) },
      ],
      tables: [groupTable, estimateTable],
      truncated: scope.truncated,
    };
  },
};
