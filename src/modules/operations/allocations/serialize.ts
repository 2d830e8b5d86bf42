// An allocation on the wire: GET /v1/jobs/{id}/allocation and the allocations export.
import { zWire } from '#platform/time.ts';
import type { AllocationReadRow } from './repo.ts';
import type { AllocationRowObject } from './schemas.ts';

export function allocationRow(r: AllocationReadRow): AllocationRowObject {
  const updated = r.allocation_updated_at > r.work_order_updated_at ? r.allocation_updated_at : r.work_order_updated_at;
  return {
    id: r.id,
    work_order_id: r.work_order_id,
    job_id: r.job_id,
    estimate_service_id: r.estimate_service_id,
    service_name: r.service_name,
    planned_quantity: r.planned_quantity === null ? null : Number(r.planned_quantity),
    unit: r.unit,
    completed_quantity: r.completed_quantity === null ? 0 : Number(r.completed_quantity),
    updated_at: zWire(updated),
  };
}
