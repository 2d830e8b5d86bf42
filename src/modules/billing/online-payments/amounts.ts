// What a payment request bills (document 3, POST /v1/estimates/{id}/request-payment: kind full,
// deposit, progress = work done minus already billed, itemized), worked out purely from the
// contract and what the job's invoices already bill. All integer cents; no database, no clock.
//
// The contract is the proposal's total (what the customer was offered, frozen once sent) plus what
// approved change orders posted to the job (the revised contract). "Work done" is the share of the contract the office says is complete (percent_complete), all of it
// once the job sits in a completed stage, else what its work orders have done (work-done.ts);
// docs/api-decisions.md ("Online payments") says how.
import type { StoredLineItem } from '#billing/invoices/rules.ts';
import { depositCents } from '#estimating/index.ts';
import { formatCents } from '#platform/money.ts';

export type RequestKind = 'full' | 'deposit' | 'progress' | 'itemized';

export interface Contract {
  title: string;
  /** The proposal's figures. */
  subtotalCents: number;
  taxCents: number;
  depositPercent: number | null;
  /** The proposal's priced lines that are in its total (optional ones are not). */
  lines: readonly { lineId: number; name: string; quantity: number; priceCents: number }[];
  /** What approved change orders added (negative: took off), before tax, and their tax. */
  changeOrders: { count: number; subtotalCents: number; taxCents: number };
  /** The revised contract: the proposal's subtotal and tax with the change orders'. */
  totalCents: number;
}

export interface Requested {
  billingType: 'full' | 'deposit' | 'milestone' | 'line_items';
  lines: StoredLineItem[];
  discountCents: number;
  taxCents: number;
  /** What the invoice asks for: sum(lines) - discount + tax. */
  amountCents: number;
}

/** Why nothing can be requested (409 with this code). */
export type NothingToBill = { refused: 'no_deposit' | 'nothing_to_bill'; message: string };

/** percent (at most two decimals) of cents, to the cent, half up: exact integer arithmetic. */
export function percentOf(cents: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((cents * basisPoints + 5000) / 10_000);
}

const sum = (lines: readonly StoredLineItem[]) => lines.reduce((s, l) => s + l.amount_cents, 0);

/**
 * The whole contract as the invoice bills it: `lines` for the proposal's part, then the approved
 * change orders as one line (or, when they took money off, a discount), and all the tax. A line is
 * never zero or negative (document 3: amount > 0), so a cent gap or a reduction is a discount.
 */
function wholeContract(c: Contract, lines: StoredLineItem[], billingType: Requested['billingType']): Requested {
  const co = c.changeOrders;
  if (co.count > 0 && co.subtotalCents > 0)
    lines.push({ description: `Approved change orders (${co.count})`, amount_cents: co.subtotalCents });
  const wanted = c.subtotalCents + co.subtotalCents;
  const gap = wanted - sum(lines);
  if (gap > 0) lines.push({ description: 'Rounding of line prices', amount_cents: gap });
  const discountCents = gap < 0 ? -gap : 0;
  const taxCents = c.taxCents + co.taxCents;
  return { billingType, lines, discountCents, taxCents, amountCents: sum(lines) - discountCents + taxCents };
}

/**
 * The contract line by line: the proposal's priced lines at their shown prices. Shown prices are
 * rounded per line, so they may miss the subtotal by a few cents: wholeContract closes the gap, so
 * the invoice always bills the contract exactly.
 */
function itemized(c: Contract): Requested {
  const lines = c.lines
    .filter((l) => l.priceCents > 0)
    .map((l): StoredLineItem => ({ description: l.name, amount_cents: l.priceCents }));
  if (lines.length === 0) lines.push({ description: c.title, amount_cents: c.subtotalCents });
  return wholeContract(c, lines, 'line_items');
}

export function requestedOf(
  kind: RequestKind,
  c: Contract,
  billedCents: number,
  percentComplete: number,
): Requested | NothingToBill {
  const r = requestedBy(kind, c, billedCents, percentComplete);
  // Change orders that took off more than the proposal asked leave nothing to bill.
  if (!('refused' in r) && r.amountCents <= 0)
    return { refused: 'nothing_to_bill', message: 'The revised contract comes to nothing: there is nothing to bill' };
  return r;
}

function requestedBy(
  kind: RequestKind,
  c: Contract,
  billedCents: number,
  percentComplete: number,
): Requested | NothingToBill {
  switch (kind) {
    case 'full':
      return wholeContract(c, [{ description: c.title, amount_cents: c.subtotalCents }], 'full');
    case 'itemized':
      return itemized(c);
    case 'deposit': {
      // The proposal's deposit is a share of what the proposal offered, not of later change orders.
      const deposit = depositCents(c.subtotalCents + c.taxCents, c.depositPercent);
      if (deposit === null || deposit <= 0)
        return {
          refused: 'no_deposit',
          message: 'The proposal asks for no deposit: set its deposit_percent, or request another kind',
        };
      return {
        billingType: 'deposit',
        lines: [{ description: `Deposit (${c.depositPercent}%): ${c.title}`, amount_cents: deposit }],
        discountCents: 0,
        taxCents: 0,
        amountCents: deposit,
      };
    }
    case 'progress': {
      const workDone = percentOf(c.totalCents, percentComplete);
      const due = workDone - billedCents;
      if (due <= 0)
        return {
          refused: 'nothing_to_bill',
          message: `Work done (${percentComplete}% of the contract) is already billed`,
        };
      return {
        billingType: 'milestone',
        lines: [{ description: progressDescription(c, percentComplete, workDone, billedCents), amount_cents: due }],
        discountCents: 0,
        taxCents: 0,
        amountCents: due,
      };
    }
  }
}

/**
 * The progress line says how its amount was reached, so the customer can check it by hand (issue 24):
 * "Progress billing, 75% complete: Paving (75% of $53,306.34 = $39,979.76, less $19,177.09 billed
 * before)". Without the figures, "75% complete" beside an amount that is 75% of nothing shown reads
 * as an error.
 */
function progressDescription(c: Contract, percent: number, workDoneCents: number, billedCents: number): string {
  const less = billedCents > 0 ? `, less ${formatCents(billedCents)} billed before` : '';
  return `Progress billing, ${percent}% complete: ${c.title} (${percent}% of ${formatCents(c.totalCents)} = ${formatCents(workDoneCents)}${less})`;
}

/** Billing `amountCents` on top of what is billed goes past the contract (409 over_contract). */
export const overContract = (c: Pick<Contract, 'totalCents'>, billedCents: number, amountCents: number) =>
  billedCents + amountCents > c.totalCents;
