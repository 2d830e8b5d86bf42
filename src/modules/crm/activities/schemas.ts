// Request schemas of /v1/activities (document 2, Required fields of create calls); the service
// inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ExternalRef, Nullable, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { ACTIVITY_TYPES, DIRECTIONS } from './serialize.ts';

const ActivityType = OneOf(ACTIVITY_TYPES);

/** The records an activity is logged on: a key sent as null clears that link. */
export const AssociationsBody = Body({
  job_id: Nullable(RecordId()),
  job_external_ref: Nullable(ExternalRef()),
  client_account_id: Nullable(RecordId()),
  client_account_external_ref: Nullable(ExternalRef()),
  contact_id: Nullable(RecordId()),
  lead_id: Nullable(RecordId()),
});
export type AssociationsInput = Static<typeof AssociationsBody>;

/** POST /v1/activities: idempotent on source + external_id. */
export const ActivityBody = Body(
  {
    type: ActivityType,
    subject: Nullable(Type.String({ maxLength: 500 })),
    body: Nullable(Type.String({ maxLength: 50_000 })),
    outcome: Nullable(
      Type.String({ maxLength: 255, description: 'e.g. connected, left voicemail; a call may send only this' }),
    ),
    direction: Type.Union([...DIRECTIONS.map((d) => Type.Literal(d)), Type.Null()]),
    duration_seconds: Nullable(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    occurred_at: Type.String({ maxLength: 64, description: 'ISO 8601 (no zone means UTC); default now' }),
    source: Type.String({
      minLength: 1,
      maxLength: 50,
      pattern: '\\S',
      description: "the logging system; default 'api'",
    }),
    external_id: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '\\S',
      description: 'with source, makes the call idempotent',
    }),
    associations: AssociationsBody,
  },
  { required: ['type'] },
);
export type ActivityInput = Static<typeof ActivityBody>;

export const ListActivitiesQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  client_account_id: Type.Optional(RecordId()),
  contact_id: Type.Optional(RecordId()),
  lead_id: Type.Optional(RecordId()),
  type: Type.Optional(ActivityType),
  source: Type.Optional(Type.String({ maxLength: 50 })),
  external_id: Type.Optional(Type.String({ maxLength: 255 })),
  updated_after: Type.Optional(Type.String({ description: 'ISO 8601; no zone means UTC' })),
  ...PageQuery(200),
});
