// The win-loss report (docs/reports.md, "Win-loss"): of the jobs decided from start to end (they
// entered a won, lost or excluded stage; date basis `decided` unless the request names another),
// how many and how much were won and lost, and the win rate by count and by value, for every
// group of group_by (default by salesperson). Excluded jobs (the customer cancelled the project,
// the bid was withdrawn) are counted but left out of both rates: nobody won or lost them.
//
// One GROUP BY for the groups (their sums are the summary's totals), and the job list.
import { sql } from 'kysely';
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { groupColumns, groupedJobRows, groupTableColumns, summedMeasures } from './group-by.ts';
import { CUSTOMER_NAME, JOB_VALUE_CENTS, jobCells, jobScope } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, ListTable, Row } from './run-result.ts';
import { countOf, formatPct, ratio, sumMoney } from './table-math.ts';

const outcomeIs = (type: string) => sql<number>`sum(case when stage.type = ${type} then 1 else 0 end)`;
const valueIf = (type: string) => sql<number>`sum(case when stage.type = ${type} then ${JOB_VALUE_CENTS} else 0 end)`;

const MEASURES = {
  decided: sql<number>`count(*)`,
  won: outcomeIs('won'),
  lost: outcomeIs('lost'),
  excluded: outcomeIs('excluded'),
  won_cents: valueIf('won'),
  lost_cents: valueIf('lost'),
};

/** A group's counts and values as a row: rates over won + lost only. */
function measuresRow(m: Record<string, unknown>): Row {
  const won = Number(m.won ?? 0);
  const lost = Number(m.lost ?? 0);
  const wonCents = Number(m.won_cents ?? 0);
  const lostCents = Number(m.lost_cents ?? 0);
  return {
    decided: Number(m.decided ?? 0),
    won,
    lost,
    excluded: Number(m.excluded ?? 0),
    win_rate: ratio(won, won + lost),
    won_value: centsToDollars(wonCents),
    lost_value: centsToDollars(lostCents),
    value_win_rate: ratio(wonCents, wonCents + lostCents),
    average_won: won === 0 ? null : centsToDollars(Math.round(wonCents / won)),
  };
}

export const winLoss: ReportDefinition = {
  key: 'win-loss',
  title: 'Win-loss',
  section: 'Sales',
  description:
    'Jobs won and lost between start and end (by the date they were decided), with the win rate by count and by value, by salesperson or any group_by',
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
    'group_by',
  ],
  async run(ctx: ServiceContext, p) {
    const scope = await jobScope(ctx, p);
    const groups = await groupColumns(ctx, scope, p.groupBy.length > 0 ? p.groupBy : ['salesperson']);
    const grouped = await groupedJobRows(scope, groups, MEASURES);
    const all = summedMeasures(grouped, MEASURES);
    const tz = ctx.auth.firm.timezone;
    const groupTable: FullTable = {
      key: 'groups',
      title: `Win-loss by ${groups.map((g) => g.label.toLowerCase()).join(', ')}`,
      columns: [
        ...groupTableColumns(groups),
        { key: 'decided', label: 'Decided', kind: 'int' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'lost', label: 'Lost', kind: 'int' },
        { key: 'excluded', label: 'Excluded', kind: 'int' },
        { key: 'win_rate', label: 'Win rate', kind: 'pct' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'lost_value', label: 'Lost value', kind: 'money' },
        { key: 'value_win_rate', label: 'Win rate by value', kind: 'pct' },
        { key: 'average_won', label: 'Average won job', kind: 'money' },
      ],
      rows: grouped.map((g) => ({
        ...Object.fromEntries(groups.map((c) => [c.key, String(g[c.key])])),
        ...measuresRow(g),
      })),
      total: (rows) => ({
        ...Object.fromEntries(groups.map((c, i) => [c.key, i === 0 ? 'Total' : null])),
        ...measuresRow({
          decided: countOf(rows, 'decided'),
          won: countOf(rows, 'won'),
          lost: countOf(rows, 'lost'),
          excluded: countOf(rows, 'excluded'),
          won_cents: Math.round(sumMoney(rows, 'won_value') * 100),
          lost_cents: Math.round(sumMoney(rows, 'lost_value') * 100),
        }),
      }),
      note: scope.note ?? 'Excluded jobs are counted but left out of both win rates',
    };
    const salesperson = sql<string>`coalesce(salesperson.name, '')`;
    const jobTable: ListTable = {
      key: 'jobs',
      title: 'Decided jobs',
      columns: [
        { key: 'job_number', label: 'Job #', kind: 'int' },
        { key: 'job_name', label: 'Job', kind: 'text' },
        { key: 'customer', label: 'Customer', kind: 'text' },
        { key: 'salesperson', label: 'Salesperson', kind: 'text' },
        { key: 'outcome', label: 'Outcome', kind: 'text' },
        { key: 'status', label: 'Status', kind: 'text' },
        { key: 'decided_on', label: `${scope.basisKey === 'decided' ? 'Decided' : 'Date'}`, kind: 'date' },
        { key: 'value', label: 'Value', kind: 'money' },
      ],
      query: scope
        .jobs()
        .select([
          'jobs.id',
          'jobs.job_number',
          'jobs.name',
          CUSTOMER_NAME.as('customer'),
          'stage.type as outcome',
          'stage.label as status',
          scope.basis.as('at'),
          JOB_VALUE_CENTS.as('value_cents'),
          salesperson.as('salesperson'),
        ])
        .orderBy(scope.basis, 'desc')
        .orderBy('jobs.id', 'desc'),
      row: (j) => ({
        ...jobCells(j),
        salesperson: String(j.salesperson),
        outcome: String(j.outcome),
        status: String(j.status),
        decided_on: storedToLocal(String(j.at), tz).date,
        value: centsToDollars(Number(j.value_cents)),
      }),
      text: {
        job_name: sql`jobs.name`,
        customer: CUSTOMER_NAME,
        salesperson,
        outcome: sql`stage.type`,
        status: sql`stage.label`,
      },
      total: {
        sums: { value_cents: sql`sum(${JOB_VALUE_CENTS})` },
        row: (t) => ({ job_number: null, job_name: 'Total', value: centsToDollars(Number(t.value_cents ?? 0)) }),
      },
      note: scope.note,
    };
    const totals = measuresRow(all);
    return {
      summary: [
        { label: 'Jobs decided', value: String(totals.decided) },
        { label: 'Won', value: `${totals.won} (${formatCents(Math.round(Number(totals.won_value) * 100))})` },
        { label: 'Lost', value: `${totals.lost} (${formatCents(Math.round(Number(totals.lost_value) * 100))})` },
        { label: 'Win rate', value: formatPct(totals.win_rate as number | null) },
        { label: 'Win rate by value', value: formatPct(totals.value_win_rate as number | null) },
      ],
      tables: [groupTable, jobTable],
      truncated: scope.truncated,
    };
  },
};
