// Request schemas of job follow-ups (/v1/tasks) and the fields company follow-ups
// (/v1/account-tasks) share with them; the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { invalidField } from '#platform/errors.ts';
import { Body, Nullable, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { parseTimestamp } from '#platform/time.ts';
import { TASK_TYPES } from './serialize.ts';

export const TaskTypeSchema = OneOf(TASK_TYPES, {
  description: 'call (default), email, meeting, site_visit, follow_up',
});

export const followUpFields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  task_type: TaskTypeSchema,
  notes: Nullable(Type.String({ maxLength: 10_000 })),
  due_at: Nullable(
    Type.String({ maxLength: 64, description: 'ISO 8601 instant (no zone means UTC); instead of due_date' }),
  ),
  due_date: Nullable(Type.String({ maxLength: 10, description: "YYYY-MM-DD, read in the workspace's time zone" })),
  due_time: Type.String({ maxLength: 5, description: 'HH:MM with due_date; default 09:00' }),
  contact_id: Nullable(RecordId()),
  assigned_to_user_id: RecordId(),
};

export const StatusFilter = OneOf(['open', 'done', 'all'], { description: 'open (default), done or all' });
export const StatusField = OneOf(['open', 'done']);

export const CreateTaskBody = Body({ job_id: RecordId(), ...followUpFields }, { required: ['job_id', 'title'] });
export type CreateTaskInput = Static<typeof CreateTaskBody>;
export const UpdateTaskBody = Body({ ...followUpFields, status: StatusField });
export type UpdateTaskInput = Static<typeof UpdateTaskBody>;
/** When a follow-up (of a job or a company) is due, as a body gives it. */
export type DueInput = Pick<UpdateTaskInput, 'due_at' | 'due_date' | 'due_time'>;

export const followUpQuery = {
  status: Type.Optional(StatusFilter),
  assigned_to_user_id: Type.Optional(RecordId()),
  contact_id: Type.Optional(RecordId()),
  due_before: Type.Optional(Type.String({ description: 'ISO 8601; due strictly before' })),
  due_after: Type.Optional(Type.String({ description: 'ISO 8601; due strictly after' })),
  updated_after: Type.Optional(Type.String({ description: 'ISO 8601; no zone means UTC' })),
};

export const ListTasksQuery = Type.Object({ job_id: Type.Optional(RecordId()), ...followUpQuery, ...PageQuery(200) });

/** due_before / due_after query values in the stored form, or a 400 naming them. */
export function dueBound(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTimestamp(value);
  if (parsed === null) throw invalidField(field, `${field} must be an ISO 8601 timestamp`);
  return parsed;
}
