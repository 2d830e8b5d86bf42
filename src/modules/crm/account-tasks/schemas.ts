// Request schemas of company follow-ups (/v1/account-tasks); the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { followUpFields, followUpQuery, StatusField } from '#crm/tasks/schemas.ts';
import { EMAIL_ME, REPEATS } from './serialize.ts';

const fields = {
  ...followUpFields,
  repeat: OneOf(REPEATS, { description: 'none (default), weekly, monthly, yearly' }),
  email_me: OneOf(EMAIL_ME, { description: 'none (default), that_day, day_before' }),
};

export const CreateAccountTaskBody = Body(
  { client_account_id: RecordId(), ...fields },
  { required: ['client_account_id'] },
);
export type CreateAccountTaskInput = Static<typeof CreateAccountTaskBody>;
export const UpdateAccountTaskBody = Body({ ...fields, status: StatusField });
export type UpdateAccountTaskInput = Static<typeof UpdateAccountTaskBody>;

export const ListAccountTasksQuery = Type.Object({
  client_account_id: Type.Optional(RecordId()),
  ...followUpQuery,
  ...PageQuery(200),
});
