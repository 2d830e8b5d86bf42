// GET /v1/jobs/{id}/allocation: the job's estimate lines given to its work orders.
import { findVisibleJob, jobNotFound } from '#crm/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { type AllocationReadRow, allocationsOf } from './repo.ts';
import type { AllocationRowObject } from './schemas.ts';
import { allocationRow } from './serialize.ts';

export async function jobAllocation(ctx: ServiceContext, jobId: number): Promise<AllocationRowObject[]> {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  if (!(await findVisibleJob(db, firmId, jobId, ctx.auth.user))) throw jobNotFound();
  const rows = (await allocationsOf(db, firmId, ctx.auth.user)
    .where('allocations.job_id', '=', jobId)
    .orderBy('allocations.work_order_id')
    .orderBy('allocations.id')
    .execute()) as AllocationReadRow[];
  return rows.map(allocationRow);
}
