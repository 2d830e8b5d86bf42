// What a payment request bills (document 3, POST /v1/estimates/{id}/request-payment: kind full,
// deposit, progress = work done minus already billed, itemized), worked out purely from the
// contract and what the job's invoices already bill. All integer cents; no database, no clock.
//
// The contract is the proposal's total (what the customer was offered, frozen once sent). "Work
// done" is the share of the contract the office says is complete (percent_complete), or all of it
// once the job sits in a completed stage; docs/api-decisions.md ("Online payments") says how it
// will come from work-order progress once work orders exist.
import type { StoredLineItem } from '#billing/invoices/rules.ts';
import { depositCents } from '#estimating/proposals/priced.ts';

export type RequestKind = 'full' | 'deposit' | 'progress' | 'itemized';

export interface Contract {
  title: string;
  subtotalCents: number;
  taxCents: number;
  /** subtotal + tax: what the customer agreed to pay in all. */
  totalCents: number;
  depositPercent: number | null;
  /** The proposal's priced lines that are in the total (optional ones are not). */
  lines: readonly { name: string; priceCents: number }[];
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
 * The contract line by line: its priced lines at their shown prices, tax apart. Shown prices are
 * rounded per line, so they may miss the subtotal by a few cents: the difference is its own line
 * (or, when the lines come to more, a discount), so the invoice always bills the contract exactly.
 */
function itemized(c: Contract): Requested {
  const lines = c.lines
    .filter((l) => l.priceCents > 0)
    .map((l): StoredLineItem => ({ description: l.name, amount_cents: l.priceCents }));
  const gap = c.subtotalCents - sum(lines);
  if (gap > 0) lines.push({ description: 'Rounding of line prices', amount_cents: gap });
  if (lines.length === 0) lines.push({ description: c.title, amount_cents: c.subtotalCents });
  const discountCents = gap < 0 ? -gap : 0;
  return {
    billingType: 'line_items',
    lines,
    discountCents,
    taxCents: c.taxCents,
    amountCents: sum(lines) - discountCents + c.taxCents,
  };
}

export function requestedOf(
  kind: RequestKind,
  c: Contract,
  billedCents: number,
  percentComplete: number,
): Requested | NothingToBill {
  switch (kind) {
    case 'full':
      return {
        billingType: 'full',
        lines: [{ description: c.title, amount_cents: c.subtotalCents }],
        discountCents: 0,
        taxCents: c.taxCents,
        amountCents: c.totalCents,
      };
    case 'itemized':
      return itemized(c);
    case 'deposit': {
      const deposit = depositCents(c.totalCents, c.depositPercent);
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
        lines: [{ description: `Progress billing: ${percentComplete}% of ${c.title} complete`, amount_cents: due }],
        discountCents: 0,
        taxCents: 0,
        amountCents: due,
      };
    }
  }
}

/** Billing `amountCents` on top of what is billed goes past the contract (409 over_contract). */
export const overContract = (c: Pick<Contract, 'totalCents'>, billedCents: number, amountCents: number) =>
  billedCents + amountCents > c.totalCents;
