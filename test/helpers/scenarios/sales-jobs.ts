// Scenario for the sales reports' tests (test/reports/work-type.test.ts and its neighbours): a job
// made through the API with its salesperson, stage, value, type, address and details, then its bid
// and decided instants placed by hand (the API sets them to now when a proposal is sent or a stage
// entered, and a report test needs them on given days).
import type { TestApp, Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

export interface SalesJob {
  owner?: number;
  status?: string;
  value?: number;
  type?: string;
  address?: string;
  client_account_id?: number;
  company?: string;
  /** UTC instants, stored as jobs keep them. */
  bid?: string;
  decided?: string;
  /** PATCH /v1/jobs/{id}/details fields (customer_type, property_type, bid_due_date …). */
  details?: Record<string, unknown>;
}

export async function salesJob(t: TestApp, w: Workspace, name: string, o: SalesJob): Promise<number> {
  const made = await ok(
    w.api.post('/v1/jobs', {
      name,
      ...(o.value !== undefined ? { estimated_value: o.value } : {}),
      ...(o.type ? { job_type: o.type } : {}),
      ...(o.address !== undefined ? { address: o.address } : {}),
      ...(o.owner ? { assigned_to_user_id: o.owner } : {}),
      ...(o.client_account_id ? { client_account_id: o.client_account_id } : {}),
      ...(o.company ? { company: o.company } : {}),
    }),
  );
  const id: number = made.data.id;
  if (o.status) await ok(w.api.patch(`/v1/jobs/${id}`, { status: o.status }));
  if (o.details) await ok(w.api.patch(`/v1/jobs/${id}/details`, o.details));
  const set: { bid_at?: string; decided_at?: string } = {};
  if (o.bid) set.bid_at = o.bid;
  if (o.decided) set.decided_at = o.decided;
  if (o.bid || o.decided) await t.database.db.updateTable('jobs').set(set).where('id', '=', id).execute();
  return id;
}
