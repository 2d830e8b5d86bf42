// A job cost on the wire: the cost row (GET /v1/jobs/{id}/costs, the job_costs export).
import type { JobCost } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';
import type { CostRowObject } from './schemas.ts';

export function entryCostRow(row: JobCost): CostRowObject {
  return {
    id: row.id,
    job_id: row.job_id,
    source: 'entry',
    cost_type: row.cost_type,
    cost_code: row.cost_code,
    amount: centsToDollars(Number(row.amount_cents)),
    date: row.date,
    description: row.description,
    quantity: row.quantity === null ? null : Number(row.quantity),
    unit: row.unit,
    time_entry_id: null,
    user_id: row.created_by_user_id,
    reviewed_at: zWire(row.reviewed_at),
    reconciled_at: zWire(row.reconciled_at),
    created_at: zWire(row.created_at),
    updated_at: zWire(row.updated_at),
  };
}
