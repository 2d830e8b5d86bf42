// The weekly summary (document 2, Owner reports: "weekly-summary"; docs/reports.md, "Weekly
// summary"): from start to end, one row per week (the workspace's week_start) the range overlaps,
// the first and last clipped to the range (their dates are shown), with the sales, billing and
// labor figures of each week.
//
// Each figure by its own date, local to the workspace's time zone: new jobs (created_at), bids sent
// and bid value (bid_at: the job's first proposal sent, at the job's value), jobs won and won value,
// jobs lost (decided_at, stage type won / lost), invoiced (issued_at, else created_at; not draft,
// void or uncollectible; amount with tax), collected (paid_at of paid invoices), hours worked
// (closed, not void time entries by their clock_in; real elapsed length). Job filters and job
// visibility narrow every figure through the job (period-scope.ts). At most 157 weeks (three years).
//
// Each measure is one GROUP BY over the week a record's instant falls in (bucket.ts; the weeks'
// local-midnight edges worked out here as stored instants): six queries in all, whatever the number
// of weeks.
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { weekStartOf } from '#engines/payroll/index.ts';
import { bucketOf } from './bucket.ts';
import { countedTime } from './counted-time.ts';
import { JOB_VALUE_CENTS, jobScope, startOfDay } from './job-scope.ts';
import { entryMs, hoursOfMs, ISSUED_AT, NOT_BILLED, onScopedJob, onScopedTime, within } from './period-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

/** The most weeks a run covers (three years and a partial week at each end). */
export const SUMMARY_WEEKS_MAX = 157;

const num = (v: unknown) => Number(v ?? 0);

interface Week {
  weekStart: string;
  start: string;
  end: string;
  /** The instant the (clipped) week ends: local midnight after its last day. */
  endsAt: string;
}

/** The weeks overlapping start..end, clipped to it. */
function weeksOf(ctx: ServiceContext, start: string, end: string): Week[] {
  const weeks: Week[] = [];
  for (let ws = weekStartOf(start, ctx.auth.settings.week_start); ws <= end; ws = addDays(ws, 7)) {
    const last = addDays(ws, 6) < end ? addDays(ws, 6) : end;
    weeks.push({ weekStart: ws, start: ws < start ? start : ws, end: last, endsAt: startOfDay(ctx, addDays(last, 1)) });
    if (weeks.length > SUMMARY_WEEKS_MAX)
      throw badRequest(`The weekly summary covers at most ${SUMMARY_WEEKS_MAX} weeks`, {
        code: 'invalid_request',
        field: 'start',
        message: `start ${start} to end ${end} spans more than ${SUMMARY_WEEKS_MAX} weeks; run it over a shorter range`,
      });
  }
  return weeks;
}

