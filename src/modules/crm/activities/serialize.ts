import { Type } from '@sinclair/typebox';
import type { Activity } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { UserRefSchema, userRef } from '#crm/job-activity/serialize.ts';

/** The kinds of interaction another system can log (the lead's first_contact_kind words plus note and other). */
export const ACTIVITY_TYPES = ['call', 'email', 'text', 'meeting', 'note', 'task', 'other'] as const;
export const DIRECTIONS = ['inbound', 'outbound'] as const;

export const AssociationsSchema = Type.Object({
  job_id: Nullable(Type.Integer()),
  client_account_id: Nullable(Type.Integer()),
  contact_id: Nullable(Type.Integer()),
  lead_id: Nullable(Type.Integer()),
});

export const ActivitySchema = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  subject: Nullable(Type.String()),
  body: Nullable(Type.String()),
  outcome: Nullable(Type.String()),
  direction: Nullable(Type.String()),
  duration_seconds: Nullable(Type.Integer()),
  source: Type.String(),
  external_id: Nullable(Type.String()),
  associations: AssociationsSchema,
  user_id: Nullable(Type.Integer()),
  user: NullableObject(UserRefSchema),
  occurred_at: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export type ActivityRow = Activity & { user_name: string | null };

export function activityObject(a: ActivityRow) {
  return {
    id: a.id,
    type: a.type,
    subject: a.subject,
    body: a.body,
    outcome: a.outcome,
    direction: a.direction,
    duration_seconds: a.duration_seconds,
    source: a.source,
    external_id: a.external_id,
    associations: {
      job_id: a.job_id,
      client_account_id: a.client_account_id,
      contact_id: a.contact_id,
      lead_id: a.lead_id,
    },
    user_id: a.user_id,
    user: userRef(a.user_id, a.user_name),
    occurred_at: zWire(a.occurred_at),
    created_at: zWire(a.created_at),
    updated_at: zWire(a.updated_at),
  };
}
