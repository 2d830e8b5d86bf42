// Schemas of the follow-up sequence (document 2, Follow-up sequence: GET /v1/jobs/{id}/follow-up-
// sequence, …/start, …/stop) and of its settings (GET/PUT /v1/follow-up-sequence-settings;
// docs/api-decisions.md, Follow-up sequences).
import { Type, type Static } from '@sinclair/typebox';
import { Body, Nullable, RecordId } from '#platform/schemas.ts';
import { PLACEHOLDERS } from './templates.ts';

export const MAX_STEPS = 20;
export const MAX_DAY = 365;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 5000;

const placeholders = PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ');

export const SequenceStepBody = Type.Object(
  {
    day: Type.Integer({
      minimum: 0,
      maximum: MAX_DAY,
      description: 'Days after the start the step is due (0: at once)',
    }),
    kind: Type.Union([Type.Literal('email'), Type.Literal('task')], {
      description: "email: mails the job's customer; task: a follow-up on the job for its salesperson",
    }),
    subject: Type.Optional(
      Nullable(Type.String({ maxLength: SUBJECT_MAX, description: `Email steps; placeholders ${placeholders}` })),
    ),
    body: Type.Optional(
      Nullable(
        Type.String({
          maxLength: BODY_MAX,
          description: `Email steps; plain text, blank lines between paragraphs; placeholders ${placeholders}`,
        }),
      ),
    ),
    title: Type.Optional(
      Nullable(Type.String({ maxLength: SUBJECT_MAX, description: `Task steps; placeholders ${placeholders}` })),
    ),
  },
  { additionalProperties: false },
);
export type SequenceStepInput = Static<typeof SequenceStepBody>;

export const SequenceSettingsBody = Body({
  enabled: Type.Boolean({ description: 'Whether jobs can start the sequence (needs at least one step)' }),
  stop_on_customer_reply: Type.Boolean({
    description: 'Whether a running sequence stops when the customer answers in the portal',
  }),
  steps: Type.Array(SequenceStepBody, { maxItems: MAX_STEPS, description: 'Replaces every step; ordered by day' }),
});
export type SequenceSettingsInput = Static<typeof SequenceSettingsBody>;

const StepSchema = Type.Object({
  day: Type.Integer(),
  kind: Type.String({ description: 'email or task' }),
  subject: Nullable(Type.String()),
  body: Nullable(Type.String()),
  title: Nullable(Type.String()),
});

export const SequenceSettingsSchema = Type.Object({
  enabled: Type.Boolean(),
  stop_on_customer_reply: Type.Boolean(),
  steps: Type.Array(StepSchema),
  placeholders: Type.Array(Type.String(), { description: 'The placeholders templates may use' }),
  updated_at: Nullable(Type.String({ description: 'null until the sequence is first saved' })),
});

export const JobStepSchema = Type.Object({
  ...StepSchema.properties,
  due_at: Nullable(Type.String({ description: 'When the step is due (running sequences); null otherwise' })),
  status: Nullable(Type.String({ description: "open while running; null for the sequence's own steps" })),
});

export const JobSequenceSchema = Type.Object({
  job_id: Type.Integer(),
  sequence_enabled: Type.Boolean({ description: 'The workspace has a sequence on' }),
  running: Type.Boolean(),
  steps: Type.Array(JobStepSchema, {
    description: "The open steps while running; the sequence's steps when not",
  }),
  through_day: Nullable(
    Type.Integer({ description: 'The last day the sequence runs through (its last step); null without steps' }),
  ),
});

export const JobParams = Type.Object({ id: RecordId() });
