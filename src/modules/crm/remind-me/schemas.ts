// Request schemas of remind-me (POST /v1/client-accounts/{account_id}/remind-me and
// /v1/contacts/{contact_id}/remind-me) and the birthday reminder.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf } from '#platform/schemas.ts';
import { AccountTaskSchema, EMAIL_ME, REPEATS } from '#crm/account-tasks/serialize.ts';

export const REMIND_ME_TASK_TYPES = ['call', 'email', 'follow_up'] as const;

export const RemindMeBody = Body(
  {
    due_date: Type.String({ maxLength: 10, description: "YYYY-MM-DD in the workspace's time zone" }),
    due_time: Type.String({ maxLength: 5, description: 'HH:MM (24-hour); default 09:00' }),
    title: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Default "Call <name>" (the verb follows task_type)',
    }),
    repeat: OneOf(REPEATS, { description: 'none (default), weekly, monthly, yearly' }),
    email_me: OneOf(EMAIL_ME, { description: 'none (default), that_day, day_before: the assignee is emailed' }),
    task_type: OneOf(REMIND_ME_TASK_TYPES, { description: 'call (default), email, follow_up' }),
    note: Type.String({ maxLength: 10_000 }),
  },
  { required: ['due_date'] },
);
export type RemindMeInput = Static<typeof RemindMeBody>;

export const BirthdayReminderBody = Body({});

export const BirthdayReminderResult = Type.Object({
  created: Type.Boolean({ description: 'true the first time; false when the person already has one' }),
  data: AccountTaskSchema,
});
