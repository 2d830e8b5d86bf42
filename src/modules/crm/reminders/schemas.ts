// Request schemas of reminders (/v1/reminders); the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { REMINDER_TYPES } from './serialize.ts';
import { REPEAT_UNITS, SNOOZES } from './when.ts';

export const MAX_TITLE_LENGTH = 200;
export const MAX_TEXT_LENGTH = 10_000;

const due = Type.String({
  maxLength: 16,
  description: 'Local YYYY-MM-DDTHH:MM, or YYYY-MM-DD meaning 9:00 AM, read in timezone',
});
const timezone = Type.String({ maxLength: 64, description: "IANA time zone; default the workspace's" });
const repeat = {
  repeat_every: Type.Integer({
    minimum: 0,
    maximum: 365,
    description: 'Rounds apart, in repeat_unit; 0 stops repeating',
  }),
  repeat_unit: OneOf(REPEAT_UNITS, { description: 'day, week, month' }),
};

export const CreateReminderBody = Body(
  {
    title: Type.String({ minLength: 1, maxLength: MAX_TITLE_LENGTH }),
    description: Type.String({ maxLength: MAX_TEXT_LENGTH }),
    reminder_type: OneOf(REMINDER_TYPES, { description: 'follow_up (default), contract_renewal, maintenance_checkin' }),
    client_account_id: RecordId(),
    contact_id: RecordId(),
    job_id: RecordId(),
    lead_id: RecordId({ description: 'A lead id, stored as given (not checked)' }),
    due,
    timezone,
    ...repeat,
    assigned_to_user_id: RecordId({ description: "Default the key's user" }),
  },
  { required: ['title', 'due'] },
);
export type CreateReminderInput = Static<typeof CreateReminderBody>;

export const UpdateReminderBody = Body({
  title: Type.String({ minLength: 1, maxLength: MAX_TITLE_LENGTH }),
  description: Type.String({ maxLength: MAX_TEXT_LENGTH }),
  due,
  snooze: OneOf(SNOOZES, { description: '1h, tomorrow (8 AM), next_week (Monday 8 AM); instead of due' }),
  timezone,
  ...repeat,
  assigned_to_user_id: RecordId(),
});
export type UpdateReminderInput = Static<typeof UpdateReminderBody>;

export const CompleteReminderBody = Body({
  notes: Type.String({
    maxLength: MAX_TEXT_LENGTH,
    description: 'Logged as a note on the linked job, person or customer',
  }),
});
export type CompleteReminderInput = Static<typeof CompleteReminderBody>;

export const DismissReminderBody = Body({});

export const ListRemindersQuery = Type.Object({
  status: Type.Optional(
    OneOf(['open', 'pending', 'sent', 'done', 'dismissed', 'all'], {
      description: 'open (default: pending or sent), pending, sent, done, dismissed, all',
    }),
  ),
  reminder_type: Type.Optional(OneOf(REMINDER_TYPES)),
  client_account_id: Type.Optional(RecordId()),
  contact_id: Type.Optional(RecordId()),
  job_id: Type.Optional(RecordId()),
  assigned_to_user_id: Type.Optional(RecordId()),
  due_before: Type.Optional(Type.String({ description: 'ISO 8601; due strictly before' })),
  due_after: Type.Optional(Type.String({ description: 'ISO 8601; due strictly after' })),
  ...PageQuery(200),
});
