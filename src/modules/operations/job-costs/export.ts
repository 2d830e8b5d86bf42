// The job_costs export dataset (document 3: the shape of GET /v1/jobs/{id}/costs; changed since
// created_at, reviewed_at or reconciled_at): the costs entered on jobs the user sees, for users
// who may see job costs (others export none). Labor cost is not a stored row: it follows from the
// time_entries dataset (hours and, for users who may see pay, pay) and is in GET /v1/jobs/{id}/costs.
import { can } from '#platform/permissions.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import type { JobCost } from '#db/tables.ts';
import { jobCostsOf } from './repo.ts';
import { entryCostRow } from './serialize.ts';

export const jobCostsDataset = defineDataset({
  name: 'job_costs',
  description: 'Costs entered on jobs (users who may see job costs)',
  changedSinceFields: ['created_at', 'reviewed_at', 'reconciled_at'],
  async readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    if (!can(user, 'can_see_job_costs')) return [];
    let qb = jobCostsOf(db, firmId, user).where('job_costs.id', '>', afterId);
    if (updatedAfter !== undefined)
      qb = qb.where(
        changedSince(['job_costs.created_at', 'job_costs.reviewed_at', 'job_costs.reconciled_at'], updatedAfter),
      );
    return qb.orderBy('job_costs.id').limit(limit).execute();
  },
  toRow: (row: JobCost) => entryCostRow(row),
});
