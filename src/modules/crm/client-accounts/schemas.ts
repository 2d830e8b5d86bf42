// Request schemas of /v1/client-accounts (customers; document 2, Syncing rules and Required fields
// of create calls); the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ExternalRef, Nullable, PageQuery, TEXT_CEILING } from '#platform/schemas.ts';

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  external_ref: Nullable(ExternalRef()),
  email: Nullable(Type.String({ maxLength: 255 })),
  phone: Nullable(Type.String({ maxLength: 50 })),
  address: Nullable(Type.String({ maxLength: 500 })),
  notes: Nullable(Type.String({ maxLength: TEXT_CEILING })),
  skip_automatic_follow_ups: Type.Boolean({
    description: 'true: the customer company gets no automatic follow-up sequence (default false)',
  }),
};

export const ListClientAccountsQuery = Type.Object({
  external_ref: Type.Optional(ExternalRef('lookup')),
  q: Type.Optional(Type.String()),
  include_archived: Type.Optional(Type.Boolean()),
  ...PageQuery(200),
});

/** POST /v1/client-accounts: create or match a customer. */
export const CreateClientAccountBody = Body(fields, { required: ['name'] });
export type CreateClientAccountInput = Static<typeof CreateClientAccountBody>;
/** PATCH /v1/client-accounts/:id. */
export const UpdateClientAccountBody = Body({ ...fields, archived: Type.Boolean() });
export type UpdateClientAccountInput = Static<typeof UpdateClientAccountBody>;
