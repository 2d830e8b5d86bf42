// /v1/jobs (document 2, Jobs): list, read, upsert-create, update, move, delete, merge.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { Body, DateString, ExternalRef, IdParam, ListOf, Nullable, One, PageQuery, RecordId, TEXT_CEILING } from '#platform/schemas.ts';
import type { JobInput } from './fields.ts';
import { JobSchema } from './serialize.ts';
import { createJob, deleteJob, getJob, getWrittenJob, listJobs, mergeJob, moveJob, updateJob } from './service.ts';

// Document 2 says over-long text is cut to the maximum (fields.ts cuts it), so the schema takes
// text up to the ceiling rather than refusing it at the field's maximum.
const text = (maxLength = TEXT_CEILING) => Nullable(Type.String({ maxLength }));
const StageKey = Type.String({ maxLength: 50, description: 'stage key: lead (default), active, won, lost or a workspace stage' });
const jobFields = {
  name: Type.String({ maxLength: TEXT_CEILING, description: 'cut to 200' }),
  external_ref: Nullable(ExternalRef()),
  address: text(),
  company: text(),
  client_account_id: Nullable(RecordId()),
  client_account_external_ref: Nullable(ExternalRef()),
  contact_name: text(), contact_email: text(), contact_phone: text(50),
  bill_to_name: text(), bill_to_email: text(),
  job_type: Type.Union([Type.String({ maxLength: TEXT_CEILING }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 }), Type.Null()],
    { description: 'comma-separated string or list' }),
  status: StageKey,
  priority: Type.Union(['low', 'normal', 'high', 'urgent'].map((p) => Type.Literal(p))),
  source: text(),
  description: text(), notes: text(),
  estimated_value: Nullable(Type.Number({ minimum: 0, maximum: 1e12, description: 'dollars' })),
  probability: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  start_date: Nullable(DateString), end_date: Nullable(DateString), next_follow_up: Nullable(DateString),
  assigned_to_user_id: RecordId(),
};

const IncludeAssignees = { include_assignees: Type.Optional(Type.Boolean()) };

export function jobRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get('/v1/jobs', {
    config: { permissions: ['read_jobs'] },
    schema: {
      tags: ['Jobs'], summary: 'List jobs, newest first (with updated_after: oldest updated first)',
      querystring: Type.Object({
        updated_after: Type.Optional(Type.String({ description: 'ISO 8601; no zone means UTC' })),
        external_ref: Type.Optional(ExternalRef('lookup')),
        status: Type.Optional(Type.String()),
        assigned_to_user_id: Type.Optional(RecordId()),
        q: Type.Optional(Type.String({ description: 'case-insensitive over name, company, address, contact name' })),
        ...IncludeAssignees,
        ...PageQuery(100),
      }),
      response: { 200: ListOf(JobSchema) },
    },
  }, async (request) => {
    const q = request.query as { updated_after?: string; external_ref?: string; status?: string; assigned_to_user_id?: number;
      q?: string; include_assignees?: boolean; limit?: number; offset?: number };
    const page = pageOf(q);
    const { data, total } = await listJobs(ctx(request), {
      updatedAfter: syncWindow(q.updated_after, 'microsecond'), externalRef: q.external_ref, status: q.status,
      assignedToUserId: q.assigned_to_user_id, q: q.q?.trim() || undefined,
    }, q.include_assignees === true, page.limit, page.offset);
    return listEnvelope(data, total, page);
  });

  app.get('/v1/jobs/:id', {
    config: { permissions: ['read_jobs'] },
    schema: {
      tags: ['Jobs'], summary: 'Read a job', params: IdParam(),
      querystring: Type.Object(IncludeAssignees),
      response: { 200: One(JobSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    const { include_assignees } = request.query as { include_assignees?: boolean };
    return { data: await getJob(ctx(request), id, include_assignees === true) };
  });

  app.post('/v1/jobs', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Jobs'], summary: 'Create a job; with external_ref an upsert (200 created false on a match)',
      body: Body({ ...jobFields, allow_duplicate_name: Type.Boolean() }),
      response: { 200: One(JobSchema, { created: Type.Boolean() }), 201: One(JobSchema, { created: Type.Boolean() }) },
    },
  }, async (request, reply) => {
    const { id, created } = await createJob(ctx(request), request.body as JobInput);
    return reply.status(created ? 201 : 200).send({ data: await getWrittenJob(ctx(request), id), created });
  });

  app.patch('/v1/jobs/:id', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Jobs'], summary: 'Update a job (only sent fields change; status moves the job)', params: IdParam(),
      body: Body(jobFields), response: { 200: One(JobSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    await updateJob(ctx(request), id, request.body as JobInput);
    return { data: await getWrittenJob(ctx(request), id) };
  });

  app.post('/v1/jobs/:id/move', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Jobs'], summary: 'Move a job to another pipeline stage', params: IdParam(),
      body: Body({
        status: StageKey,
        confirm_schedule_completion: Type.Boolean({ description: 'needed when the move would complete open work orders' }),
      }, { required: ['status'] }),
      response: { 200: One(JobSchema) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    await moveJob(ctx(request), id, (request.body as { status: string }).status);
    return { data: await getWrittenJob(ctx(request), id) };
  });

  app.delete('/v1/jobs/:id', {
    config: { permissions: ['write_jobs', 'delete_records'] },
    schema: { tags: ['Jobs'], summary: 'Delete a job permanently', params: IdParam(), response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const { id } = request.params as { id: number };
    await deleteJob(ctx(request), id);
    return reply.status(204).send();
  });

  app.post('/v1/jobs/:id/merge', {
    config: { permissions: ['write_jobs', 'delete_records'] },
    schema: {
      tags: ['Jobs'], summary: 'Merge this job into another; this one is deleted', params: IdParam(),
      body: Body({ into_job_id: RecordId() }, { required: ['into_job_id'] }),
      response: { 200: One(JobSchema, { merged_job_id: Type.Integer() }) },
    },
  }, async (request) => {
    const { id } = request.params as { id: number };
    const { into_job_id } = request.body as { into_job_id: number };
    await mergeJob(ctx(request), id, into_job_id);
    return { data: await getWrittenJob(ctx(request), into_job_id), merged_job_id: id };
  });
}
