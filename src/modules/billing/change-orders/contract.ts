// What change orders do to a job's money (document 3, Change order state table: approval "posts to
// contract value and budget"; docs/api-decisions.md, "Change orders"). The job has no contract
// column: its original contract value is the price of its won estimate, else the total of its last
// accepted proposal, else its estimated_value; its original (cost) budget is that estimate's cost.
// Approval posts the change order's amount, tax, cost and days to job_contracts in the approval's
// transaction; voiding an approved quick change order takes its posting back. The revised contract
// is the original plus what approved change orders posted; with no original it is null.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder } from '#db/tables.ts';
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';
import type { Figures } from './figures.ts';

export interface JobMoney {
  contract_cents: number | null;
  budget_cents: number | null;
}

async function originalOf(db: Executor, jobId: number): Promise<JobMoney> {
  const won = await db
    .selectFrom('estimates')
    .select(['price_cents', 'cost_cents'])
    .where('job_id', '=', jobId)
    .where('status', '=', 'won')
    .where('is_change_order', '=', 0)
    .where('archived_at', 'is', null)
    .orderBy('awarded_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (won && won.price_cents !== null) return { contract_cents: won.price_cents, budget_cents: won.cost_cents };
  const accepted = await db
    .selectFrom('proposals')
    .leftJoin('estimates', 'estimates.id', 'proposals.estimate_id')
    .select(['proposals.total_cents', 'estimates.cost_cents'])
    .where('proposals.job_id', '=', jobId)
    .where('proposals.status', '=', 'accepted')
    .orderBy('proposals.accepted_at', 'desc')
    .orderBy('proposals.id', 'desc')
    .executeTakeFirst();
  if (accepted) return { contract_cents: accepted.total_cents, budget_cents: accepted.cost_cents };
  const job = await db
    .selectFrom('jobs')
    .select('estimated_value_cents')
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
  return { contract_cents: job.estimated_value_cents, budget_cents: null };
}

/** The job's contract value and budget with every approved change order posted. */
export async function revisedJobMoney(db: Executor, jobId: number): Promise<JobMoney> {
  const [original, posted] = await Promise.all([
    originalOf(db, jobId),
    db.selectFrom('job_contracts').selectAll().where('job_id', '=', jobId).executeTakeFirst(),
  ]);
  const plus = (base: number | null, delta: number | undefined) => (base === null ? null : base + Number(delta ?? 0));
  return {
    contract_cents: plus(original.contract_cents, posted?.approved_amount_cents),
    budget_cents: plus(original.budget_cents, posted?.approved_cost_cents),
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

/** Posts an approval; answers the job's contract and budget with it, which the change order keeps. */
export async function postApproval(trx: Executor, co: Posted, f: Figures): Promise<JobMoney> {
  await post(trx, co.firm_id, co.job_id, { ...f, days: co.days_delta, count: 1 });
  return revisedJobMoney(trx, co.job_id);
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
