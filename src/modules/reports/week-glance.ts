// The week at a glance (document 2, Owner reports: "week-glance ... cover[s] the whole week ...
// containing end"; docs/reports.md, "Week at a glance"): one row per day of the week holding `end`
// (the workspace's week_start) with what the office and the crews did that day.
//
// Each figure by its own date, local to the workspace's time zone:
// - crew-days: work_order_days rows dated that day (a plain date) of work orders that are not holds
//   and not cancelled (a hold's days reserve a crew, they are not work);
// - work orders completed: work orders completed (completed_at) that day and still completed;
// - hours worked: closed, not void time entries (counted-time.ts) by their clock_in's day, their
//   real elapsed length;
// - proposals sent: proposals whose sent_at (the latest send) falls that day, customer copies
//   included (each went to a customer);
// - jobs won and won value: jobs decided (decided_at) that day whose stage is won, at the job's value;
// - invoiced: invoices issued (issued_at, else created_at) that day, not draft, void or
//   uncollectible, at their amount with tax; collected: invoices paid (paid_at) that day.
// Job filters and visibility narrow every figure through the job (period-scope.ts).
//
// Six queries, each one row of conditional sums (one per day): crew-days, work orders, time,
// proposals, won jobs, invoices.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { countedTime } from './counted-time.ts';
import { JOB_VALUE_CENTS, jobScope } from './job-scope.ts';
import {
  countIf,
  daysOf,
  entryMs,
  hoursOfMs,
  ISSUED_AT,
  NOT_BILLED,
  onScopedJob,
  onScopedTime,
  sumIf,
  within,
} from './period-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

const num = (v: unknown) => Number(v ?? 0);

