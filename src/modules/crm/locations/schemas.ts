// Request schemas of /v1/locations (sites; document 2, Syncing rules and Required fields of create
// calls); the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ExternalRef, Nullable, PageQuery, RecordId, TEXT_CEILING } from '#platform/schemas.ts';

const fields = {
  address: Type.String({ minLength: 1, maxLength: 500 }),
  name: Nullable(Type.String({ maxLength: 200 })),
  external_ref: Nullable(ExternalRef()),
  client_account_id: Nullable(RecordId()),
  client_account_external_ref: ExternalRef(),
  property_reference: Nullable(Type.String({ maxLength: 100 })),
  notes: Nullable(Type.String({ maxLength: TEXT_CEILING })),
};

export const ListLocationsQuery = Type.Object({
  external_ref: Type.Optional(ExternalRef('lookup')),
  client_account_id: Type.Optional(RecordId()),
  q: Type.Optional(Type.String()),
  include_archived: Type.Optional(Type.Boolean()),
  ...PageQuery(200),
});

/** POST /v1/locations: create or match a site. */
export const CreateLocationBody = Body(fields, { required: ['address'] });
export type CreateLocationInput = Static<typeof CreateLocationBody>;
/** PATCH /v1/locations/:id. */
export const UpdateLocationBody = Body({ ...fields, archived: Type.Boolean() });
export type UpdateLocationInput = Static<typeof UpdateLocationBody>;
