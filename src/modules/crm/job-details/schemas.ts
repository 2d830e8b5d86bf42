// Request and response schemas of /v1/jobs/{job_id}/details, /location, /operations-assignment and
// /contacts/{contact_id} (document 2, Job details, site, tags); the service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import { Body, DateString, Nullable, NullableObject, RecordId } from '#platform/schemas.ts';
import { TagSchema } from '#crm/job-tags/routes.ts';

const Id = RecordId();
export const JobParams = Type.Object({ job_id: Id });
export const JobContactParams = Type.Object({ job_id: Id, contact_id: Id });

const LocationSummary = NullableObject(
  Type.Object({ id: Type.Integer(), name: Type.String(), address: Type.String() }),
);

export const OperationsSchema = NullableObject(
  Type.Object({
    division: Nullable(Type.String()),
    division_name: Nullable(Type.String()),
    division_options: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
    assignee_user_id: Nullable(Type.Integer()),
    assignee: NullableObject(Type.Object({ id: Type.Integer(), name: Type.String() })),
  }),
);

export const JobDetailsSchema = Type.Object({
  job_id: Type.Integer(),
  job_number: Type.Integer(),
  display_job_number: Type.String(),
  accounting_job_number: Nullable(Type.String()),
  property_reference: Nullable(Type.String()),
  own_property_reference: Nullable(Type.String()),
  external_work_order_number: Nullable(Type.String()),
  description_customer_visible: Type.Boolean(),
  bid_due_date: Nullable(Type.String()),
  customer_type: Nullable(Type.String()),
  property_type: Nullable(Type.String()),
  bond_required: Nullable(Type.Boolean()),
  liquidated_damages: Nullable(Type.Boolean()),
  davis_bacon: Nullable(Type.Boolean()),
  liquidated_damages_per_day: Nullable(Type.Number()),
  linked_contact_id: Nullable(Type.Integer()),
  location_id: Nullable(Type.Integer()),
  location: LocationSummary,
  tags: Type.Array(TagSchema),
  operations: OperationsSchema,
});

/** PATCH /v1/jobs/{job_id}/details: only sent fields change. */
export const JobDetailsBody = Body({
  job_number: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  accounting_job_number: Nullable(Type.String({ maxLength: 80 })),
  property_reference: Nullable(Type.String({ maxLength: 100 })),
  external_work_order_number: Nullable(Type.String({ maxLength: 100 })),
  description_customer_visible: Type.Boolean(),
  bid_due_date: Nullable(DateString),
  customer_type: Nullable(Type.String({ maxLength: 100 })),
  property_type: Nullable(Type.String({ maxLength: 100 })),
  bond_required: Nullable(Type.Boolean()),
  liquidated_damages: Nullable(Type.Boolean()),
  davis_bacon: Nullable(Type.Boolean()),
  liquidated_damages_per_day: Nullable(Type.Number({ minimum: 0, maximum: 1e9, description: 'dollars' })),
  linked_contact_id: Nullable(Id),
});
export type JobDetailsInput = Static<typeof JobDetailsBody>;

/** PUT /v1/jobs/{job_id}/location. */
export const JobLocationBody = Body({ location_id: Nullable(Id), create_from_address: Type.Boolean() });
export type JobLocationInput = Static<typeof JobLocationBody>;
export const JobLocationAnswer = Type.Object({
  job_id: Type.Integer(),
  location_id: Nullable(Type.Integer()),
  location: LocationSummary,
  client_account_id: Nullable(Type.Integer()),
});

/** PATCH /v1/jobs/{job_id}/operations-assignment. */
export const OperationsAssignmentBody = Body({
  division: Nullable(Type.String({ maxLength: 50 })),
  operations_assignee_user_id: Nullable(Id),
});
export type OperationsAssignmentInput = Static<typeof OperationsAssignmentBody>;
