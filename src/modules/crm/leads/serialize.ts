// The lead object (document 2, Lead).
import { Type } from '@sinclair/typebox';
import type { Lead } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { Nullable, NullableInstant, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { STATUS_LABEL, type Answer, type LeadStatus } from './rules.ts';

export const CreatedRecordsSchema = Type.Object({
  contact: Type.Boolean(),
  account: Type.Boolean(),
  job: Type.Boolean(),
  location: Type.Boolean(),
});
export type CreatedRecords = { contact: boolean; account: boolean; job: boolean; location: boolean };

export const LeadSchema = Type.Object({
  id: Type.Integer(),
  status: Type.String({ description: 'new, contacted, converted, dismissed, spam' }),
  status_label: Type.String(),
  name: Nullable(Type.String()),
  display_name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  company: Nullable(Type.String()),
  address: Nullable(Type.String()),
  services: Nullable(Type.String({ description: 'Readable labels, comma-separated' })),
  source: Nullable(Type.String()),
  source_kind: Type.String({ description: 'form, portal, api, manual' }),
  submitted_at: Type.String(),
  assigned_to_user_id: Type.Integer(),
  assigned_to: NullableObject(Type.Object({ id: Type.Integer(), name: Type.String() })),
  assignment_reason: Nullable(Type.String()),
  first_contacted_at: NullableInstant(),
  first_contact_kind: Nullable(Type.String({ description: 'call, email, text, meeting, task or marked' })),
  first_contacted_by_user_id: Nullable(Type.Integer()),
  contact_id: Nullable(Type.Integer()),
  client_account_id: Nullable(Type.Integer()),
  job_id: Nullable(Type.Integer()),
  location_id: Nullable(Type.Integer()),
  follow_up_task_id: Nullable(Type.Integer()),
  answers: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })),
  utm: Type.Record(Type.String(), Type.String()),
  match_reasons: Type.Array(Type.String()),
  created_records: CreatedRecordsSchema,
  escalated_at: NullableInstant(),
  auto_spam: Type.Boolean(),
  problem: Nullable(Type.String()),
  on_leads_pipeline: Type.Boolean(),
  pipeline_stage_id: Nullable(Type.Integer()),
  estimated_value: Nullable(Type.Number()),
  customer_type: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  next_follow_up_at: NullableInstant(),
  replaced_lead_id: Nullable(Type.Integer({ description: 'The auto-spam lead this one was restored from' })),
  status_changed_at: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export type LeadRow = Lead & { assignee_name: string | null };

export function servicesOf(lead: Pick<Lead, 'services'>): string[] {
  return JSON.parse(lead.services) as string[];
}

export function leadObject(l: LeadRow) {
  const services = servicesOf(l);
  return {
    id: l.id,
    status: l.status,
    status_label: STATUS_LABEL[l.status as LeadStatus] ?? l.status,
    name: l.name,
    display_name: l.name || l.company || l.email || l.phone || 'Unnamed lead',
    email: l.email,
    phone: l.phone,
    company: l.company,
    address: l.address,
    services: services.length > 0 ? services.join(', ') : null,
    source: l.source,
    source_kind: l.source_kind,
    submitted_at: zWire(l.submitted_at)!,
    assigned_to_user_id: l.assigned_to_user_id,
    assigned_to: l.assignee_name === null ? null : { id: l.assigned_to_user_id, name: l.assignee_name },
    assignment_reason: l.assignment_reason,
    first_contacted_at: zWire(l.first_contacted_at),
    first_contact_kind: l.first_contact_kind,
    first_contacted_by_user_id: l.first_contacted_by_user_id,
    contact_id: l.contact_id,
    client_account_id: l.client_account_id,
    job_id: l.job_id,
    location_id: l.location_id,
    follow_up_task_id: l.follow_up_task_id,
    answers: JSON.parse(l.answers) as Answer[],
    utm: JSON.parse(l.utm) as Record<string, string>,
    match_reasons: JSON.parse(l.match_reasons) as string[],
    created_records: JSON.parse(l.created_records) as CreatedRecords,
    escalated_at: zWire(l.escalated_at),
    auto_spam: l.auto_spam === 1,
    problem: l.problem,
    on_leads_pipeline: l.on_leads_pipeline === 1,
    pipeline_stage_id: l.pipeline_stage_id,
    estimated_value: l.estimated_value_cents === null ? null : centsToDollars(l.estimated_value_cents),
    customer_type: l.customer_type,
    notes: l.notes,
    next_follow_up_at: zWire(l.next_follow_up_at),
    replaced_lead_id: l.replaced_lead_id,
    status_changed_at: zWire(l.status_changed_at)!,
    created_at: zWire(l.created_at)!,
    updated_at: zWire(l.updated_at)!,
  };
}
