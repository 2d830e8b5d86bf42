// Request bodies of /v1/jobs (document 2, Jobs); the service's JobInput is their static type.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateString, Nullable, NullableString, OneOf, RecordId } from '#platform/schemas.ts';

const jobFields = {
  // No maxLength on text: document 2 says over-long text is cut to the maximum, not refused.
  name: Type.String(),
  external_ref: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  address: NullableString(),
  company: NullableString(),
  client_account_id: Nullable(RecordId()),
  client_account_external_ref: Nullable(Type.String({ minLength: 1, maxLength: 255 })),
  contact_name: NullableString(), contact_email: NullableString(), contact_phone: NullableString(),
  bill_to_name: NullableString(), bill_to_email: NullableString(),
  job_type: Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()], { description: 'comma-separated string or list' }),
  status: Type.String({ description: 'stage key: lead (default), active, won, lost or a workspace stage' }),
  priority: OneOf(['low', 'normal', 'high', 'urgent']),
  source: NullableString(),
  description: NullableString(), notes: NullableString(),
  estimated_value: Nullable(Type.Number({ minimum: 0, maximum: 1e12, description: 'dollars' })),
  probability: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  start_date: Nullable(DateString), end_date: Nullable(DateString), next_follow_up: Nullable(DateString),
  assigned_to_user_id: RecordId(),
};

export const CreateJobBody = Body({ ...jobFields, allow_duplicate_name: Type.Boolean() });
export const UpdateJobBody = Body(jobFields);
/** A job create (the upsert) or update body: only sent fields change. */
export type JobInput = Static<typeof CreateJobBody>;

export const MoveJobBody = Body({
  status: Type.String(),
  confirm_schedule_completion: Type.Boolean({ description: 'needed when the move would complete open work orders' }),
}, { required: ['status'] });

export const MergeJobBody = Body({ into_job_id: RecordId() }, { required: ['into_job_id'] });
