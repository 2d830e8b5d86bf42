// The jobs a job report counts (docs/reports.md, "Job reports"): the workspace's jobs the key's
// user may see, whose date on the report's basis falls from start to end in the workspace's time
// zone, narrowed by every filter the request names. Each report builds its queries on this one
// scope, so a filter, the visibility rule and the 20,000-job cap (document 1, Limits) mean the
// same in every report.
//
// The scope joins what the filters and group keys read: the job's stage (outcome, status label),
// customer, estimate (its creator is the estimator) and the two users. Every join is on a unique
// key, so it costs one index probe per job the range keeps, and a query that reads none of a
// join's columns goes without it (unread-joins.ts).
import { type AliasedSelectQueryBuilder, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { addDays } from '#platform/time.ts';
import { localToStored } from '#platform/time-zone.ts';
import { visibleTo } from '#crm/index.ts';
import type { DateBasis, RunParams } from './run-query.ts';
import { DropUnreadJoins } from './unread-joins.ts';

/** The scope's LEFT JOINs a query may not read, left out of those that do not (unread-joins.ts). */
const UNREAD_JOINS = new DropUnreadJoins(['stage', 'client_accounts', 'job_estimate', 'salesperson', 'estimator']);

/** Report queries count at most this many jobs (document 1, Limits: "truncate above 20,000 jobs"). */
export const JOB_CAP = 20_000;

// The scope joins aliased tables (stage, job_estimate, salesperson, estimator) that Kysely's DB type
// does not name, so reports select from it by column text.
// biome-ignore lint/suspicious/noExplicitAny: the aliased joins are not in DB's table names
export type JobsQuery = SelectQueryBuilder<DB, any, {}>;

/** The stored instant each date basis reads. */
const BASIS_COLUMN: Record<DateBasis, string> = {
  created: 'jobs.created_at',
  bid: 'jobs.bid_at',
  decided: 'jobs.decided_at',
};

export const BASIS_LABEL: Record<DateBasis, string> = {
  created: 'created',
  bid: 'bid (first proposal sent)',
  decided: 'decided (won, lost or excluded)',
};

/**
 * A job's value in the reports: its estimate's total (the price the customer was quoted, tax
 * included), else the estimated value typed on the job, else nothing.
 */
export const JOB_VALUE_CENTS = sql<number>`coalesce(jobs.estimate_total_cents, jobs.estimated_value_cents, 0)`;

/** The customer a job row names: its client account, else the company typed on the job. */
export const CUSTOMER_NAME = sql<string>`coalesce(client_accounts.name, jobs.company, '(no customer)')`;

/**
 * The cells a job row starts with, from a row that selected jobs.id, jobs.job_number, jobs.name and
 * CUSTOMER_NAME as customer.
 */
export const jobCells = (j: Record<string, unknown>) => ({
  job_id: Number(j.id),
  job_number: Number(j.job_number),
  job_name: String(j.name),
  customer: String(j.customer),
});

/**
 * A report's own rows of jobs (its work orders completed in the range, grouped by job), read first
 * and each joined to its job. SQLite otherwise walks every job of the workspace and looks each up
 * in the rows (100,000 jobs to find 25,000); and rows that come ordered as the report's page is
 * are joined in that order, so the page stops at its last row rather than sorting them all.
 */
export interface JobRows {
  // biome-ignore lint/suspicious/noExplicitAny: a report's derived table, as JobsQuery
  rows: AliasedSelectQueryBuilder<any, string>;
  /** Its column holding the job's id, qualified ("done.job_id"). */
  jobId: string;
}

/** The ids of some of the workspace's jobs, for a report's rows to keep only theirs (`summed`). */
export type JobIds = SelectQueryBuilder<DB, 'jobs', { id: number }>;

/** The last job the cap keeps: its basis instant (null: it has none) and id. */
export interface Cutoff {
  at: string | null;
  id: number;
}

export interface JobScope {
  /** A fresh query over the scoped jobs (each report query starts from one), or over `from`'s rows. */
  jobs(from?: JobRows): JobsQuery;
  /** The basis instant (created_at, bid_at or decided_at) of a scoped job. */
  basis: RawBuilder<string>;
  basisKey: DateBasis;
  /** Whether more than JOB_CAP jobs matched and only the latest JOB_CAP by basis are counted. */
  truncated: boolean;
  /** The last job counted when truncated, else null. */
  cutoff: Cutoff | null;
  /** What the cap left out, for a table's note; null when nothing was. */
  note: string | null;
  /**
   * With the `summed` option: the count of the jobs counted (`rows_total`) and each of its values
   * summed over them (null when no job is), taken in the cap's own pass.
   */
  sums?: Record<string, number | string | null> | null;
}

/** The instant local midnight of `date` starts in the workspace's zone. */
export const startOfDay = (ctx: ServiceContext, date: string) => localToStored(date, '00:00', ctx.auth.firm.timezone);

export interface ScopeOptions {
  basis?: DateBasis;
  ranged?: boolean;
  capped?: boolean;
  narrow?: (qb: JobsQuery) => JobsQuery;
  capOver?: (qb: JobsQuery) => JobsQuery;
  summed?: { rows: (ofJobs?: JobIds) => JobRows; values: Record<string, RawBuilder<unknown>> };
}

/** The scope's query before the cap (`forCap`: with capOver's condition), and its basis. */
function scopeQuery(ctx: ServiceContext, p: RunParams, options: ScopeOptions) {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const basisKey = options.basis ?? p.dateBasis ?? 'created';
  const basis = sql<string>`${sql.ref(BASIS_COLUMN[basisKey])}`;
  const base = (forCap = false, from?: JobRows): JobsQuery => {
    // A cross join is an inner join whose order SQLite keeps: the rows first, then their jobs.
    let qb = (from
      ? db.selectFrom(from.rows).crossJoin('jobs').whereRef('jobs.id', '=', from.jobId)
      : db.selectFrom('jobs')
    )
      // A LEFT JOIN that matches exactly one stage: a job's status is always one of its workspace's
      // stage keys (crm/jobs/fields.ts refuses any other; stages are never deleted), unique per
      // workspace. So a query that reads no stage column goes without it: PostgreSQL planned the
      // cap's inner join to the stages as a probe of every job per stage.
      .leftJoin('job_stages as stage', (j) =>
        j.onRef('stage.firm_id', '=', 'jobs.firm_id').onRef('stage.key', '=', 'jobs.status'),
      )
      .leftJoin('client_accounts', 'client_accounts.id', 'jobs.client_account_id')
      .leftJoin('estimates as job_estimate', 'job_estimate.id', 'jobs.estimate_id')
      .leftJoin('users as salesperson', 'salesperson.id', 'jobs.assigned_to_user_id')
      .leftJoin('users as estimator', 'estimator.id', 'job_estimate.created_by_user_id')
      .where('jobs.firm_id', '=', firmId) as unknown as JobsQuery;
    if (options.ranged !== false)
      qb = qb.where(basis, '>=', startOfDay(ctx, p.start)).where(basis, '<', startOfDay(ctx, addDays(p.end, 1)));
    if (p.customerIds) qb = qb.where('jobs.client_account_id', 'in', p.customerIds);
    if (p.salespersonIds) qb = qb.where('jobs.assigned_to_user_id', 'in', p.salespersonIds);
    if (p.estimatorIds) qb = qb.where(sql.ref('job_estimate.created_by_user_id'), 'in', p.estimatorIds);
    if (p.divisionKeys) qb = qb.where('jobs.operations_division', 'in', p.divisionKeys);
    if (p.statuses) qb = qb.where('jobs.status', 'in', p.statuses);
    if (p.outcomes) qb = qb.where(sql.ref('stage.type'), 'in', p.outcomes);
    if (p.workTypes) {
      // job_type is the canonical types joined by ", " (crm/jobs/fields.ts normalizeJobTypes).
      const types = p.workTypes;
      qb = qb.where((eb) =>
        eb.or(
          types.map((t) => sql<boolean>`', ' || jobs.job_type || ', ' like ${`%, ${likeEscaped(t)}, %`} escape '!'`),
        ),
      );
    }
    if (options.narrow) qb = options.narrow(qb);
    if (forCap && options.capOver) qb = options.capOver(qb);
    return (visibleTo(qb, ctx.auth.user) as JobsQuery).withPlugin(UNREAD_JOINS);
  };
  return { basis, basisKey, base };
}

/**
 * The scope's jobs as jobScope's jobs() reads them, before the cap is known: for a query a report
 * runs beside the cap's pass and checks against the cutoff afterwards (keptByCap).
 */
export const jobsBeforeCap = (ctx: ServiceContext, p: RunParams, options: ScopeOptions) => {
  const { base, basis } = scopeQuery(ctx, p, options);
  return { jobs: (from?: JobRows) => base(false, from), basis };
};

/**
 * Whether the cap keeps a job whose basis instant is `at` (null: none): jobs() in JavaScript, for
 * rows read before the cutoff was known. Stored instants compare as text, as in SQL.
 */
export function keptByCap(cutoff: Cutoff | null, at: string | null, id: number): boolean {
  if (cutoff === null) return true;
  if (cutoff.at === null) return at !== null || id >= cutoff.id;
  return at !== null && (at > cutoff.at || (at === cutoff.at && id >= cutoff.id));
}

/**
 * The scope for `p`: the jobs on `basis` (the request's date_basis, else the report's) dated from
 * start to end, with the request's filters. `ranged: false` skips the date range (a report that
 * dates its own rows, as cash forecast does, still counts only the filtered jobs). `capped: false`
 * skips the cap: the period reports date their own records (invoices, hours, work days) and use the
 * scope only to filter them, so their rows are bounded by the period, and an invoice of the week
 * is not dropped because its job is older than the workspace's 20,000 latest. `narrow` adds the
 * report's own condition on a job (work completed in the range, a bid due in it) before the cap, so
 * a report that lists jobs by dates of its own caps the jobs it lists, not the workspace's oldest.
 * `capOver` is such a condition for a report whose queries keep only those jobs by a join of their
 * own (the work orders completed, the estimates made in the range): the cap counts by it, and the
 * scope's jobs() leave it out rather than have the database filter the same rows twice.
 * `summed` is a report's own rows (one per job; given job ids, only theirs) and values of a row to
 * sum over the jobs counted: the cap is then found in the pass that sums them (by day of basis,
 * then the cutoff's day alone), so a report whose figures are those sums reads its rows once, not
 * once for the cap and again for the sums. The rows alone keep the jobs, so `capOver` is not
 * needed with it.
 */
export async function jobScope(ctx: ServiceContext, p: RunParams, options: ScopeOptions = {}): Promise<JobScope> {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const { basis, basisKey, base } = scopeQuery(ctx, p, options);
  // Newest first by basis, a job without one last on both engines (PostgreSQL puts nulls first
  // when descending). Only an unranged scope on a basis a job may lack (bid, decided) can hold
  // such a job: the others keep the plain order, which PostgreSQL reads backwards off the basis
  // index without sorting (with NULLS LAST, estimate-totals' cutoff took 2.3 times as long).
  const newestFirst =
    options.ranged === false && basisKey !== 'created' ? sql`${basis} desc nulls last` : sql`${basis} desc`;

  // One query finds the 20,000th and 20,001st by basis: fewer than two rows back means nothing is
  // left out. (Asking first, without an order, whether there is a 20,001st cost a second pass over
  // the jobs whenever there was: 20–35 ms of a 100-ms report at 100,000 jobs; the sort it saved in
  // a smaller workspace is of fewer than 20,000 jobs, the rows the report reads anyway.)
  const cutoffRow = async () => {
    const [cutoff, beyond] = await base(true)
      .select([basis.as('at'), 'jobs.id'])
      .orderBy(newestFirst)
      .orderBy('jobs.id', 'desc')
      .limit(2)
      .offset(JOB_CAP - 1)
      .execute();
    return cutoff && beyond ? { at: cutoff.at === null ? null : String(cutoff.at), id: Number(cutoff.id) } : null;
  };
  // The rows numbered newest first by basis (a job without one last, as in cutoffRow), and the
  // values summed over the first `keep`; the row numbered `keep` is the cutoff when there is one.
  const numberedSums = async (rows: JobsQuery, values: Record<string, RawBuilder<unknown>>, keep: number) => {
    const numbered = rows.select([
      basis.as('at'),
      'jobs.id',
      sql<number>`row_number() over (order by ${newestFirst}, jobs.id desc)`.as('n'),
      ...Object.entries(values).map(([key, value]) => value.as(key)),
    ]);
    const kept = sql`numbered.n <= ${keep}`;
    const row = await db
      .selectFrom(numbered.as('numbered'))
      .select([
        sql<number>`count(*)`.as('matched'),
        sql<string | null>`max(case when numbered.n = ${keep} then numbered.at end)`.as('cut_at'),
        sql<number | null>`max(case when numbered.n = ${keep} then numbered.id end)`.as('cut_id'),
        sql<number>`count(case when ${kept} then 1 end)`.as('rows_total'),
        ...Object.keys(values).map((key) => sql`sum(case when ${kept} then ${sql.ref(`numbered.${key}`)} end)`.as(key)),
      ])
      .executeTakeFirstOrThrow();
    const { matched, cut_at, cut_id, ...sums } = row as Record<string, number | string | null>;
    return {
      matched: Number(matched),
      cut: cut_id === null ? null : { at: cut_at === null ? null : String(cut_at), id: Number(cut_id) },
      sums,
    };
  };
  // The cap and the sums without sorting every row (a sort of 25,000 jobs by basis was a third of
  // completed-work's time at 100,000 jobs): one pass counts and sums the rows by the day of their
  // basis (a hash aggregate, ordered by prefix as the basis is), the days newest first are summed
  // whole up to the one holding the JOB_CAP-th row, and only that day's rows (a few dozen, read
  // through its jobs' ids) are numbered to find the cutoff and sum those before it.
  const cappedSums = async (summed: NonNullable<typeof options.summed>) => {
    const day = sql<string | null>`substr(${basis}, 1, 10)`;
    const keys = Object.keys(summed.values);
    const days = (await base(false, summed.rows())
      .select([
        day.as('day'),
        sql<number>`count(*)`.as('rows'),
        ...Object.entries(summed.values).map(([key, value]) => sql`sum(${value})`.as(key)),
      ])
      .groupBy(day)
      .execute()) as Record<string, number | string | null>[];
    // Newest first, a job without a basis date last.
    days.sort((a, b) => (a.day === b.day ? 0 : a.day === null ? 1 : b.day === null ? -1 : a.day < b.day ? 1 : -1));
    const totalOf = (rows: Record<string, number | string | null>[], counted: number) =>
      Object.fromEntries([
        ['rows_total', counted],
        ...keys.map((key) => [key, counted === 0 ? null : rows.reduce((sum, r) => sum + Number(r[key] ?? 0), 0)]),
      ]) as Record<string, number | null>;
    const matched = days.reduce((n, d) => n + Number(d.rows), 0);
    if (matched <= JOB_CAP) return { cutoff: null, sums: totalOf(days, matched) };
    let taken = 0;
    let whole = 0;
    while (taken + Number(days[whole]!.rows) < JOB_CAP) taken += Number(days[whole++]!.rows);
    const cutDay = days[whole]!.day === null ? null : String(days[whole]!.day);
    const ofDay = db
      .selectFrom('jobs')
      .select('jobs.id')
      .where('jobs.firm_id', '=', firmId)
      .where((eb) =>
        cutDay === null ? eb(basis, 'is', null) : eb.and([eb(basis, '>=', cutDay), eb(basis, '<', addDays(cutDay, 1))]),
      );
    const inDay = await numberedSums(base(false, summed.rows(ofDay)), summed.values, JOB_CAP - taken);
    if (inDay.cut) {
      const sums = totalOf([...days.slice(0, whole), inDay.sums], JOB_CAP);
      return { cutoff: inDay.cut, sums };
    }
    // The day lost rows between the two reads (a job deleted meanwhile): number every row instead.
    const all = await numberedSums(base(false, summed.rows()), summed.values, JOB_CAP);
    return { cutoff: all.matched > JOB_CAP ? all.cut : null, sums: all.sums };
  };
  // The sums without a cap: over every row.
  const sumsOf = async (summed: typeof options.summed) => {
    if (!summed) return null;
    return (await base(false, summed.rows())
      .select([
        sql<number>`count(*)`.as('rows_total'),
        ...Object.entries(summed.values).map(([key, value]) => sql`sum(${value})`.as(key)),
      ])
      .executeTakeFirstOrThrow()) as Record<string, number | string | null>;
  };

  const jobs = (from?: JobRows) => base(false, from);
  if (options.capped === false)
    return { jobs, basis, basisKey, truncated: false, cutoff: null, note: null, sums: await sumsOf(options.summed) };
  // The cap: when more than JOB_CAP jobs match, the JOB_CAP latest by basis (then id) are counted.
  const { cutoff, sums } = options.summed
    ? await cappedSums(options.summed)
    : { cutoff: await cutoffRow(), sums: null };
  if (!cutoff) return { jobs, basis, basisKey, truncated: false, cutoff: null, note: null, sums };
  const { at, id } = cutoff;
  // Stated as a range on the basis (which an index of the jobs answers: the latest JOB_CAP are a
  // fifth of 100,000) and the tie at the cutoff: an OR of the two alone was read by no index. A
  // cutoff among the jobs without a basis date keeps every dated job and those of them from its id.
  const kept = (qb: JobsQuery): JobsQuery =>
    at === null
      ? qb.where((eb) => eb.or([eb(basis, 'is not', null), eb('jobs.id', '>=', id)]))
      : qb.where(basis, '>=', at).where((eb) => eb.or([eb(basis, '>', at), eb('jobs.id', '>=', id)]));
  return {
    jobs: (from?: JobRows) => kept(base(false, from)),
    basis,
    basisKey,
    truncated: true,
    cutoff,
    sums,
    note: `More than ${JOB_CAP.toLocaleString('en-US')} jobs matched: only the ${JOB_CAP.toLocaleString('en-US')} latest by ${BASIS_LABEL[basisKey]} date are counted`,
  };
}

/** A job type as `like` pattern text, its %, _ and ! escaped with ! so each matches only itself. */
const likeEscaped = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);
