// The job object of webhook payloads (document 1, "Job and proposal event payload"): the listed
// fields of the API's job object, with assigned_to cut to {id, name, email}.
import type { PayloadPart } from '#events/payload-parts.ts';
import { findJobRow } from './repo.ts';
import { jobObject } from './serialize.ts';

const FIELDS = [
  'id',
  'external_ref',
  'crm_deal_id',
  'crm_contact_id',
  'crm_company_id',
  'site_id',
  'estimate_id',
  'estimate_number',
  'estimate_total',
  'location_id',
  'location_external_ref',
  'client_account_id',
  'client_account_external_ref',
  'name',
  'company',
  'contact_name',
  'contact_email',
  'contact_phone',
  'address',
  'description',
  'notes',
  'job_type',
  'status',
  'status_label',
  'source',
  'priority',
  'estimated_value',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'measurement_count',
  'firm_id',
  'assigned_to_user_id',
  'assigned_to',
  'created_at',
  'updated_at',
] as const;

export function webhookJobObject(job: ReturnType<typeof jobObject>) {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) out[field] = job[field];
  out.assigned_to = { id: job.assigned_to.id, name: job.assigned_to.name, email: job.assigned_to.email };
  return out;
}

/** The `job` part of a delivery body: the job as it is now. */
export const jobPayloadPart: PayloadPart = {
  field: 'job',
  appliesTo: (event) => event.job_id !== null,
  async build(db, event) {
    const row = await findJobRow(db, event.firm_id, event.job_id!, null);
    return row ? webhookJobObject(jobObject(row)) : null;
  },
};
