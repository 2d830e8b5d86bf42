// The win-loss graph (docs/reports.md, "Win-loss graph"): the win-loss report as a series a chart
// draws, one row per month (local to the workspace) from the first to the last month holding a
// decided job in the range, with no gaps: each month's won and lost jobs, its win rate, and the
// running totals from the range's start (cumulative won value and cumulative win rate), so a
// chart shows both the month's swing and the trend. Excluded jobs are counted, not rated, as in
// win-loss.
//
// One query: the month GROUP BY (group-by.ts's month CASE) inside, the running totals as window
// sums over it outside. Months with no decided job are filled in here with zeros and the running
// totals carried over.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { groupColumns } from './group-by.ts';
import { JOB_VALUE_CENTS, jobScope } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import { addMonths } from './run-query.ts';
import type { FullTable, Row } from './run-result.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';

interface Month {
  month: string;
  decided: number;
  won: number;
  lost: number;
  won_cents: number;
  lost_cents: number;
  run_won: number;
  run_lost: number;
  run_won_cents: number;
}

export const winLossGraph: ReportDefinition = {
  key: 'win-loss-graph',
  title: 'Win-loss graph',
  section: 'Sales',
  description:
    'Month by month, the jobs won and lost (by the date they were decided), the win rate, and the running won value and win rate from the start date: the series a win-loss chart draws',
  date_basis: 'decided',
  uses: [
    'date_basis',
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
    const scope = await jobScope(ctx, p);
    const [month] = await groupColumns(ctx, scope, ['month']);
    const grouped = scope
      .jobs()
      .select([
        month!.expr.as('month'),
        sql<number>`count(*)`.as('decided'),
        sql<number>`sum(case when stage.type = 'won' then 1 else 0 end)`.as('won'),
        sql<number>`sum(case when stage.type = 'lost' then 1 else 0 end)`.as('lost'),
        sql<number>`sum(case when stage.type = 'won' then ${JOB_VALUE_CENTS} else 0 end)`.as('won_cents'),
        sql<number>`sum(case when stage.type = 'lost' then ${JOB_VALUE_CENTS} else 0 end)`.as('lost_cents'),
      ])
      .groupBy(sql.raw('1'));
    const rows = await db
      .selectFrom(grouped.as('g'))
      .select([
        'g.month',
        'g.decided',
        'g.won',
        'g.lost',
        'g.won_cents',
        'g.lost_cents',
        sql<number>`sum(g.won) over (order by g.month)`.as('run_won'),
        sql<number>`sum(g.lost) over (order by g.month)`.as('run_lost'),
        sql<number>`sum(g.won_cents) over (order by g.month)`.as('run_won_cents'),
      ])
      .orderBy('g.month')
      .execute();
    const byMonth = new Map(rows.map((r) => [String(r.month), r]));
    const months: Month[] = [];
    if (rows.length > 0) {
      const last = String(rows[rows.length - 1]!.month);
      let carried = { run_won: 0, run_lost: 0, run_won_cents: 0 };
      for (let m = String(rows[0]!.month); m <= last; m = addMonths(`${m}-01`, 1).slice(0, 7)) {
        const r = byMonth.get(m);
        if (r)
          carried = {
            run_won: Number(r.run_won),
            run_lost: Number(r.run_lost),
            run_won_cents: Number(r.run_won_cents),
          };
        months.push({
          month: m,
          decided: Number(r?.decided ?? 0),
          won: Number(r?.won ?? 0),
          lost: Number(r?.lost ?? 0),
          won_cents: Number(r?.won_cents ?? 0),
          lost_cents: Number(r?.lost_cents ?? 0),
          ...carried,
        });
      }
    }
    const table: FullTable = {
      key: 'months',
      title: 'Win-loss by month',
      columns: [
        { key: 'month', label: 'Month', kind: 'text' },
        { key: 'decided', label: 'Decided', kind: 'int' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'lost', label: 'Lost', kind: 'int' },
        { key: 'win_rate', label: 'Win rate', kind: 'pct' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'lost_value', label: 'Lost value', kind: 'money' },
        { key: 'cumulative_won_value', label: 'Won value to date', kind: 'money' },
        { key: 'cumulative_win_rate', label: 'Win rate to date', kind: 'pct' },
      ],
      rows: months.map(
        (m): Row => ({
          month: m.month,
          decided: m.decided,
          won: m.won,
          lost: m.lost,
          win_rate: ratio(m.won, m.won + m.lost),
          won_value: centsToDollars(m.won_cents),
          lost_value: centsToDollars(m.lost_cents),
          cumulative_won_value: centsToDollars(m.run_won_cents),
          cumulative_win_rate: ratio(m.run_won, m.run_won + m.run_lost),
        }),
      ),
      total: (kept) => {
        const won = countOf(kept, 'won');
        const lost = countOf(kept, 'lost');
        return {
          month: 'Total',
          decided: countOf(kept, 'decided'),
          won,
          lost,
          win_rate: ratio(won, won + lost),
          won_value: sumMoney(kept, 'won_value'),
          lost_value: sumMoney(kept, 'lost_value'),
          cumulative_won_value: null,
          cumulative_win_rate: null,
        };
      },
      note: scope.note ?? 'Months run from the first to the last month with a decided job; excluded jobs are not rated',
    };
    const last = months[months.length - 1];
    return {
      summary: [
        { label: 'Months', value: String(months.length) },
        { label: 'Won value', value: formatCents(last?.run_won_cents ?? 0) },
        { label: 'Win rate', value: formatPct(last ? ratio(last.run_won, last.run_won + last.run_lost) : null) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
