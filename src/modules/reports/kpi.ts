// The KPI report (document 2, Owner reports: "kpi ... cover[s] the whole week or month containing
// end"; docs/reports.md, "KPIs"): the business's key figures for the week or month (`period`,
// default month) holding `end`, beside the same figures for the period before it.
//
// Every figure is dated by its own event, local to the workspace's time zone (each period's edges
// are the instants its first and next-first local midnights start, compared with stored instants):
// - new leads: leads submitted (submitted_at), not spam, not replaced by a newer lead;
// - new jobs: jobs created (created_at);
// - bids sent and bid value: jobs whose first proposal was sent (bid_at) in the period, at the
//   job's value (JOB_VALUE_CENTS);
// - jobs won / lost and won value: jobs decided (decided_at) in the period whose stage is won / lost;
// - close rate: won / (won + lost) of the jobs decided in the period (excluded jobs stay out);
// - average won job: won value / jobs won;
// - invoiced: invoices issued (issued_at, else created_at) in the period, not draft, void or
//   uncollectible, at their amount with tax (receivables' "billed");
// - collected: invoices paid (paid_at) in the period;
// - owed at the period's end: as receivables.ts (issued by then, not draft, void or uncollectible,
//   not paid by then);
// - labor hours: closed, not void time entries (counted-time.ts) whose clock_in falls in the period,
//   their real elapsed length.
// Job filters narrow every figure through the job (period-scope.ts); a change_pct is the change over
// the previous figure, null when that is 0 or missing.
//
// Four queries, each over both periods at once with conditional sums: jobs, leads, invoices, time.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { countedTime } from './counted-time.ts';
import { JOB_VALUE_CENTS, jobScope, startOfDay } from './job-scope.ts';
import {
  countIf,
  entryMs,
  hoursOfMs,
  ISSUED_AT,
  leadsOf,
  NOT_BILLED,
  onScopedJob,
  onScopedTime,
  sumIf,
  within,
} from './period-scope.ts';
import type { ReportDefinition } from './run.ts';
import { periodOf } from './run-query.ts';
import type { Column, ColumnKind, FullTable, Row } from './run-result.ts';
import { formatPct, ratio } from './table-math.ts';

type Which = 'this' | 'prev';
const WHICH: readonly Which[] = ['this', 'prev'];

const num = (v: unknown) => Number(v ?? 0);

const columns = (kind: ColumnKind): Column[] => [
  { key: 'metric', label: 'Key', kind: 'text' },
  { key: 'kpi', label: 'KPI', kind: 'text' },
  { key: 'this_period', label: 'This period', kind },
  { key: 'previous_period', label: 'Previous period', kind },
  { key: 'change', label: 'Change', kind },
  { key: 'change_pct', label: 'Change %', kind: 'pct' },
];

/**
 * A KPI row from two figures in the table's unit (cents for money, milliseconds for hours, whole
 * numbers for counts, fractions for rates): the change in that unit, shown in the column's.
 */
function kpiRow(metric: string, kpi: string, kind: ColumnKind, now: number | null, before: number | null): Row {
  const show = (v: number | null) =>
    v === null
      ? null
      : kind === 'money'
        ? centsToDollars(v)
        : kind === 'number'
          ? hoursOfMs(v)
          : kind === 'pct'
            ? Math.round(v * 10_000) / 10_000
            : v;
  const change = now === null || before === null ? null : now - before;
  return {
    metric,
    kpi,
    this_period: show(now),
    previous_period: show(before),
    change: show(change),
    change_pct: change === null || before === null ? null : ratio(change, before),
  };
}