export const weekGlance: ReportDefinition = {
  key: 'week-glance',
  title: 'Week at a glance',
  section: 'Operations',
  description:
    'The week holding end, day by day: crew-days scheduled, work orders completed, hours worked, proposals sent, jobs won, invoiced and collected',
  date_basis: 'all',
  span: 'week',
  uses: ['salesperson_ids', 'customer_ids', 'division_ids', 'work_types'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const days = daysOf(ctx, p.start, p.end);
    const first = days[0]!.from;
    const last = days[days.length - 1]!.to;
    const [scope, won] = await Promise.all([
      jobScope(ctx, p, { ranged: false, capped: false }),
      jobScope(ctx, p, { basis: 'decided' }),
    ]);
    const perDay = (measure: (d: (typeof days)[number]) => ReturnType<typeof countIf>, prefix = 'm') =>
      days.map((d) => measure(d).as(`${prefix}_${d.key}`));

    const [crewDays, completed, time, proposals, wonJobs, invoices] = await Promise.all([
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('work_order_days as wod')
          .innerJoin('work_orders', 'work_orders.id', 'wod.work_order_id')
          .where('wod.firm_id', '=', firmId)
          .where('wod.date', '>=', p.start)
          .where('wod.date', '<=', p.end)
          .where('wod.is_hold', '=', 0)
          .where('work_orders.is_hold', '=', 0)
          .where('work_orders.status', '!=', 'cancelled'),
        'work_orders.job_id',
      )
        .select(perDay((d) => countIf(sql<boolean>`wod.date = ${d.date}`)))
        .executeTakeFirst(),
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('work_orders')
          .where('work_orders.firm_id', '=', firmId)
          .where('work_orders.status', '=', 'completed')
          .where('work_orders.completed_at', '>=', first)
          .where('work_orders.completed_at', '<', last),
        'work_orders.job_id',
      )
        .select(perDay((d) => countIf(within('work_orders.completed_at', d.from, d.to))))
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
        .select(perDay((d) => sumIf(within('time_entries.clock_in', d.from, d.to), entryMs(ctx))))
        .executeTakeFirst(),
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('proposals')
          .where('proposals.firm_id', '=', firmId)
          .where('proposals.sent_at', '>=', first)
          .where('proposals.sent_at', '<', last),
        'proposals.job_id',
      )
        .select(perDay((d) => countIf(within('proposals.sent_at', d.from, d.to))))
        .executeTakeFirst(),
      won
        .jobs()
        .where(sql.ref('stage.type'), '=', 'won')
        .select([
          ...perDay((d) => countIf(within(won.basis, d.from, d.to)), 'n'),
          ...perDay((d) => sumIf(within(won.basis, d.from, d.to), JOB_VALUE_CENTS), 'v'),
        ])
        .executeTakeFirst(),
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('invoices')
          .where('invoices.firm_id', '=', firmId)
          .where('invoices.status', 'not in', [...NOT_BILLED])
          .where((eb) =>
            eb.or([
              within(ISSUED_AT, first, last),
              eb.and([eb('invoices.paid_at', '>=', first), eb('invoices.paid_at', '<', last)]),
            ]),
          ),
        'invoices.job_id',
      )
        .select([
          ...perDay((d) => sumIf(within(ISSUED_AT, d.from, d.to), 'invoices.amount_cents'), 'i'),
          ...perDay(
            (d) =>
              sumIf(
                sql<boolean>`(invoices.status = 'paid' and ${within('invoices.paid_at', d.from, d.to)})`,
                'invoices.amount_cents',
              ),
            'c',
          ),
        ])
        .executeTakeFirst(),
    ]);
    const of = (row: unknown, key: string) => num((row as Record<string, unknown> | undefined)?.[key]);
    const rows: Row[] = days.map((d) => ({
      date: d.date,
      day: d.label.slice(0, 3),
      crew_days: of(crewDays, `m_${d.key}`),
      work_orders_completed: of(completed, `m_${d.key}`),
      hours_worked: hoursOfMs(of(time, `m_${d.key}`)),
      proposals_sent: of(proposals, `m_${d.key}`),
      jobs_won: of(wonJobs, `n_${d.key}`),
      won_value: centsToDollars(of(wonJobs, `v_${d.key}`)),
      invoiced: centsToDollars(of(invoices, `i_${d.key}`)),
      collected: centsToDollars(of(invoices, `c_${d.key}`)),
    }));
    const weekMs = days.reduce((s, d) => s + of(time, `m_${d.key}`), 0);
    const totalOf = (kept: Row[]): Row => ({
      date: null,
      day: 'Total',
      crew_days: countOf(kept, 'crew_days'),
      work_orders_completed: countOf(kept, 'work_orders_completed'),
      // Hours summed exactly (milliseconds) and rounded once, when every day is kept.
      hours_worked:
        kept.length === rows.length
          ? hoursOfMs(weekMs)
          : Math.round(kept.reduce((s, r) => s + Number(r.hours_worked) * 100, 0)) / 100,
      proposals_sent: countOf(kept, 'proposals_sent'),
      jobs_won: countOf(kept, 'jobs_won'),
      won_value: sumMoney(kept, 'won_value'),
      invoiced: sumMoney(kept, 'invoiced'),
      collected: sumMoney(kept, 'collected'),
    });
    const table: FullTable = {
      key: 'days',
      title: `${p.start} to ${p.end} by day`,
      columns: [
        { key: 'date', label: 'Date', kind: 'date' },
        { key: 'day', label: 'Day', kind: 'text' },
        { key: 'crew_days', label: 'Crew-days scheduled', kind: 'int' },
        { key: 'work_orders_completed', label: 'Work orders completed', kind: 'int' },
        { key: 'hours_worked', label: 'Hours worked', kind: 'number' },
        { key: 'proposals_sent', label: 'Proposals sent', kind: 'int' },
        { key: 'jobs_won', label: 'Jobs won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'invoiced', label: 'Invoiced', kind: 'money' },
        { key: 'collected', label: 'Collected', kind: 'money' },
      ],
      rows,
      total: totalOf,
      note: scope.note ?? won.note,
    };
    const t = totalOf(rows);
    const cents = (v: unknown) => formatCents(Math.round(Number(v) * 100));
    return {
      summary: [
        { label: 'Week', value: `${p.start} to ${p.end}` },
        { label: 'Crew-days scheduled', value: String(t.crew_days) },
        { label: 'Hours worked', value: String(t.hours_worked) },
        { label: 'Jobs won', value: `${t.jobs_won} (${cents(t.won_value)})` },
        { label: 'Invoiced', value: cents(t.invoiced) },
        { label: 'Collected', value: cents(t.collected) },
      ],
      tables: [table],
      truncated: scope.truncated || won.truncated,
    };
  },
};
