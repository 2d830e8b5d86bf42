import { Type } from '@sinclair/typebox';
import type { Task } from '#db/tables.ts';
import { Nullable, NullableObject } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { UserRefSchema, userRef } from '#crm/job-activity/serialize.ts';
import { dueFields } from './due.ts';

/** The follow-up kinds document 2 names (re-bid follow-ups: call default, email, meeting, site_visit, follow_up). */
export const TASK_TYPES = ['call', 'email', 'meeting', 'site_visit', 'follow_up'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_STATUSES = ['open', 'done'] as const;

export const DueProperties = {
  due_at: Nullable(Type.String({ description: 'UTC' })),
  due_date: Nullable(Type.String({ description: "YYYY-MM-DD in the workspace's time zone" })),
  due_time: Nullable(Type.String({ description: "HH:MM in the workspace's time zone" })),
};

/** What every follow-up object shows after its parent: the person, title, type, notes and due time. */
export const FollowUpHeadProperties = {
  contact_id: Nullable(Type.Integer()),
  title: Type.String(),
  task_type: Type.String(),
  notes: Nullable(Type.String()),
  ...DueProperties,
};

/** What every follow-up object shows last: its state, who has it and when it changed. */
export const FollowUpTailProperties = {
  status: Type.String(),
  assigned_to_user_id: Type.Integer(),
  assigned_to: NullableObject(UserRefSchema),
  created_by_user_id: Nullable(Type.Integer()),
  completed_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};

/** The columns job and company follow-ups share, with the assignee's name. */
export type FollowUpRow = Pick<
  Task,
  | 'contact_id'
  | 'title'
  | 'task_type'
  | 'notes'
  | 'due_at'
  | 'status'
  | 'assigned_to_user_id'
  | 'created_by_user_id'
  | 'completed_at'
  | 'created_at'
  | 'updated_at'
> & { assignee_name: string | null };

export const followUpHead = (t: FollowUpRow, timeZone: string) => ({
  contact_id: t.contact_id,
  title: t.title,
  task_type: t.task_type,
  notes: t.notes,
  ...dueFields(t.due_at, timeZone),
});

export const followUpTail = (t: FollowUpRow) => ({
  status: t.status,
  assigned_to_user_id: t.assigned_to_user_id,
  assigned_to: userRef(t.assigned_to_user_id, t.assignee_name),
  created_by_user_id: t.created_by_user_id,
  completed_at: zWire(t.completed_at),
  created_at: zWire(t.created_at),
  updated_at: zWire(t.updated_at),
});

export const TaskSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  ...FollowUpHeadProperties,
  ...FollowUpTailProperties,
});

export type TaskRow = Task & { assignee_name: string | null };

export function taskObject(t: TaskRow, timeZone: string) {
  return { id: t.id, job_id: t.job_id, ...followUpHead(t, timeZone), ...followUpTail(t) };
}
