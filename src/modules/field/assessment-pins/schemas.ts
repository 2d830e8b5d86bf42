// /v1/assessment-pins request and answer schemas (document 3, Site assessment and pin).
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { MEASUREMENT_TYPES } from '#field/assessment-services/schemas.ts';
import {
  Body,
  IdParam,
  ListOf,
  Nullable,
  NullableEnum,
  NullableObject,
  One,
  PageQuery,
  RecordId,
  StringEnum,
  TEXT_CEILING,
  withMessage,
} from '#platform/schemas.ts';
import { MEASUREMENT_UNITS } from './measurement.ts';

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export const SIZES = ['small', 'medium', 'large'] as const;
export const VISIBILITIES = ['internal', 'external'] as const;
export type Severity = (typeof SEVERITIES)[number];

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

/** A pin's photo: the photos module's links (as in GET /v1/photos/{id}) and a few of its fields. */
export const PinPhotoSchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  thumbnail_url: Nullable(Type.String()),
  title: Nullable(Type.String()),
  caption: Nullable(Type.String()),
  stage: Type.String(),
  visibility: Type.String(),
  is_video: Type.Boolean(),
  taken_at: Nullable(Type.String()),
});

export const PinSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  assessment_id: Nullable(Type.Integer({ description: 'null outside an assessment (a loose pin)' })),
  label: Type.String({ description: 'name, else service name with number, else Pin n' }),
  name: Nullable(Type.String()),
  latitude: Type.Number(),
  longitude: Type.Number(),
  service_type: NullableObject(Ref),
  tag: NullableObject(Ref),
  defect_type: NullableObject(Ref),
  color: Type.String({ description: "#rrggbb: the service's color, else the tag's, else gray" }),
  severity: StringEnum(SEVERITIES),
  size: StringEnum(SIZES),
  notes: Nullable(Type.String()),
  visibility: StringEnum(VISIBILITIES),
  keep_for_proposal: Type.Boolean(),
  measurement: Type.Object({
    type: StringEnum(MEASUREMENT_TYPES),
    value: Nullable(Type.Number()),
    unit: NullableEnum(MEASUREMENT_UNITS),
    data: Type.Record(Type.String(), Type.Unknown()),
  }),
  ai_severity: Nullable(Type.String()),
  ai_rationale: Nullable(Type.String()),
  photos: Type.Array(PinPhotoSchema),
  created_by_user_id: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/**
 * A pin field's choice, refused in the spec's words for pin fields: "severity must be one of: low,
 * medium, high" (document 3, Site assessments and pins).
 */
const Choice = <T extends TSchema>(field: string, values: readonly string[], schema: T) =>
  withMessage(schema, `${field} must be one of: ${values.join(', ')}`);

const Length = (description: string, maximum: number) => Nullable(Type.Number({ minimum: 0, maximum, description }));

/** Fields a create and an update both take. */
const pinFields = {
  latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Required on create (with longitude)' }),
  longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Required on create (with latitude)' }),
  service_type_id: Nullable(RecordId({ description: 'An assessment service (GET /v1/assessment-services)' })),
  measurement_type: Choice('measurement_type', MEASUREMENT_TYPES, StringEnum(MEASUREMENT_TYPES)),
  measurement_value: Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000 })),
  measurement_unit: Choice('measurement_unit', MEASUREMENT_UNITS, NullableEnum(MEASUREMENT_UNITS)),
  length_ft: Length('Feet', 100_000),
  width_ft: Length('Feet', 100_000),
  depth_in: Length('Inches', 1_000),
  measurement_data: Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100 }),
  severity: Choice('severity', SEVERITIES, StringEnum(SEVERITIES, { description: 'Default medium' })),
  size: Choice('size', SIZES, StringEnum(SIZES, { description: 'Default medium' })),
  notes: Nullable(Type.String({ maxLength: TEXT_CEILING })),
  name: Nullable(Type.String({ maxLength: 80 })),
  visibility: Choice('visibility', VISIBILITIES, StringEnum(VISIBILITIES, { description: 'Default external' })),
  keep_for_proposal: Type.Boolean({ description: 'Default false' }),
  tag_type_id: Nullable(RecordId({ description: 'A photo tag (GET /v1/photo-tags)' })),
  defect_type_id: Nullable(RecordId({ description: 'GET /v1/assessment-defect-types' })),
};

// latitude and longitude are checked by the service, so that a missing one answers the spec's
// "latitude and longitude are required" rather than naming one field.
export const CreatePinBody = Body({
  job_id: RecordId({ description: 'Required unless assessment_id is given' }),
  assessment_id: RecordId({ description: 'An open assessment; the job’s open one when not given' }),
  ...pinFields,
});
export const UpdatePinBody = Body(pinFields);

export const PinListQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  assessment_id: Type.Optional(RecordId()),
  service_type_id: Type.Optional(RecordId()),
  updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; oldest first' })),
  ...PageQuery(200),
});

export const PinParams = IdParam();
export const OnePin = One(PinSchema);
export const PinList = ListOf(PinSchema);

export type CreatePinInput = Static<typeof CreatePinBody>;
export type UpdatePinInput = Static<typeof UpdatePinBody>;
export type PinListInput = Static<typeof PinListQuery>;
export type Pin = Static<typeof PinSchema>;
export type PinPhoto = Static<typeof PinPhotoSchema>;
