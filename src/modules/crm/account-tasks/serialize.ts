import { Type } from '@sinclair/typebox';
import type { AccountTask } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { UserRefSchema, userRef } from '#crm/job-activity/serialize.ts';
import { dueFields } from '#crm/tasks/due.ts';
import { DueProperties } from '#crm/tasks/serialize.ts';

export const REPEATS = ['none', 'weekly', 'monthly', 'yearly'] as const;
export type Repeat = (typeof REPEATS)[number];
export const EMAIL_ME = ['none', 'that_day', 'day_before'] as const;

export const AccountTaskSchema = Type.Object({
  id: Type.Integer(),
  client_account_id: Type.Integer(),
  contact_id: Nullable(Type.Integer()),
  title: Type.String(),
  task_type: Type.String(),
  notes: Nullable(Type.String()),
  ...DueProperties,
  repeat: Type.String(),
  email_me: Type.String(),
  status: Type.String(),
  assigned_to_user_id: Type.Integer(),
  assigned_to: NullableObject(UserRefSchema),
  created_by_user_id: Nullable(Type.Integer()),
  completed_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export type AccountTaskRow = AccountTask & { assignee_name: string | null };

export function accountTaskObject(t: AccountTaskRow, timeZone: string) {
  return {
    id: t.id,
    client_account_id: t.client_account_id,
    contact_id: t.contact_id,
    title: t.title,
    task_type: t.task_type,
    notes: t.notes,
    ...dueFields(t.due_at, timeZone),
    repeat: t.repeat,
    email_me: t.email_me,
    status: t.status,
    assigned_to_user_id: t.assigned_to_user_id,
    assigned_to: userRef(t.assigned_to_user_id, t.assignee_name),
    created_by_user_id: t.created_by_user_id,
    completed_at: zWire(t.completed_at),
    created_at: zWire(t.created_at),
    updated_at: zWire(t.updated_at),
  };
}
