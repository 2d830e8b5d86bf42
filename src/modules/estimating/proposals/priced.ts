// The priced part of a proposal: the estimate's lines as the customer sees them (document 3,
// Estimate line item: hidden lines are priced but not listed; a bundle shows as its master line;
// allocated_price is the price shown after job-level money is spread; optional lines are shown
// apart and are not in the total), with the totals. Taken from the estimate's stored calculation
// while the proposal is a draft; once sent it is frozen (the customer keeps what they saw).
import type { Estimate, EstimateLine } from '#db/tables.ts';
import { dollarsToCents } from '#platform/money.ts';
import { calculationOf, linesInBid } from '#estimating/estimates/calculation.ts';
import type { EstimateTree } from '#estimating/estimates/repo.ts';

export interface PricedLine {
  line_id: number;
  area: string | null;
  name: string;
  /** The line's proposal text, else its catalog service's (plain text). */
  description: string | null;
  /** HTML printed under the line (cleaned when shown). */
  what_to_expect: string | null;
  quantity: number;
  unit: string | null;
  /** The allocated price (an optional line: its own price). */
  price_cents: number;
  taxable: boolean;
  optional: boolean;
  group: string | null;
}

/** What `proposals.priced` stores; the totals sit in their own columns. */
export interface Priced {
  lines: PricedLine[];
  /** The estimate's tax rate (fraction), for showing tax inside item prices. */
  tax_rate: number | null;
}

export interface PricedTotals {
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  optional_total_cents: number;
}

/** Why an estimate cannot become a proposal yet (409 with the reason), or null when it can. */
export function notReadyReason(
  estimate: Estimate,
  listed: number,
): {
  code:
    | 'estimate_not_priced'
    | 'estimate_has_no_lines'
    | 'estimate_has_no_job'
    | 'estimate_archived'
    | 'change_order_estimate';
  message: string;
} | null {
  if (estimate.archived_at !== null)
    return { code: 'estimate_archived', message: 'The estimate is archived; restore it before making a proposal' };
  if (estimate.is_change_order === 1)
    return {
      code: 'change_order_estimate',
      message: 'A change-order estimate goes to the customer as a change order, not a proposal',
    };
  if (estimate.job_id === null)
    return { code: 'estimate_has_no_job', message: 'The estimate is not on a job; a proposal is sent for a job' };
  if (estimate.priced !== 1)
    return { code: 'estimate_not_priced', message: 'The estimate has never been priced; recalculate it first' };
  if (listed === 0)
    return {
      code: 'estimate_has_no_lines',
      message: 'The estimate has no line items to show (every line is hidden, excluded or inactive)',
    };
  return null;
}

/** The lines a proposal lists, in the estimate's area and line order. */
export function pricedOf(
  tree: EstimateTree,
  proposalTexts: ReadonlyMap<number, string | null>,
  taxRate: number | null,
): Priced {
  const calc = calculationOf(tree.estimate);
  const areaName = new Map(tree.areas.map((a) => [a.id, a.name]));
  const areaPosition = new Map(tree.areas.map((a) => [a.id, a.position]));
  const inBid = linesInBid(tree)
    .filter((l) => l.hide_on_proposal !== 1 && l.bundle_parent_service_id === null)
    .sort(
      (a, b) =>
        (areaPosition.get(a.area_id) ?? 0) - (areaPosition.get(b.area_id) ?? 0) ||
        a.position - b.position ||
        a.id - b.id,
    );
  const lines = inBid.map((l: EstimateLine): PricedLine => {
    const n = calc?.lines[String(l.id)] ?? null;
    const price = n?.allocated_price ?? n?.price ?? 0;
    return {
      line_id: l.id,
      area: areaName.get(l.area_id) ?? null,
      name: l.name,
      description: l.proposal_text ?? (l.assembly_id !== null ? (proposalTexts.get(l.assembly_id) ?? null) : null),
      what_to_expect: l.what_to_expect,
      quantity: Number(l.quantity),
      unit: l.unit,
      price_cents: dollarsToCents(price),
      taxable: l.taxable === 1,
      optional: l.is_optional === 1,
      group: l.proposal_group,
    };
  });
  return { lines, tax_rate: taxRate };
}

/** The estimate's totals in cents (it is priced: notReadyReason checked). */
export function totalsOfEstimate(e: Estimate): PricedTotals {
  return {
    subtotal_cents: Number(e.subtotal_cents ?? 0),
    tax_cents: Number(e.tax_cents ?? 0),
    total_cents: Number(e.price_cents ?? 0),
    optional_total_cents: Number(e.optional_total_cents ?? 0),
  };
}

/** The deposit asked for: the percent of the total, to the cent (half up); null without one. */
export function depositCents(totalCents: number, percent: number | null): number | null {
  if (percent === null) return null;
  // percent has at most 2 decimals (schema), so percent×100 is an integer: exact integer arithmetic.
  const basisPoints = Math.round(percent * 100);
  return Math.floor((totalCents * basisPoints + 5000) / 10_000);
}
