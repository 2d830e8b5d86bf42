// A change order's money (document 3, Change order: amount_delta, tax_delta, cost_delta, lines by
// cost code). A quick change order carries what the office typed. A priced one (tm, full) takes its
// figures from its change-order estimate while it is open (draft or sent), so an estimator's edits
// show at once; deciding or voiding it freezes them in its row. An additive estimate prices the
// new scope alone; a revision is a repriced copy of the job's estimate, so its change is the copy's
// figures less the ones it was copied from (base_*), by cost code too.
import type { ChangeOrder, Estimate } from '#db/tables.ts';
import { calculationOf, type EstimateTree, linesInBid } from '#estimating/index.ts';

import { centsToDollars, dollarsToCents, formatCents } from '#platform/money.ts';

/** One cost code's share of a change order, in cents (before tax). */
export interface CostCodeLine {
  cost_code: string | null;
  amount_cents: number;
  cost_cents: number;
}

export interface Figures {
  amount_cents: number;
  tax_cents: number;
  cost_cents: number;
}

/** The estimate totals a priced change order reads (null columns: never priced). */
export type EstimateTotals = Pick<Estimate, 'price_cents' | 'tax_cents' | 'cost_cents'>;

/** A priced change order whose figures still follow its estimate. */
export const followsEstimate = (co: Pick<ChangeOrder, 'kind' | 'status' | 'ep_estimate_id'>) =>
  co.kind !== 'quick' && co.ep_estimate_id !== null && (co.status === 'draft' || co.status === 'sent');

const byCode = (a: CostCodeLine, b: CostCodeLine) =>
  a.cost_code === b.cost_code
    ? 0
    : a.cost_code === null
      ? 1
      : b.cost_code === null
        ? -1
        : a.cost_code.localeCompare(b.cost_code);

/**
 * An estimate's lines in the bid summed by cost code: top-level lines only (a bundle's price
 * already holds its sub-lines), optional lines left out (they are not in the price), each at the
 * price the proposal shows after job-level money is spread (allocated_price).
 */
export function costCodeLines(tree: EstimateTree): CostCodeLine[] {
  const calc = calculationOf(tree.estimate);
  const sums = new Map<string | null, CostCodeLine>();
  for (const line of linesInBid(tree)) {
    if (line.bundle_parent_service_id !== null || line.is_optional === 1) continue;
    const n = calc?.lines[String(line.id)];
    if (!n) continue;
    const sum = sums.get(line.cost_code) ?? { cost_code: line.cost_code, amount_cents: 0, cost_cents: 0 };
    sum.amount_cents += dollarsToCents(n.allocated_price ?? n.price);
    sum.cost_cents += dollarsToCents(n.cost);
    sums.set(line.cost_code, sum);
  }
  return [...sums.values()].sort(byCode);
}

/** `now` less `base` by cost code, leaving out codes that did not change. */
export function linesChange(now: CostCodeLine[], base: CostCodeLine[] | null): CostCodeLine[] {
  const out = new Map<string | null, CostCodeLine>();
  for (const l of now) out.set(l.cost_code, { ...l });
  for (const b of base ?? []) {
    const l = out.get(b.cost_code) ?? { cost_code: b.cost_code, amount_cents: 0, cost_cents: 0 };
    l.amount_cents -= b.amount_cents;
    l.cost_cents -= b.cost_cents;
    out.set(b.cost_code, l);
  }
  return [...out.values()].filter((l) => l.amount_cents !== 0 || l.cost_cents !== 0).sort(byCode);
}

/** A priced change order's figures from its estimate's totals (less the revision's base). */
export function figuresFromEstimate(
  co: Pick<ChangeOrder, 'base_price_cents' | 'base_tax_cents' | 'base_cost_cents'>,
  e: EstimateTotals,
): Figures {
  return {
    amount_cents: (e.price_cents ?? 0) - (co.base_price_cents ?? 0),
    tax_cents: (e.tax_cents ?? 0) - (co.base_tax_cents ?? 0),
    cost_cents: (e.cost_cents ?? 0) - (co.base_cost_cents ?? 0),
  };
}

/** The figures the row stores (a quick one's, or a priced one's as last frozen). */
export const storedFigures = (co: ChangeOrder): Figures => ({
  amount_cents: co.amount_delta_cents,
  tax_cents: co.tax_delta_cents,
  cost_cents: co.cost_delta_cents,
});

export const parseLines = (json: string | null): CostCodeLine[] | null =>
  json === null ? null : (JSON.parse(json) as CostCodeLine[]);

export const wireLines = (lines: CostCodeLine[]) =>
  lines.map((l) => ({
    cost_code: l.cost_code,
    amount: centsToDollars(l.amount_cents),
    cost: centsToDollars(l.cost_cents),
  }));

/** A change in dollars as the customer reads it: "+$1,250.00", "−$80.00", "$0.00". */
export const signedMoney = (cents: number) =>
  cents === 0 ? formatCents(0) : `${cents < 0 ? '−' : '+'}${formatCents(Math.abs(cents))}`;
