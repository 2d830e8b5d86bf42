import { Type } from '@sinclair/typebox';
import type { AccountTask } from '#db/tables.ts';
import { FollowUpHeadProperties, FollowUpTailProperties, followUpHead, followUpTail } from '#crm/tasks/serialize.ts';

export const REPEATS = ['none', 'weekly', 'monthly', 'yearly'] as const;
export type Repeat = (typeof REPEATS)[number];
export const EMAIL_ME = ['none', 'that_day', 'day_before'] as const;

export const AccountTaskSchema = Type.Object({
  id: Type.Integer(),
  client_account_id: Type.Integer(),
  ...FollowUpHeadProperties,
  repeat: Type.String(),
  email_me: Type.String(),
  ...FollowUpTailProperties,
});

export type AccountTaskRow = AccountTask & { assignee_name: string | null };

export function accountTaskObject(t: AccountTaskRow, timeZone: string) {
  return {
    id: t.id,
    client_account_id: t.client_account_id,
    ...followUpHead(t, timeZone),
    repeat: t.repeat,
    email_me: t.email_me,
    ...followUpTail(t),
  };
}
