// Request bodies of people, their channels and links, and people on a job (document 2, Contacts);
// the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, CustomFieldValuesInput, DateString, Nullable, NullableText, RecordId } from '#platform/schemas.ts';

const Id = RecordId();

const contactFields = {
  name: NullableText(200),
  title: NullableText(200),
  contact_type: NullableText(80),
  company: NullableText(200),
  client_account_id: Nullable(Id),
  email: NullableText(255),
  phone: NullableText(50),
  notes: NullableText(10_000),
  assigned_user_id: Nullable(Id),
  preferred_channel: Nullable(Type.String({ maxLength: 20 })),
  do_not_contact: Type.Boolean(),
  do_not_contact_reason: NullableText(500),
  birthday: Nullable(DateString),
  tags: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
  custom_fields: CustomFieldValuesInput(),
};
/** POST and PATCH /v1/contacts. */
export const ContactBody = Body(contactFields);
export type ContactInput = Static<typeof ContactBody>;

const channelFields = {
  value: Type.String({ maxLength: 255 }),
  label: Type.String({ maxLength: 20 }),
  is_primary: Type.Boolean(),
  do_not_contact: Type.Boolean(),
};
export const AddChannelBody = Body({ kind: Type.String({ maxLength: 20 }), ...channelFields });
export const ChangeChannelBody = Body(channelFields);
/** A channel added (with kind) or changed (without). */
export type ChannelInput = Static<typeof AddChannelBody>;

export const LinkBody = Body({
  client_account_id: Nullable(Id),
  location_id: Nullable(Id),
  roles: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 }),
  started_on: Nullable(DateString),
  is_primary: Type.Boolean(),
});
export type LinkInput = Static<typeof LinkBody>;

export const JobPersonBody = Body({
  contact_id: Id,
  name: NullableText(200),
  email: NullableText(255),
  phone: NullableText(50),
  company: NullableText(200),
  title: NullableText(200),
  contact_type: NullableText(80),
  role: Nullable(Type.String({ maxLength: 40 })),
  is_primary: Type.Boolean(),
  bills_separately: Type.Boolean(),
});
export type JobPersonInput = Static<typeof JobPersonBody>;

/** A person's channel in a path: /v1/contacts/{id}/channels/{ref}. */
export const ChannelParams = Type.Object({ id: RecordId(), ref: Type.String({ minLength: 1, maxLength: 40 }) });
