// The zip-code report (docs/reports.md, "ZIP code"): where the bids went and where the work was
// won, by the job's ZIP then city (read from its address when it is written: the last five-digit
// group and the part before the state; platform/address-parts.ts). The jobs bid from start to end
// (date basis `bid`, the job's first proposal sent, unless the request names another), with the
// job filters; the grouping is fixed (no group_by).
//
// Per ZIP and city: bids (the jobs in range) and bid value (their JOB_VALUE_CENTS), won (count and
// value), lost, the win rate won / (won + lost) and the row's share of all the won value. Jobs whose
// address has no ZIP are one "(no ZIP)" row, listed last, and the table's note counts them. The
// total row is over the rows kept; its share is theirs of the whole.
//
// One GROUP BY for the rows; the totals are their sums (group-by.ts, summedMeasures).
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

const NO_ZIP = '(no ZIP)';

function measuresRow(c: BidCounts, all: BidCounts): Row {
  return {
    bids: c.bids,
    bid_value: centsToDollars(c.bid_cents),
    won: c.won,
    won_value: centsToDollars(c.won_cents),
    lost: c.lost,
    win_rate: ratio(c.won, c.won + c.lost),
    won_share: ratio(c.won_cents, all.won_cents),
  };
}

export const zipCode: ReportDefinition = {
  key: 'zip-code',
  title: 'ZIP code',
  section: 'Sales',
  description:
    'Jobs bid between start and end by ZIP code and city: bids and bid value, won and lost, win rate and each area’s share of the won value',
  date_basis: 'bid',
  uses: ['date_basis', ...JOB_FILTERS],
  async run(ctx: ServiceContext, p) {
    const scope = await jobScope(ctx, p);
    const groups = await groupColumns(ctx, scope, ['zip', 'city']);
    const grouped = await groupedJobRows(scope, groups, BID_MEASURES);
    const allRow = summedMeasures(grouped, BID_MEASURES);
    const all = bidCounts(allRow);
    // By ZIP then city (the GROUP BY's order), the jobs without a ZIP last.
    const ordered = [...grouped.filter((g) => g.zip !== NO_ZIP), ...grouped.filter((g) => g.zip === NO_ZIP)];
    const noZip = bidCounts(
      Object.fromEntries(
        Object.keys(BID_MEASURES).map((k) => [
          k,
          grouped.filter((g) => g.zip === NO_ZIP).reduce((s, g) => s + Number(g[k] ?? 0), 0),
        ]),
      ),
    );
    const zips = new Set(grouped.filter((g) => g.zip !== NO_ZIP).map((g) => String(g.zip))).size;
    const noZipNote =
      noZip.bids === 0
        ? null
        : `${noZip.bids} ${noZip.bids === 1 ? 'job has' : 'jobs have'} no ZIP in ${noZip.bids === 1 ? 'its address' : 'their addresses'} (${formatCents(noZip.bid_cents)} bid): the ${NO_ZIP} row`;
    const table: FullTable = {
      key: 'zip_codes',
      title: 'Bids by ZIP code and city',
      columns: [
        ...groupTableColumns(groups),
        { key: 'bids', label: 'Bids', kind: 'int' },
        { key: 'bid_value', label: 'Bid value', kind: 'money' },
        { key: 'won', label: 'Won', kind: 'int' },
        { key: 'won_value', label: 'Won value', kind: 'money' },
        { key: 'lost', label: 'Lost', kind: 'int' },
        { key: 'win_rate', label: 'Win rate', kind: 'pct' },
        { key: 'won_share', label: 'Share of won value', kind: 'pct' },
      ],
      rows: ordered.map((g) => ({ ...groupValues(groups, g), ...measuresRow(bidCounts(g), all) })),
      total: (rows) => ({
        ...totalKeys(groups),
        ...measuresRow(bidCountsOfRows(rows, { bid: 'bid_value', won: 'won_value' }), all),
      }),
      note: [scope.note, noZipNote].filter((n) => n !== null).join('. ') || null,
    };
    return {
      summary: [
        { label: 'Bids', value: String(all.bids) },
        { label: 'Bid value', value: formatCents(all.bid_cents) },
        { label: 'Won', value: `${all.won} (${formatCents(all.won_cents)})` },
        { label: 'Win rate', value: formatPct(ratio(all.won, all.won + all.lost)) },
        { label: 'ZIP codes', value: String(zips) },
      ],
      tables: [table],
      truncated: scope.truncated,
    };
  },
};
