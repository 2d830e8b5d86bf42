// /v1/jobs/{job_id}/details, /location, /operations-assignment and /contacts/{contact_id}.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { Body, DateString, Nullable, NullableObject, One, RecordId } from '#platform/schemas.ts';
import { TagSchema } from '#crm/job-tags/routes.ts';
import { getJobDetails, removeJobContact, setJobLocation, setOperationsAssignment, updateJobDetails } from './service.ts';

const Id = RecordId();
const JobParams = Type.Object({ job_id: Id });
const LocationSummary = NullableObject(Type.Object({ id: Type.Integer(), name: Type.String(), address: Type.String() }));

const OperationsSchema = NullableObject(Type.Object({
  division: Nullable(Type.String()),
  division_name: Nullable(Type.String()),
  division_options: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
  assignee_user_id: Nullable(Type.Integer()),
  assignee: NullableObject(Type.Object({ id: Type.Integer(), name: Type.String() })),
}));

const JobDetailsSchema = Type.Object({
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

export function jobDetailRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get('/v1/jobs/:job_id/details', {
    config: { permissions: ['read_jobs'] },
    schema: { tags: ['Job details'], summary: 'Read job details', params: JobParams, response: { 200: One(JobDetailsSchema) } },
  }, async (request) => {
    const { job_id } = request.params;
    return { data: await getJobDetails(ctx(request), job_id) };
  });

  app.patch('/v1/jobs/:job_id/details', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Job details'], summary: 'Update job details (only sent fields change)', params: JobParams,
      body: Body({
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
      }),
      response: { 200: One(JobDetailsSchema) },
    },
  }, async (request) => {
    const { job_id } = request.params;
    return { data: await updateJobDetails(ctx(request), job_id, request.body) };
  });

  app.put('/v1/jobs/:job_id/location', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Job details'], summary: 'Link the job to a site, save its address as a site, or detach it', params: JobParams,
      body: Body({ location_id: Nullable(Id), create_from_address: Type.Boolean() }),
      response: {
        200: One(Type.Object({
          job_id: Type.Integer(), location_id: Nullable(Type.Integer()), location: LocationSummary, client_account_id: Nullable(Type.Integer()),
        })),
      },
    },
  }, async (request) => {
    const { job_id } = request.params;
    return { data: await setJobLocation(ctx(request), job_id, request.body) };
  });

  app.patch('/v1/jobs/:job_id/operations-assignment', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Job details'], summary: 'Set the operations division and assignee (owner or schedule editor; crew scheduling on)',
      params: JobParams,
      body: Body({ division: Nullable(Type.String({ maxLength: 50 })), operations_assignee_user_id: Nullable(Id) }),
      response: { 200: One(OperationsSchema) },
    },
  }, async (request) => {
    const { job_id } = request.params;
    return { data: await setOperationsAssignment(ctx(request), job_id, request.body) };
  });

  app.delete('/v1/jobs/:job_id/contacts/:contact_id', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Job details'], summary: 'Take a person off the job',
      params: Type.Object({ job_id: Id, contact_id: Id }), response: { 204: Type.Null() },
    },
  }, async (request, reply) => {
    const { job_id, contact_id } = request.params;
    await removeJobContact(ctx(request), job_id, contact_id);
    return reply.status(204).send(null);
  });
}
