// Request schemas of /v1/leads (document 2, Leads); the service inputs are their static types.
// Fields whose 400 the spec words (name, email or phone, services, timing, property_type, user_id)
// are checked by the service, so the schema only bounds their size.
import { Type, type Static } from '@sinclair/typebox';
import { Body, OneOf, PageQuery, RecordId, TEXT_CEILING } from '#platform/schemas.ts';
import { CONTACT_HOWS, LEAD_STATUS_FILTERS, SOURCE_KINDS } from './rules.ts';

export const MAX_LEAD_MESSAGE = 3000;

export const CreateLeadBody = Body({
  name: Type.String({ maxLength: 200 }),
  email: Type.String({ maxLength: 120 }),
  phone: Type.String({ maxLength: 40, description: '10 to 15 digits' }),
  company: Type.String({ maxLength: 200 }),
  address: Type.String({ maxLength: 500 }),
  message: Type.String({ maxLength: MAX_LEAD_MESSAGE }),
  services: Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 50,
    description: "The workspace's job types (GET /v1/job-types)",
  }),
  timing: Type.String({ maxLength: 40, description: 'asap, 30_days, this_season, budgeting, unsure' }),
  property_type: Type.String({ maxLength: 80, description: "One of the workspace's property types" }),
  source: Type.String({ maxLength: 100, description: 'Default API' }),
  utm: Type.Record(Type.String({ maxLength: 50 }), Type.String({ maxLength: 500 }), {
    maxProperties: 20,
    description: 'Campaign fields (utm_source, utm_medium, utm_campaign …)',
  }),
  notify: Type.Boolean({ description: 'Email the assigned teammate (default true)' }),
});
export type CreateLeadInput = Static<typeof CreateLeadBody>;

export const ContactedBody = Body({
  how: OneOf(CONTACT_HOWS, { description: 'call, email, text, meeting, other (default)' }),
  note: Type.String({ maxLength: TEXT_CEILING }),
});
export type ContactedInput = Static<typeof ContactedBody>;

export const AssignBody = Body({ user_id: RecordId({ description: 'An office teammate (required)' }) });
export type AssignInput = Static<typeof AssignBody>;

export const ConvertBody = Body({
  status: Type.String({
    maxLength: 100,
    description: 'An open or won stage key; default the next open stage after the entry stage',
  }),
  confirm_schedule_completion: Type.Boolean({
    description: 'Needed when the move would complete open work orders (none exist yet)',
  }),
});
export type ConvertInput = Static<typeof ConvertBody>;

export const DismissBody = Body({ spam: Type.Boolean({ description: 'Mark as spam (default false)' }) });
export type DismissInput = Static<typeof DismissBody>;

export const ListLeadsQuery = Type.Object({
  status: Type.Optional(
    OneOf(LEAD_STATUS_FILTERS, {
      description: 'all (default), open (new and contacted), new, contacted, converted, dismissed, spam',
    }),
  ),
  assigned_to_user_id: Type.Optional(RecordId()),
  source_kind: Type.Optional(OneOf(SOURCE_KINDS, { description: 'form, portal, api, manual' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'name, email, phone, company, address' })),
  updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'oldest change first' })),
  ...PageQuery(200),
});
