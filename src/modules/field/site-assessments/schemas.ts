// /v1/site-assessments request and answer schemas (document 3, Site assessment and pin).
import { type Static, Type } from '@sinclair/typebox';
import { MEASUREMENT_UNITS } from '#field/assessment-pins/measurement.ts';
import { PinSchema } from '#field/assessment-pins/schemas.ts';
import {
  Body,
  IdParam,
  ListOf,
  Nullable,
  NullableInstant,
  NullableObject,
  One,
  PageQuery,
  RecordId,
  StringEnum,
  TEXT_CEILING,
} from '#platform/schemas.ts';

export const ASSESSMENT_STATUSES = ['open', 'completed'] as const;
export const ASSESSMENT_SCOPES = ['job', 'location'] as const;

const Person = Type.Object({ id: Type.Integer(), name: Type.String() });

export const AssessmentSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  location_id: Nullable(Type.Integer()),
  scope: StringEnum(ASSESSMENT_SCOPES),
  title: Type.String(),
  notes: Nullable(Type.String()),
  status: StringEnum(ASSESSMENT_STATUSES),
  pin_count: Type.Integer(),
  created_by: NullableObject(Person),
  completed_at: NullableInstant(),
  created_at: Type.String({ description: 'UTC, Z' }),
  updated_at: Type.String({ description: 'UTC, Z; a pin added does not change it' }),
});

const Severities = Type.Object({ low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() });

export const ServiceRollupSchema = Type.Object({
  service_type_id: Nullable(Type.Integer({ description: 'null for the pins with no service ("Other pins")' })),
  label: Type.String(),
  color: Type.String(),
  pin_count: Type.Integer(),
  photo_count: Type.Integer(),
  quantities: Type.Array(Type.Object({ unit: StringEnum(MEASUREMENT_UNITS), value: Type.Number() })),
  severities: Severities,
  pin_ids: Type.Array(Type.Integer()),
});

export const HandoffSchema = Type.Object(
  {
    completed_at: Type.String(),
    completed_by: NullableObject(Person),
    pin_count: Type.Integer(),
    severity_totals: Severities,
    services: Type.Array(ServiceRollupSchema),
  },
  { description: 'What the assessment held when it was last completed; kept through a reopen' },
);

export const AssessmentDetailSchema = Type.Composite([
  AssessmentSchema,
  Type.Object({
    services: Type.Array(ServiceRollupSchema),
    severity_totals: Severities,
    handoff: NullableObject(HandoffSchema),
    pins: Type.Optional(Type.Array(PinSchema, { description: 'Omitted with include_pins=false' })),
  }),
]);

export const AssessmentListQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  location_id: Type.Optional(RecordId()),
  status: Type.Optional(StringEnum(ASSESSMENT_STATUSES)),
  scope: Type.Optional(StringEnum(ASSESSMENT_SCOPES)),
  updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; oldest first' })),
  ...PageQuery(200),
});

const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Not empty; at most 200' });
const Notes = Nullable(Type.String({ maxLength: TEXT_CEILING }));

export const CreateAssessmentBody = Body({ job_id: RecordId(), title: Title, notes: Notes }, { required: ['job_id'] });
export const UpdateAssessmentBody = Body({ title: Title, notes: Notes });
export const DuplicateAssessmentBody = Body({ title: Title });

export const AssessmentParams = IdParam();
export const DetailQuery = Type.Object({
  include_pins: Type.Optional(Type.Boolean({ default: true, description: 'false for the totals only' })),
});

export const OneAssessment = One(AssessmentSchema);
export const AssessmentList = ListOf(AssessmentSchema);

export type Assessment = Static<typeof AssessmentSchema>;
export type AssessmentDetail = Static<typeof AssessmentDetailSchema>;
export type Handoff = Static<typeof HandoffSchema>;
export type CreateAssessmentInput = Static<typeof CreateAssessmentBody>;
export type UpdateAssessmentInput = Static<typeof UpdateAssessmentBody>;
export type AssessmentListInput = Static<typeof AssessmentListQuery>;
