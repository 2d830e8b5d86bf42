// Allocations (docs/api-decisions.md, "Operations: time and job costs"): an estimate line given to a
// work order with the quantity planned there, and what the crews have reported done.
import { type Static, Type } from '@sinclair/typebox';
import { IdParam, Nullable } from '#platform/schemas.ts';

export const AllocationRow = Type.Object({
  id: Type.Integer(),
  work_order_id: Type.Integer(),
  job_id: Type.Integer(),
  estimate_service_id: Nullable(Type.Integer({ description: 'the estimate line' })),
  service_name: Nullable(Type.String({ description: "the estimate line's name" })),
  planned_quantity: Nullable(Type.Number()),
  unit: Nullable(Type.String()),
  completed_quantity: Type.Number({
    description: "the sum of the work order's daily reports' completed_quantity for this line",
  }),
  updated_at: Type.String({ description: 'the later of the allocation and its work order' }),
});
export type AllocationRowObject = Static<typeof AllocationRow>;

export const AllocationParams = IdParam();
export const JobAllocation = Type.Object({ data: Type.Array(AllocationRow) });
