// The job object (document 2, Job; document 1, job payload) and its response schema.
import { Type } from '@sinclair/typebox';
import type { User } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { Nullable, NullableInteger, NullableString } from '#platform/schemas.ts';
import { microWire } from '#platform/time.ts';
import { userObject, UserSchema } from '#workspace/index.ts';
import type { JobRow } from './repo.ts';

export const JobSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  company: NullableString(),
  contact_name: NullableString(),
  contact_email: NullableString(),
  contact_phone: NullableString(),
  bill_to_name: NullableString(),
  bill_to_email: NullableString(),
  address: NullableString(),
  description: NullableString(),
  notes: NullableString(),
  job_type: NullableString(),
  job_types: Type.Array(Type.String()),
  status: Type.String(),
  status_label: Type.String(),
  source: NullableString(),
  priority: Type.String(),
  estimated_value: Nullable(Type.Number({ description: 'dollars' })),
  probability: NullableInteger(),
  start_date: NullableString(),
  end_date: NullableString(),
  next_follow_up: NullableString(),
  measurement_count: Type.Integer(),
  firm_id: Type.Integer(),
  team_id: NullableInteger(),
  client_account_id: NullableInteger(),
  client_account_external_ref: NullableString(),
  location_id: NullableInteger(),
  location_external_ref: NullableString(),
  site_id: Nullable(Type.String({ description: 'site number of the linked location' })),
  external_ref: NullableString(),
  crm_deal_id: NullableString(),
  crm_contact_id: NullableString(),
  crm_company_id: NullableString(),
  estimate_id: NullableInteger(),
  estimate_number: NullableString(),
  estimate_total: Nullable(Type.Number()),
  custom_fields: Type.Record(Type.String(), Type.Unknown()),
  accounting_sync_error: NullableString(),
  assigned_to_user_id: Type.Integer(),
  assigned_to: UserSchema,
  assignees: Type.Optional(Type.Array(UserSchema)),
  created_at: Type.String({ description: 'UTC, microseconds, no suffix' }),
  updated_at: Type.String({ description: 'UTC, microseconds, no suffix' }),
});

export function splitJobTypes(jobType: string | null): string[] {
  return jobType
    ? jobType
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
}

export function jobObject(j: JobRow, assignees?: User[]) {
  const owner = userObject({
    id: j.assigned_to_user_id,
    name: j.au_name,
    username: j.au_username,
    email: j.au_email,
    role: j.au_role,
    job_title: j.au_job_title,
    phone_number: j.au_phone_number,
    headshot_url: j.au_headshot_url,
    created_at: j.au_created_at,
  });
  return {
    id: j.id,
    name: j.name,
    company: j.company,
    contact_name: j.contact_name,
    contact_email: j.contact_email,
    contact_phone: j.contact_phone,
    bill_to_name: j.bill_to_name,
    bill_to_email: j.bill_to_email,
    address: j.address,
    description: j.description,
    notes: j.notes,
    job_type: j.job_type,
    job_types: splitJobTypes(j.job_type),
    status: j.status,
    status_label: j.stage_label ?? j.status,
    source: j.source,
    priority: j.priority,
    estimated_value: centsToDollars(j.estimated_value_cents === null ? null : Number(j.estimated_value_cents)),
    probability: j.probability,
    start_date: j.start_date,
    end_date: j.end_date,
    next_follow_up: j.next_follow_up,
    measurement_count: j.measurement_count,
    firm_id: j.firm_id,
    team_id: j.team_id,
    client_account_id: j.client_account_id,
    client_account_external_ref: j.ca_external_ref,
    location_id: j.location_id,
    location_external_ref: j.lo_external_ref,
    site_id: j.location_id === null ? null : String(j.location_id),
    external_ref: j.external_ref,
    crm_deal_id: j.crm_deal_id,
    crm_contact_id: j.crm_contact_id,
    crm_company_id: j.crm_company_id,
    // The job's estimate, kept on the job row by estimate writes (modules/estimates/job-estimate.ts).
    estimate_id: j.estimate_id,
    estimate_number: j.estimate_number === null ? null : String(j.estimate_number),
    estimate_total: centsToDollars(j.estimate_total_cents),
    custom_fields: JSON.parse(j.custom_fields) as Record<string, unknown>,
    accounting_sync_error: j.accounting_sync_error,
    assigned_to_user_id: j.assigned_to_user_id,
    assigned_to: owner,
    ...(assignees ? { assignees: [owner, ...assignees.filter((u) => u.id !== owner.id).map(userObject)] } : {}),
    created_at: microWire(j.created_at),
    updated_at: microWire(j.updated_at),
  };
}
