// The market-analysis report (docs/reports.md, "Market analysis"): where the work comes from. The
// jobs bid from start to end (date basis `bid`, the job's first proposal sent, unless the request
// names another) by market, by default the job's customer type and property type (job details; a
// blank is "(none)"), or by any group_by.
//
// Per group: bids (the jobs in range) and bid value (their JOB_VALUE_CENTS), the group's share of
// all the bids (by count), won (count and value), its share of all the won value, lost, the win rate
// won / (won + lost) (open and excluded jobs are bids nobody won or lost yet) and the average won
// job (won value / won). The total row is over the rows kept; its shares are theirs of the whole.
//
// One GROUP BY for the groups; the totals are their sums (group-by.ts, summedMeasures).
import type { ServiceContext } from '#platform/context.ts';
import { centsToDollars, formatCents } from '#platform/money.ts';
import { groupColumns, groupedJobRows, groupTableColumns, summedMeasures } from './group-by.ts';
import { jobScope } from './job-scope.ts';
import type { ReportDefinition } from './run.ts';
import type { FullTable, Row } from './run-result.ts';
import {
  BID_MEASURES,
  type BidCounts,
  bidCounts,
  bidCountsOfRows,
  groupValues,
  JOB_FILTERS,
  totalKeys,
} from './sales-measures.ts';
import { formatPct, ratio } from './table-math.ts';

function measuresRow(c: BidCounts, all: BidCounts): Row {
  return {
    bids: c.bids,
    bid_value: centsToDollars(c.bid_cents),
    bid_share: ratio(c.bids, all.bids),
    won: c.won,
    won_value: centsToDollars(c.won_cents),
    won_share: ratio(c.won_cents, all.won_cents),
    lost: c.lost,
    win_rate: ratio(c.won, c.won + c.lost),
    average_won: c.won === 0 ? null : centsToDollars(Math.round(c.won_cents / c.won)),
  };
}

export const marketAnalysis: ReportDefinition = {
  key: 'market-analysis',
  title: 'Market analysis',
  section: 'Sales',
  description:
    'Where the work comes from: jobs bid between start and end by customer type and property type (or any group_by), with each market’s share of the bids and of the won value, its win rate and average won job',
  date_basis: 'bid',
  uses: ['date_basis', ...JOB_FILTERS, 'group_by'],
  async run(ctx: ServiceContext, p) {
    const scope = await jobScope(ctx, p);
    const groups = await groupColumns(
      ctx,
      scope,
      p.groupBy.length > 0 ? p.groupBy : ['customer_type', 'property_type'],
    );
    const grouped = await groupedJobRows(scope, groups, BID_MEASURES);
    const allRow = summedMeasures(grouped, BID_MEASURES);
    const all = bidCounts(allRow);
    const table: FullTable = {
      key: 'markets',
      title: `Bids by ${groups.map((g) => g.label.toLowerCase()).join(', ')}`,
      columns: [
        ...groupTableColumns(groups),
        { key: 'bids', label: 'Bids', kind: 'int' },
        { key: 'bid_value', label: 'Bid value', kind: 'money' },
        { key: 'bid_share', label: 'Share of bids', kind: 'pct' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'won_share', label: 'Share of won value', kind: 'pct' },
        { key: 'lost', label: 'Lost', kind: 'int' },
        { key: 'win_rate', label: 'Win rate', kind: 'pct' },
        { key: 'average_won', label: 'Average won job', kind: 'money' },
      ],
      rows: grouped.map((g) => ({ ...groupValues(groups, g), ...measuresRow(bidCounts(g), all) })),
      total: (rows) => ({
        ...totalKeys(groups),
        ...measuresRow(bidCountsOfRows(rows, { bid: 'bid_value', won: 'won_value' }), all),
      }),
      note: scope.note ?? 'Win rate is won / (won + lost): open and excluded jobs are bids but not rated',
    };
    return {
      summary: [
        { label: 'Bids', value: String(all.bids) },
        { label: 'Bid value', value: formatCents(all.bid_cents) },
        { label: 'Won', value: `${all.won} (${formatCents(all.won_cents)})` },
        { label: 'Win rate', value: formatPct(ratio(all.won, all.won + all.lost)) },
        {
          label: 'Average won job',
          value: all.won === 0 ? '—' : formatCents(Math.round(all.won_cents / all.won)),
        },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
