// What change orders do to a job's money (document 3, Change order state table: approval "posts to
// contract value and budget"; docs/api-decisions.md, "Change orders"). The contract they change is
// the job's signed contract (its latest accepted proposal, job-contracts/revised.ts, the same figure
// request-payment bills against); with none signed, the contract and budget are null, never a
// stand-in. Approval posts the change order's amount, tax, cost and days to job_contracts in the
// approval's transaction; voiding an approved quick change order takes its posting back.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder } from '#db/tables.ts';
import type { MergeMover } from '#src/area.ts';
import { signedContractOf } from '#billing/job-contracts/revised.ts';
import { now } from '#platform/time.ts';
import type { Figures } from './figures.ts';

export interface JobMoney {
  contract_cents: number | null;
  budget_cents: number | null;
}

/** The job's contract value and budget with every approved change order posted (null: none signed). */
async function revisedJobMoney(db: Executor, jobId: number): Promise<JobMoney> {
  const contract = await signedContractOf(db, jobId);
  return {
    contract_cents: contract?.revisedCents ?? null,
    budget_cents: contract?.revisedBudgetCents ?? null,
  };
}

/**
 * The job's contract and budget once a change order with these figures is posted: what its page
 * shows and the customer signs, and (worked out the same way, under the same lock) what its
 * approval keeps, so the two can never differ.
 */
export async function withChange(db: Executor, jobId: number, f: Figures): Promise<JobMoney> {
  const job = await revisedJobMoney(db, jobId);
  return {
    contract_cents: job.contract_cents === null ? null : job.contract_cents + f.amount_cents,
    budget_cents: job.budget_cents === null ? null : job.budget_cents + f.cost_cents,
  };
}

/** What is added to a job's posted totals (negative to take back). */
interface Posting {
  amount_cents: number;
  tax_cents: number;
  cost_cents: number;
  days: number;
  count: number;
}

async function post(trx: Executor, firmId: number, jobId: number, p: Posting): Promise<void> {
  const t = now();
  await trx
    .insertInto('job_contracts')
    .values({
      job_id: jobId,
      firm_id: firmId,
      approved_amount_cents: p.amount_cents,
      approved_tax_cents: p.tax_cents,
      approved_cost_cents: p.cost_cents,
      approved_days: p.days,
      approved_count: p.count,
      updated_at: t,
    })
    .onConflict((oc) =>
      oc.column('job_id').doUpdateSet((eb) => ({
        approved_amount_cents: eb('job_contracts.approved_amount_cents', '+', eb.ref('excluded.approved_amount_cents')),
        approved_tax_cents: eb('job_contracts.approved_tax_cents', '+', eb.ref('excluded.approved_tax_cents')),
        approved_cost_cents: eb('job_contracts.approved_cost_cents', '+', eb.ref('excluded.approved_cost_cents')),
        approved_days: eb('job_contracts.approved_days', '+', eb.ref('excluded.approved_days')),
        approved_count: eb('job_contracts.approved_count', '+', eb.ref('excluded.approved_count')),
        updated_at: t,
      })),
    )
    .execute();
}

type Posted = Pick<ChangeOrder, 'firm_id' | 'job_id' | 'days_delta'>;

/**
 * Posts an approval; answers the job's contract and budget with it, which the change order keeps:
 * worked out before the posting by withChange, exactly as the signed page showed them.
 */
export async function postApproval(trx: Executor, co: Posted, f: Figures): Promise<JobMoney> {
  const kept = await withChange(trx, co.job_id, f);
  await post(trx, co.firm_id, co.job_id, { ...f, days: co.days_delta, count: 1 });
  return kept;
}

/** Takes back what an approved change order posted (voiding an approved quick one). */
export function reversePosting(trx: Executor, co: ChangeOrder): Promise<void> {
  return post(trx, co.firm_id, co.job_id, {
    amount_cents: -co.amount_delta_cents,
    tax_cents: -co.tax_delta_cents,
    cost_cents: -co.cost_delta_cents,
    days: -co.days_delta,
    count: -1,
  });
}

/** A job merge adds what the merged-away job's change orders posted to the kept job's. */
export const jobContractMergeMover: MergeMover = {
  label: 'posted change orders',
  async move(trx, from, to) {
    const posted = await trx.selectFrom('job_contracts').selectAll().where('job_id', '=', from).executeTakeFirst();
    if (!posted) return;
    await trx.deleteFrom('job_contracts').where('job_id', '=', from).execute();
    await post(trx, posted.firm_id, to, {
      amount_cents: posted.approved_amount_cents,
      tax_cents: posted.approved_tax_cents,
      cost_cents: posted.approved_cost_cents,
      days: posted.approved_days,
      count: posted.approved_count,
    });
  },
};
