// The cash forecast (document 2, Owner reports: "cash-forecast", weeks 4, 8, 12 or 26; docs/reports.md,
// "Cash forecast"): the money expected in over the `weeks` weeks (default 12) starting with the week
// holding `end` (the workspace's week_start), week by week, from two sources.
//
// The run's start and end are the first week's (span 'week'); the horizon is `weeks` weeks from its
// first day. "Now" is the end of that first week (local midnight after its last day): for a run of
// this week that is everything recorded so far.
// - Invoices due: invoices open at that instant as receivables.ts counts them (issued by then, not
//   draft, void or uncollectible, not paid by then), at their amount with tax, in the week holding
//   their own due_date (a plain date). Those already past due at the horizon's first day are
//   expected in the first week, in their own column (past_due); those due after the horizon are
//   not shown.
// - Scheduled work: won jobs (stage type won) whose last scheduled work day falls in the horizon: the
//   job's value (JOB_VALUE_CENTS) less what is invoiced on it (every invoice issued by then that is
//   not a draft or void: an uncollectible one was billed and will not come in either), when that is
//   more than zero, in the week of that last day. A work day is a work_order_days row of a work
//   order that is not a hold and not cancelled. Work all before the horizon (finished, not invoiced)
//   and work running past it are not shown: neither has a week to land in here.
// customer_ids and salesperson_ids narrow both sources through the job; job visibility applies.
//
// Two queries: open invoices GROUP BY due week, and the won jobs' remaining value GROUP BY the week
// of their last work day (each job's last day and invoiced total a GROUP BY job joined in); both
// place a date in its week by the weeks' first dates (bucket.ts).
import { type RawBuilder, sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { addDays } from '#platform/time.ts';
import { bucketOf } from './bucket.ts';
import { JOB_VALUE_CENTS, jobScope, startOfDay } from './job-scope.ts';
import { ISSUED_AT, NOT_BILLED, onScopedJob } from './period-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { sumMoney } from './table-math.ts';

const num = (v: unknown) => Number(v ?? 0);

export const cashForecast: ReportDefinition = {
  key: 'cash-forecast',
  title: 'Cash forecast',
  section: 'Financial',
  description:
    'Money expected in over the next weeks (4, 8, 12 or 26) from the week holding end: open invoices by due date, past due ones in the first week, and won work scheduled but not yet invoiced in the week it finishes',
  date_basis: 'all',
  span: 'week',
  uses: ['weeks', 'customer_ids', 'salesperson_ids'],
  async run(ctx: ServiceContext, p) {
    const { db } = ctx.database;
    const firmId = ctx.auth.firm.id;
    const weekStarts = Array.from({ length: p.weeks }, (_, k) => addDays(p.start, 7 * k));
    const horizonEnd = addDays(p.start, 7 * p.weeks); // the first day after the horizon
    const asOf = startOfDay(ctx, addDays(p.end, 1));
    /** The week (index) of a date from before the horizon's end: before the second week's start is the first. */
    const weekOf = (date: RawBuilder<unknown>) =>
      bucketOf(
        date,
        weekStarts.slice(1),
        weekStarts.map((_, k) => k),
      );
    const scope = await jobScope(ctx, p, { ranged: false, capped: false });

    const dueDate = sql<string>`invoices.due_date`;
    const workDay = sql<string>`planned.last_day`;
    // The job's last work day and what is invoiced on it, per won job in scope: each a GROUP BY job
    // over its own table, joined to the jobs (one pass each; a correlated subquery per job let
    // SQLite walk every work day for every job, minutes at 25,000 won jobs).
    const lastDays = db
      .selectFrom('work_order_days as wod')
      .innerJoin('work_orders as wo', 'wo.id', 'wod.work_order_id')
      .where('wo.firm_id', '=', firmId)
      .where('wo.is_hold', '=', 0)
      .where('wod.is_hold', '=', 0)
      .where('wo.status', '<>', 'cancelled')
      .select(['wo.job_id', sql<string>`max(wod.date)`.as('last_day')])
      .groupBy('wo.job_id')
      .as('days');
    const billed = db
      .selectFrom('invoices as inv')
      .where('inv.firm_id', '=', firmId)
      .where('inv.status', 'not in', ['draft', 'void'])
      .where(sql<string>`coalesce(inv.issued_at, inv.created_at)`, '<', asOf)
      .select(['inv.job_id', sql<number>`sum(inv.amount_cents)`.as('cents')])
      .groupBy('inv.job_id')
      .as('billed');
    const planned = scope
      .jobs()
      .where(sql.ref('stage.type'), '=', 'won')
      .innerJoin(lastDays, 'days.job_id', 'jobs.id')
      .leftJoin(billed, 'billed.job_id', 'jobs.id')
      .where('days.last_day', '>=', p.start)
      .where('days.last_day', '<', horizonEnd)
      .select([
        'jobs.id as job_id',
        JOB_VALUE_CENTS.as('value_cents'),
        'days.last_day',
        sql<number>`coalesce(billed.cents, 0)`.as('invoiced_cents'),
      ])
      .as('planned');
    const remaining = sql<number>`(case when planned.value_cents > planned.invoiced_cents then planned.value_cents - planned.invoiced_cents else 0 end)`;

    const [invoices, work] = await Promise.all([
      onScopedJob(
        ctx,
        p,
        scope,
        db
          .selectFrom('invoices')
          .where('invoices.firm_id', '=', firmId)
          .where('invoices.status', 'not in', [...NOT_BILLED])
          .where(ISSUED_AT, '<', asOf)
          .where((eb) => eb.or([eb('invoices.paid_at', 'is', null), eb('invoices.paid_at', '>=', asOf)]))
          .where('invoices.due_date', '<', horizonEnd),
        'invoices.job_id',
      )
        .select([
          weekOf(dueDate).as('week'),
          sql<number>`sum(case when invoices.due_date < ${p.start} then invoices.amount_cents else 0 end)`.as(
            'past_due',
          ),
          sql<number>`sum(case when invoices.due_date >= ${p.start} then invoices.amount_cents else 0 end)`.as('due'),
        ])
        .groupBy(sql.raw('1'))
        .execute(),
      db
        .selectFrom(planned)
        .select([weekOf(workDay).as('week'), sql<number>`sum(${remaining})`.as('scheduled')])
        .groupBy(sql.raw('1'))
        .execute(),
    ]);
    const byWeek = (rows: readonly Record<string, unknown>[]) => new Map(rows.map((r) => [num(r.week), r]));
    const inv = byWeek(invoices);
    const sched = byWeek(work);
    let running = 0;
    const rows: Row[] = weekStarts.map((ws, k) => {
      const pastDue = num(inv.get(k)?.past_due);
      const due = num(inv.get(k)?.due);
      const scheduled = num(sched.get(k)?.scheduled);
      running += pastDue + due + scheduled;
      return {
        week_start: ws,
        past_due: centsToDollars(pastDue),
        invoices_due: centsToDollars(due),
        scheduled_work: centsToDollars(scheduled),
        total: centsToDollars(pastDue + due + scheduled),
        running_total: centsToDollars(running),
      };
    });
    const table: FullTable = {
      key: 'weeks',
      title: `Cash expected, ${p.weeks} weeks from ${p.start}`,
      columns: [
        { key: 'week_start', label: 'Week of', kind: 'date' },
        { key: 'past_due', label: 'Past due invoices', kind: 'money' },
        { key: 'invoices_due', label: 'Invoices due', kind: 'money' },
        { key: 'scheduled_work', label: 'Scheduled work not invoiced', kind: 'money' },
        { key: 'total', label: 'Total', kind: 'money' },
        { key: 'running_total', label: 'Running total', kind: 'money' },
      ],
      rows,
      total: (kept) => ({
        week_start: null,
        past_due: sumMoney(kept, 'past_due'),
        invoices_due: sumMoney(kept, 'invoices_due'),
        scheduled_work: sumMoney(kept, 'scheduled_work'),
        total: sumMoney(kept, 'total'),
        running_total: null,
      }),
      note:
        scope.note ??
        'Past due invoices are expected in the first week; scheduled work is a won job’s value less what is invoiced on it, in the week of its last scheduled work day',
    };
    const cents = (key: string) => formatCents(Math.round(sumMoney(rows, key) * 100));
    return {
      summary: [
        { label: 'Weeks', value: `${p.weeks} from ${p.start} to ${addDays(horizonEnd, -1)}` },
        { label: 'Past due invoices', value: cents('past_due') },
        { label: 'Invoices due', value: cents('invoices_due') },
        { label: 'Scheduled work not invoiced', value: cents('scheduled_work') },
        { label: 'Total expected', value: cents('total') },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