export const weeklySummary: ReportDefinition = {
  key: 'weekly-summary',
  title: 'Weekly summary',
  section: 'Overview',
  description:
    'Week by week from start to end: new jobs, bids sent, jobs won and lost, invoiced, collected and hours worked',
  date_basis: 'all',
  uses: ['salesperson_ids', 'customer_ids', 'division_ids', 'work_types'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const weeks = weeksOf(ctx, p.start, p.end);
    const first = startOfDay(ctx, p.start);
    const last = weeks[weeks.length - 1]!.endsAt;
    /** The week (its index) of an instant already known to fall from `first` to `last`. */
    const edges = weeks.slice(0, -1).map((w) => w.endsAt);
    const indexes = weeks.map((_, k) => k);
    const weekOf = (at: RawBuilder<unknown> | string) =>
      bucketOf(typeof at === 'string' ? sql.ref(at) : at, edges, indexes);
    const scope = await jobScope(ctx, p, { ranged: false, capped: false });
    const jobsIn = (column: string) => scope.jobs().where(within(column, first, last));
    // By position (group-by.ts): PostgreSQL would not see the CASE's parameters as the select list's.
    // biome-ignore lint/suspicious/noExplicitAny: builders over different tables
    const byWeek = (qb: any): { execute(): Promise<Record<string, unknown>[]> } => qb.groupBy(sql.raw('1'));

    const [created, bids, decided, issued, paid, time] = await Promise.all([
      byWeek(
        jobsIn('jobs.created_at').select([weekOf('jobs.created_at').as('week'), sql<number>`count(*)`.as('n')]),
      ).execute(),
      byWeek(
        jobsIn('jobs.bid_at').select([
          weekOf('jobs.bid_at').as('week'),
          sql<number>`count(*)`.as('n'),
          sql<number>`sum(${JOB_VALUE_CENTS})`.as('cents'),
        ]),
      ).execute(),
      byWeek(
        jobsIn('jobs.decided_at')
          .where(sql.ref('stage.type'), 'in', ['won', 'lost'])
          .select([
            weekOf('jobs.decided_at').as('week'),
            sql<number>`sum(case when stage.type = 'won' then 1 else 0 end)`.as('won'),
            sql<number>`sum(case when stage.type = 'won' then ${JOB_VALUE_CENTS} else 0 end)`.as('cents'),
            sql<number>`sum(case when stage.type = 'lost' then 1 else 0 end)`.as('lost'),
          ]),
      ).execute(),
      byWeek(
        onScopedJob(
          ctx,
          p,
          scope,
          db
            .selectFrom('invoices')
            .where('invoices.firm_id', '=', firmId)
            .where('invoices.status', 'not in', [...NOT_BILLED])
            .where(within(ISSUED_AT, first, last)),
          'invoices.job_id',
        ).select([weekOf(ISSUED_AT).as('week'), sql<number>`sum(invoices.amount_cents)`.as('cents')]),
      ).execute(),
      byWeek(
        onScopedJob(
          ctx,
          p,
          scope,
          db
            .selectFrom('invoices')
            .where('invoices.firm_id', '=', firmId)
            .where('invoices.status', '=', 'paid')
            .where(within('invoices.paid_at', first, last)),
          'invoices.job_id',
        ).select([weekOf('invoices.paid_at').as('week'), sql<number>`sum(invoices.amount_cents)`.as('cents')]),
      ).execute(),
      byWeek(
        onScopedTime(
          ctx,
          p,
          scope,
          db
            .selectFrom('time_entries')
            .where('time_entries.firm_id', '=', firmId)
            .where(countedTime)
            .where(within('time_entries.clock_in', first, last)),
        ).select([weekOf('time_entries.clock_in').as('week'), sql<number>`sum(${entryMs(ctx)})`.as('ms')]),
      ).execute(),
    ]);
    const indexed = (rows: readonly Record<string, unknown>[]) => new Map(rows.map((r) => [num(r.week), r]));
    const [c, b, d, i, pd, tm] = [created, bids, decided, issued, paid, time].map(indexed);
    const msOf = (k: number) => num(tm!.get(k)?.ms);
    const rows: Row[] = weeks.map((w, k) => ({
      week_start: w.weekStart,
      start: w.start,
      end: w.end,
      new_jobs: num(c!.get(k)?.n),
      bids_sent: num(b!.get(k)?.n),
      bid_value: centsToDollars(num(b!.get(k)?.cents)),
      jobs_won: num(d!.get(k)?.won),
      won_value: centsToDollars(num(d!.get(k)?.cents)),
      jobs_lost: num(d!.get(k)?.lost),
      invoiced: centsToDollars(num(i!.get(k)?.cents)),
      collected: centsToDollars(num(pd!.get(k)?.cents)),
      hours_worked: hoursOfMs(msOf(k)),
    }));
    const allMs = weeks.reduce((s, _, k) => s + msOf(k), 0);
    const totalOf = (kept: Row[]): Row => ({
      week_start: null,
      start: kept.length > 0 ? (kept[0]!.start as string) : null,
      end: kept.length > 0 ? (kept[kept.length - 1]!.end as string) : null,
      new_jobs: countOf(kept, 'new_jobs'),
      bids_sent: countOf(kept, 'bids_sent'),
      bid_value: sumMoney(kept, 'bid_value'),
      jobs_won: countOf(kept, 'jobs_won'),
      won_value: sumMoney(kept, 'won_value'),
      jobs_lost: countOf(kept, 'jobs_lost'),
      invoiced: sumMoney(kept, 'invoiced'),
      collected: sumMoney(kept, 'collected'),
      // Summed exactly (milliseconds) and rounded once when every week is kept.
      hours_worked:
        kept.length === rows.length
          ? hoursOfMs(allMs)
          : Math.round(kept.reduce((s, r) => s + Number(r.hours_worked) * 100, 0)) / 100,
    });
    const table: FullTable = {
      key: 'weeks',
      title: `Week by week, ${p.start} to ${p.end}`,
      columns: [
        { key: 'week_start', label: 'Week of', kind: 'date' },
        { key: 'start', label: 'From', kind: 'date' },
        { key: 'end', label: 'To', kind: 'date' },
        { key: 'new_jobs', label: 'New jobs', kind: 'int' },
        { key: 'bids_sent', label: 'Bids sent', kind: 'int' },
        { key: 'bid_value', label: 'Bid value', kind: 'money' },
        { key: 'jobs_won', label: 'Jobs won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'jobs_lost', label: 'Jobs lost', kind: 'int' },
        { key: 'invoiced', label: 'Invoiced', kind: 'money' },
        { key: 'collected', label: 'Collected', kind: 'money' },
        { key: 'hours_worked', label: 'Hours worked', kind: 'number' },
      ],
      rows,
      total: totalOf,
      note: scope.note,
    };
    const t = totalOf(rows);
    const cents = (v: unknown) => formatCents(Math.round(Number(v) * 100));
    return {
      summary: [
        { label: 'Weeks', value: String(weeks.length) },
        { label: 'New jobs', value: String(t.new_jobs) },
        { label: 'Bids sent', value: `${t.bids_sent} (${cents(t.bid_value)})` },
        { label: 'Won', value: `${t.jobs_won} (${cents(t.won_value)})` },
        { label: 'Invoiced', value: cents(t.invoiced) },
        { label: 'Collected', value: cents(t.collected) },
        { label: 'Hours worked', value: String(t.hours_worked) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
