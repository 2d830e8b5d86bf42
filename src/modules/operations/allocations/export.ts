// The allocations export dataset (document 3: the shape of GET /v1/jobs/{id}/allocation; changed
// since the work order's updated_at, and the allocation's own): allocations on jobs the user sees.
// Clients upsert by work_order_id (document 3's sync recipe).
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { type AllocationReadRow, allocationsOf } from './repo.ts';
import { allocationRow } from './serialize.ts';

export const allocationsDataset = defineDataset({
  name: 'allocations',
  description: 'Estimate lines given to work orders, with planned and completed quantities',
  changedSinceFields: ['updated_at'],
  async readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = allocationsOf(db, firmId, user).where('allocations.id', '>', afterId);
    if (updatedAfter !== undefined)
      qb = qb.where(changedSince(['work_orders.updated_at', 'allocations.updated_at'], updatedAfter));
    return (await qb.orderBy('allocations.id').limit(limit).execute()) as AllocationReadRow[];
  },
  toRow: (row: AllocationReadRow) => allocationRow(row),
});