export const kpi: ReportDefinition = {
  key: 'kpi',
  title: 'KPIs',
  section: 'Overview',
  description:
    'The week or month holding end (period) against the one before: new leads, new jobs, bids sent, jobs won and the close rate, invoiced, collected, owed and labor hours',
  date_basis: 'all',
  span: 'period',
  uses: ['period', 'salesperson_ids', 'customer_ids', 'division_ids', 'work_types'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const prev = periodOf(addDays(p.start, -1), p.period, ctx.auth.settings.week_start);
    // Each period from its first local midnight to the next period's.
    const edges: Record<Which, { from: string; to: string }> = {
      this: { from: startOfDay(ctx, p.start), to: startOfDay(ctx, addDays(p.end, 1)) },
      prev: { from: startOfDay(ctx, prev.start), to: startOfDay(ctx, p.start) },
    };
    const first = edges.prev.from;
    const last = edges.this.to;
    const scope = await jobScope(ctx, p, { ranged: false, capped: false });

    const jobMeasures = Object.fromEntries(
      WHICH.flatMap((w) => {
        const { from, to } = edges[w];
        const decided = within('jobs.decided_at', from, to);
        const won = sql<boolean>`(${decided} and stage.type = 'won')`;
        return [
          [`new_jobs_${w}`, countIf(within('jobs.created_at', from, to))],
          [`bids_${w}`, countIf(within('jobs.bid_at', from, to))],
          [`bid_cents_${w}`, sumIf(within('jobs.bid_at', from, to), JOB_VALUE_CENTS)],
          [`won_${w}`, countIf(won)],
          [`won_cents_${w}`, sumIf(won, JOB_VALUE_CENTS)],
          [`lost_${w}`, countIf(sql<boolean>`(${decided} and stage.type = 'lost')`)],
        ];
      }),
    );
    const invoiceMeasures = Object.fromEntries(
      WHICH.flatMap((w) => {
        const { from, to } = edges[w];
        return [
          [`invoiced_${w}`, sumIf(within(ISSUED_AT, from, to), 'invoices.amount_cents')],
          [
            `collected_${w}`,
            sumIf(
              sql<boolean>`(invoices.status = 'paid' and ${within('invoices.paid_at', from, to)})`,
              'invoices.amount_cents',
            ),
          ],
          [
            `owed_${w}`,
            sumIf(
              sql<boolean>`(${ISSUED_AT} < ${to} and (invoices.paid_at is null or invoices.paid_at >= ${to}))`,
              'invoices.amount_cents',
            ),
          ],
        ];
      }),
    );

    const [jobs, leads, invoices, time] = await Promise.all([
      scope
        .jobs()
        .select(Object.entries(jobMeasures).map(([name, expr]) => expr.as(name)))
        .where((eb) =>
          eb.or([
            within('jobs.created_at', first, last),
            within('jobs.bid_at', first, last),
            within('jobs.decided_at', first, last),
          ]),
        )
        .executeTakeFirst(),
      leadsOf(ctx, p, scope)
        .select(WHICH.map((w) => countIf(within('leads.submitted_at', edges[w].from, edges[w].to)).as(`leads_${w}`)))
        .where('leads.submitted_at', '>=', first)
        .where('leads.submitted_at', '<', last)
        .executeTakeFirst(),
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('invoices')
          .where('invoices.firm_id', '=', firmId)
          .where('invoices.status', 'not in', [...NOT_BILLED]),
        'invoices.job_id',
      )
        .select(Object.entries(invoiceMeasures).map(([name, expr]) => expr.as(name)))
        .executeTakeFirst(),
      onScopedTime(
        ctx,
        p,
        scope,
        db
          .selectFrom('time_entries')
          .where('time_entries.firm_id', '=', firmId)
          .where(countedTime)
          .where('time_entries.clock_in', '>=', first)
          .where('time_entries.clock_in', '<', last),
      )
        .select(
          WHICH.map((w) =>
            sumIf(within('time_entries.clock_in', edges[w].from, edges[w].to), entryMs(ctx)).as(`ms_${w}`),
          ),
        )
        .executeTakeFirst(),
    ]);
    const j = (jobs ?? {}) as Record<string, unknown>;
    const l = (leads ?? {}) as Record<string, unknown>;
    const i = (invoices ?? {}) as Record<string, unknown>;
    const te = (time ?? {}) as Record<string, unknown>;
    const both = (get: (w: Which) => number | null) => [get('this'), get('prev')] as const;
    const averageWon = (w: Which) =>
      num(j[`won_${w}`]) === 0 ? null : Math.round(num(j[`won_cents_${w}`]) / num(j[`won_${w}`]));
    // Unrounded, so the change and change_pct are worked from the exact rates.
    const closeRate = (w: Which) => {
      const decided = num(j[`won_${w}`]) + num(j[`lost_${w}`]);
      return decided === 0 ? null : num(j[`won_${w}`]) / decided;
    };

    const counts = [
      kpiRow('new_leads', 'New leads', 'int', ...both((w) => num(l[`leads_${w}`]))),
      kpiRow('new_jobs', 'New jobs', 'int', ...both((w) => num(j[`new_jobs_${w}`]))),
      kpiRow('bids_sent', 'Bids sent', 'int', ...both((w) => num(j[`bids_${w}`]))),
      kpiRow('jobs_won', 'Jobs won', 'int', ...both((w) => num(j[`won_${w}`]))),
      kpiRow('jobs_lost', 'Jobs lost', 'int', ...both((w) => num(j[`lost_${w}`]))),
    ];
    const money = [
      kpiRow('bid_value', 'Bid value', 'money', ...both((w) => num(j[`bid_cents_${w}`]))),
      kpiRow('won_value', 'Won value', 'money', ...both((w) => num(j[`won_cents_${w}`]))),
      kpiRow('average_won_job', 'Average won job', 'money', ...both(averageWon)),
      kpiRow('invoiced', 'Invoiced', 'money', ...both((w) => num(i[`invoiced_${w}`]))),
      kpiRow('collected', 'Collected', 'money', ...both((w) => num(i[`collected_${w}`]))),
      kpiRow('owed_at_end', "Owed at the period's end", 'money', ...both((w) => num(i[`owed_${w}`]))),
    ];
    const rates = [kpiRow('close_rate', 'Close rate (won / won + lost)', 'pct', ...both(closeRate))];
    const hours = [kpiRow('labor_hours', 'Labor hours', 'number', ...both((w) => num(te[`ms_${w}`])))];

    const table = (
      key: string,
      title: string,
      kind: ColumnKind,
      rows: Row[],
      note: string | null = null,
    ): FullTable => ({
      key,
      title,
      columns: columns(kind),
      rows,
      total: null,
      note: scope.note ?? note,
    });
    const label = `${p.start} to ${p.end}`;
    return {
      summary: [
        { label: p.period === 'week' ? 'Week' : 'Month', value: label },
        { label: 'Compared with', value: `${prev.start} to ${prev.end}` },
        { label: 'New jobs', value: String(counts[1]!.this_period) },
        { label: 'Won', value: `${counts[3]!.this_period} (${formatCents(num(j.won_cents_this))})` },
        { label: 'Close rate', value: formatPct(closeRate('this')) },
        { label: 'Invoiced', value: formatCents(num(i.invoiced_this)) },
        { label: 'Collected', value: formatCents(num(i.collected_this)) },
      ],
      tables: [
        table('counts', 'Counts', 'int', counts),
        table('money', 'Money', 'money', money),
        table('rates', 'Rates', 'pct', rates, 'change is in points (a fraction: 0.1 is 10 points)'),
        table('hours', 'Hours', 'number', hours),
      ],
      truncated: scope.truncated,
    };
  },
};
