// The work-type report (docs/reports.md, "Work type"): what kind of work was bid from start to end
// (date basis `bid`, the job's first proposal sent, unless the request names another) and how much
// of it was won, by the job's work type (its first job type; a job of none is "(no work type)"), or
// by any group_by.
//
// Per group: bids (the jobs in range), bid value (their JOB_VALUE_CENTS), won (count and value),
// lost, the win rate won / (won + lost) (open and excluded jobs are bids nobody won or lost yet),
// the average bid (bid value / bids) and the group's share of all the bid value in the range. The
// total row is over the rows kept; its share is theirs of the whole.
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

function measuresRow(c: BidCounts, allBidCents: number): Row {
  return {
    bids: c.bids,
    bid_value: centsToDollars(c.bid_cents),
    won: c.won,
    won_value: centsToDollars(c.won_cents),
    lost: c.lost,
    win_rate: ratio(c.won, c.won + c.lost),
    average_bid: c.bids === 0 ? null : centsToDollars(Math.round(c.bid_cents / c.bids)),
    bid_share: ratio(c.bid_cents, allBidCents),
  };
}

export const workType: ReportDefinition = {
  key: 'work-type',
  title: 'Work type',
  section: 'Sales',
  description:
    'Jobs bid between start and end by work type (or any group_by): bids and bid value, won and lost, win rate, average bid and each type’s share of the bid value',
  date_basis: 'bid',
  uses: ['date_basis', ...JOB_FILTERS, 'group_by'],
  async run(ctx: ServiceContext, p) {
    const scope = await jobScope(ctx, p);
    const groups = await groupColumns(ctx, scope, p.groupBy.length > 0 ? p.groupBy : ['work_type']);
    const grouped = await groupedJobRows(scope, groups, BID_MEASURES);
    const all = summedMeasures(grouped, BID_MEASURES);
    const totals = bidCounts(all);
    const table: FullTable = {
      key: 'groups',
      title: `Bids by ${groups.map((g) => g.label.toLowerCase()).join(', ')}`,
      columns: [
        ...groupTableColumns(groups),
        { key: 'bids', label: 'Bids', kind: 'int' },
        { key: 'bid_value', label: 'Bid value', kind: 'money' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'lost', label: 'Lost', kind: 'int' },
        { key: 'win_rate', label: 'Win rate', kind: 'pct' },
        { key: 'average_bid', label: 'Average bid', kind: 'money' },
        { key: 'bid_share', label: 'Share of bid value', kind: 'pct' },
      ],
      rows: grouped.map((g) => ({ ...groupValues(groups, g), ...measuresRow(bidCounts(g), totals.bid_cents) })),
      total: (rows) => ({
        ...totalKeys(groups),
        ...measuresRow(bidCountsOfRows(rows, { bid: 'bid_value', won: 'won_value' }), totals.bid_cents),
      }),
      note: scope.note ?? 'Win rate is won / (won + lost): open and excluded jobs are bids but not rated',
    };
    const averageBid = totals.bids === 0 ? null : Math.round(totals.bid_cents / totals.bids);
    return {
      summary: [
        { label: 'Bids', value: String(totals.bids) },
        { label: 'Bid value', value: formatCents(totals.bid_cents) },
        { label: 'Won', value: `${totals.won} (${formatCents(totals.won_cents)})` },
        { label: 'Win rate', value: formatPct(ratio(totals.won, totals.won + totals.lost)) },
        { label: 'Average bid', value: averageBid === null ? '—' : formatCents(averageBid) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
