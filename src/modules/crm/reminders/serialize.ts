import { Type } from '@sinclair/typebox';
import type { Reminder } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { UserRefSchema, userRef } from '#crm/job-activity/serialize.ts';
import { repeatEveryDays } from './when.ts';

export const REMINDER_TYPES = ['contract_renewal', 'maintenance_checkin', 'follow_up'] as const;
export type ReminderType = (typeof REMINDER_TYPES)[number];
export const REMINDER_STATUSES = ['pending', 'sent', 'done', 'dismissed'] as const;

/** Document 2, Reminder: exactly its fields. */
export const ReminderSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String({ description: 'Empty when none was given' }),
  reminder_type: Type.String({ description: 'contract_renewal, maintenance_checkin, follow_up' }),
  status: Type.String({ description: 'pending, sent, done, dismissed' }),
  client_account_id: Nullable(Type.Integer()),
  contact_id: Nullable(Type.Integer()),
  job_id: Nullable(Type.Integer()),
  lead_id: Nullable(Type.Integer()),
  repeat_every_days: Nullable(
    Type.Integer({
      description: 'null is one-off; a monthly repeat counts 30 days per month (it keeps the day of month)',
    }),
  ),
  due_at: Type.String({ description: 'UTC' }),
  last_emailed_at: Nullable(Type.String({ description: 'UTC' })),
  assigned_to_user_id: Type.Integer(),
  assigned_to: NullableObject(UserRefSchema),
  created_at: Type.String(),
});

export type ReminderRow = Reminder & { assignee_name: string | null };

export function reminderObject(r: ReminderRow) {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    reminder_type: r.reminder_type,
    status: r.status,
    client_account_id: r.client_account_id,
    contact_id: r.contact_id,
    job_id: r.job_id,
    lead_id: r.lead_id,
    repeat_every_days: repeatEveryDays(r.repeat_every, r.repeat_unit),
    due_at: zWire(r.due_at),
    last_emailed_at: zWire(r.last_emailed_at),
    assigned_to_user_id: r.assigned_to_user_id,
    assigned_to: userRef(r.assigned_to_user_id, r.assignee_name),
    created_at: zWire(r.created_at),
  };
}
