// Request bodies of /v1/jobs (document 2, Jobs); the service's JobInput is their static type.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateString, ExternalRef, Nullable, OneOf, RecordId, TEXT_CEILING } from '#platform/schemas.ts';

// Document 2 says over-long text is cut to the maximum (fields.ts cuts it), so the schema takes
// text up to the ceiling rather than refusing it at the field's maximum.
const text = (maxLength = TEXT_CEILING) => Nullable(Type.String({ maxLength }));
const StageKey = Type.String({
  maxLength: 50,
  description: 'stage key: lead (default), active, won, lost or a workspace stage',
});

const jobFields = {
  name: Type.String({ maxLength: TEXT_CEILING, description: 'cut to 200' }),
  external_ref: Nullable(ExternalRef()),
  address: text(),
  company: text(),
  client_account_id: Nullable(RecordId()),
  client_account_external_ref: Nullable(ExternalRef()),
  contact_name: text(),
  contact_email: text(),
  contact_phone: text(50),
  bill_to_name: text(),
  bill_to_email: text(),
  job_type: Type.Union(
    [
      Type.String({ maxLength: TEXT_CEILING }),
      Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 }),
      Type.Null(),
    ],
    { description: 'comma-separated string or list' },
  ),
  status: StageKey,
  priority: OneOf(['low', 'normal', 'high', 'urgent']),
  source: text(),
  description: text(),
  notes: text(),
  estimated_value: Nullable(Type.Number({ minimum: 0, maximum: 1e12, description: 'dollars' })),
  probability: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  start_date: Nullable(DateString),
  end_date: Nullable(DateString),
  next_follow_up: Nullable(DateString),
  assigned_to_user_id: RecordId(),
};

export const CreateJobBody = Body({ ...jobFields, allow_duplicate_name: Type.Boolean() });
export const UpdateJobBody = Body(jobFields);
/** A job create (the upsert) or update body: only sent fields change. */
export type JobInput = Static<typeof CreateJobBody>;

export const MoveJobBody = Body(
  {
    status: StageKey,
    confirm_schedule_completion: Type.Boolean({ description: 'needed when the move would complete open work orders' }),
  },
  { required: ['status'] },
);

export const MergeJobBody = Body({ into_job_id: RecordId() }, { required: ['into_job_id'] });
