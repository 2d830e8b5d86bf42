// The weekly sales report (document 2, Owner reports: "weekly-sales ... cover[s] the whole week ...
// containing end"; docs/reports.md, "Weekly sales"): the jobs won in the week holding `end` (the
// workspace's week_start), per salesperson and day.
//
// A job is won on a day when it entered a won stage (decided_at) that local day and its stage is
// still a won one; its value is the job's value (JOB_VALUE_CENTS). The salesperson is the job's
// assignee. Each day's edges are the instants its local midnights start, so a job decided at 23:30
// is that day's, whatever the UTC date. Job filters and job visibility apply (jobScope).
//
// One GROUP BY salesperson with a conditional sum per day, and one query for the week's totals.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { JOB_VALUE_CENTS, jobScope } from './job-scope.ts';
import { daysOf, sumIf, within } from './period-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

export const weeklySales: ReportDefinition = {
  key: 'weekly-sales',
  title: 'Weekly sales',
  section: 'Sales',
  description:
    'Jobs won in the week holding end, per salesperson and day: the value won each day, the count and the total',
  date_basis: 'decided',
  span: 'week',
  uses: ['salesperson_ids', 'estimator_ids', 'customer_ids', 'division_ids', 'work_types'],
  async run(ctx: ServiceContext, p) {
    const scope = await jobScope(ctx, p, { basis: 'decided' });
    const days = daysOf(ctx, p.start, p.end);
    const won = () => scope.jobs().where(sql.ref('stage.type'), '=', 'won');
    const perDay = Object.fromEntries(
      days.map((d) => [d.key, sumIf(within(scope.basis, d.from, d.to), JOB_VALUE_CENTS)]),
    );
    const [people, totals] = await Promise.all([
      won()
        .select([
          'jobs.assigned_to_user_id as user_id',
          sql<string>`coalesce(salesperson.name, '(no salesperson)')`.as('salesperson'),
          ...Object.entries(perDay).map(([key, expr]) => expr.as(key)),
          sql<number>`count(*)`.as('won'),
          sql<number>`sum(${JOB_VALUE_CENTS})`.as('total'),
        ])
        .groupBy(['jobs.assigned_to_user_id', 'salesperson.name'])
        .orderBy(sql`sum(${JOB_VALUE_CENTS})`, 'desc')
        .orderBy('salesperson.name')
        .execute(),
      won()
        .select([sql<number>`count(*)`.as('won'), sql<number>`coalesce(sum(${JOB_VALUE_CENTS}), 0)`.as('total')])
        .executeTakeFirstOrThrow(),
    ]);
    const table: FullTable = {
      key: 'salespeople',
      title: `Won ${p.start} to ${p.end} by salesperson and day`,
      columns: [
        { key: 'salesperson', label: 'Salesperson', kind: 'text' },
        ...days.map((d) => ({ key: d.key, label: d.label, kind: 'money' as const })),
        { key: 'won', label: 'Jobs won', kind: 'int' },
        { key: 'total', label: 'Won value', kind: 'money' },
      ],
      rows: people.map(
        (r): Row => ({
          salesperson: String(r.salesperson),
          ...Object.fromEntries(
            days.map((d) => [d.key, centsToDollars(Number((r as Record<string, unknown>)[d.key] ?? 0))]),
          ),
          won: Number(r.won),
          total: centsToDollars(Number(r.total)),
        }),
      ),
      total: (rows) => ({
        salesperson: 'Total',
        ...Object.fromEntries(days.map((d) => [d.key, sumMoney(rows, d.key)])),
        won: countOf(rows, 'won'),
        total: sumMoney(rows, 'total'),
      }),
      note: scope.note,
    };
    return {
      summary: [
        { label: 'Week', value: `${p.start} to ${p.end}` },
        { label: 'Won value', value: formatCents(Number(totals.total)) },
        { label: 'Jobs won', value: String(Number(totals.won)) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
