// What the sales reports (work-type, market-analysis, zip-code) count of a group of bid jobs, the
// same way in each: how many and how much was bid, won and lost, as conditional sums of one GROUP
// BY (group-by.ts). A job's value is JOB_VALUE_CENTS; its outcome is its stage's type. Rates are
// won / (won + lost): open and excluded jobs are counted as bids but nobody won or lost them.
import { sql } from 'kysely';
import type { GroupColumn } from './group-by.ts';
import { JOB_VALUE_CENTS } from './job-scope.ts';
import type { Row } from './run-result.ts';
import { countOf, sumMoney } from './table-math.ts';

const outcomeIs = (type: string) => sql<number>`sum(case when stage.type = ${type} then 1 else 0 end)`;
const valueIf = (type: string) => sql<number>`sum(case when stage.type = ${type} then ${JOB_VALUE_CENTS} else 0 end)`;

/** A group's bids (jobs), their value, and those won and lost, in cents. */
export const BID_MEASURES = {
  bids: sql<number>`count(*)`,
  bid_cents: sql<number>`sum(${JOB_VALUE_CENTS})`,
  won: outcomeIs('won'),
  won_cents: valueIf('won'),
  lost: outcomeIs('lost'),
  lost_cents: valueIf('lost'),
};

/** An aggregated row's measures as numbers (PostgreSQL answers sums as text, an empty sum as null). */
export interface BidCounts {
  bids: number;
  bid_cents: number;
  won: number;
  won_cents: number;
  lost: number;
  lost_cents: number;
}

export const bidCounts = (m: Record<string, unknown> | undefined): BidCounts => ({
  bids: Number(m?.bids ?? 0),
  bid_cents: Number(m?.bid_cents ?? 0),
  won: Number(m?.won ?? 0),
  won_cents: Number(m?.won_cents ?? 0),
  lost: Number(m?.lost ?? 0),
  lost_cents: Number(m?.lost_cents ?? 0),
});

/** The counts of table rows (for a total row): money columns summed exactly in cents. */
export const bidCountsOfRows = (
  rows: readonly Row[],
  keys: { bid?: string; won?: string; lost?: string } = {},
): BidCounts => ({
  bids: countOf(rows, 'bids'),
  bid_cents: keys.bid ? Math.round(sumMoney(rows, keys.bid) * 100) : 0,
  won: countOf(rows, 'won'),
  won_cents: keys.won ? Math.round(sumMoney(rows, keys.won) * 100) : 0,
  lost: countOf(rows, 'lost'),
  lost_cents: keys.lost ? Math.round(sumMoney(rows, keys.lost) * 100) : 0,
});

/** A grouped row's key values as text. */
export const groupValues = (groups: readonly GroupColumn[], g: Record<string, unknown>) =>
  Object.fromEntries(groups.map((c) => [c.key, String(g[c.key])]));

/** A total row's key columns: "Total" in the first, null in the others. */
export const totalKeys = (groups: readonly GroupColumn[]) =>
  Object.fromEntries(groups.map((c, i) => [c.key, i === 0 ? 'Total' : null]));

/** The job filters every job report takes, and date_basis. */
export const JOB_FILTERS = [
  'salesperson_ids',
  'estimator_ids',
  'customer_ids',
  'division_ids',
  'statuses',
  'work_types',
  'outcomes',
] as const;
