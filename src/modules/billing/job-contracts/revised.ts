// The job's contract, worked out in one place for every part of billing that reads it (change
// orders' revised_contract and their customer page, request-payment's over_contract and what it
// bills; docs/api-decisions.md, "Change orders" and "Online invoices: request payment").
//
// The original contract is a proposal's total (tax included, frozen once it was sent: what the
// customer agreed to), its budget that proposal's estimate's cost. The revised contract adds what
// approved change orders posted to the job (job_contracts, written by change-orders/contract.ts).
// A job's *signed* contract is its latest accepted proposal: the job has no contract column, and
// an estimate's price or the job's estimated_value is an offer or a guess, not what anyone signed,
// so without an accepted proposal there is no contract at all (null), never a stand-in figure.
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';

/** What the job's approved change orders posted (job_contracts), all zero when none did. */
export interface Posted {
  count: number;
  /** Their price change, tax included. */
  amountCents: number;
  taxCents: number;
  costCents: number;
  days: number;
}

export interface JobContract {
  /** The proposal whose total is the original contract. */
  proposal: Proposal;
  /** The original contract: the proposal's total, tax included. */
  originalCents: number;
  /** The original cost budget: the proposal's estimate's cost; null when it has none. */
  originalBudgetCents: number | null;
  changeOrders: Posted;
  /** The revised contract: the original plus what approved change orders posted. */
  revisedCents: number;
  /** The revised budget: the original budget plus the change orders' cost; null without one. */
  revisedBudgetCents: number | null;
}

async function postedOf(db: Executor, jobId: number): Promise<Posted> {
  const row = await db.selectFrom('job_contracts').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  return {
    count: Number(row?.approved_count ?? 0),
    amountCents: Number(row?.approved_amount_cents ?? 0),
    taxCents: Number(row?.approved_tax_cents ?? 0),
    costCents: Number(row?.approved_cost_cents ?? 0),
    days: Number(row?.approved_days ?? 0),
  };
}

async function estimateCostOf(db: Executor, estimateId: number | null): Promise<number | null> {
  if (estimateId === null) return null;
  const e = await db.selectFrom('estimates').select('cost_cents').where('id', '=', estimateId).executeTakeFirst();
  return e?.cost_cents == null ? null : Number(e.cost_cents);
}

/** The contract a proposal makes on its job, revised by the job's approved change orders. */
export async function contractOfProposal(db: Executor, proposal: Proposal): Promise<JobContract> {
  const [changeOrders, originalBudgetCents] = await Promise.all([
    postedOf(db, proposal.job_id),
    estimateCostOf(db, proposal.estimate_id),
  ]);
  const originalCents = Number(proposal.total_cents);
  return {
    proposal,
    originalCents,
    originalBudgetCents,
    changeOrders,
    revisedCents: originalCents + changeOrders.amountCents,
    revisedBudgetCents: originalBudgetCents === null ? null : originalBudgetCents + changeOrders.costCents,
  };
}

/**
 * The job's signed contract: its latest accepted proposal, revised; null when no proposal of the job
 * was accepted. Only a job estimate's proposal counts: a change-order estimate's would be a change,
 * not the contract (the estimates module makes none today; the filter keeps it so if it ever does).
 */
export async function signedContractOf(db: Executor, jobId: number): Promise<JobContract | null> {
  const signed = await db
    .selectFrom('proposals')
    .leftJoin('estimates', 'estimates.id', 'proposals.estimate_id')
    .selectAll('proposals')
    .where('proposals.job_id', '=', jobId)
    .where('proposals.status', '=', 'accepted')
    .where((eb) => eb.or([eb('estimates.is_change_order', '=', 0), eb('proposals.estimate_id', 'is', null)]))
    .orderBy('proposals.accepted_at', 'desc')
    .orderBy('proposals.id', 'desc')
    .executeTakeFirst();
  return signed ? contractOfProposal(db, signed) : null;
}
