// /v1/jobs (document 2, Jobs): list, read, upsert-create, update, move, delete, merge.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ExternalRef, IdParam, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { CreateJobBody, MergeJobBody, MoveJobBody, UpdateJobBody } from './schemas.ts';
import { JobSchema } from './serialize.ts';
import { createJob, deleteJob, getJob, getWrittenJob, listJobs, mergeJob, moveJob, updateJob } from './service.ts';

import { syncWindow } from '#platform/sync.ts';

const IncludeAssignees = { include_assignees: Type.Optional(Type.Boolean()) };

export function jobRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'List jobs, newest first (with updated_after: oldest updated first)',
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
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listJobs(
        ctx(request),
        {
          updatedAfter: syncWindow(q.updated_after, 'microsecond'),
          externalRef: q.external_ref,
          status: q.status,
          assignedToUserId: q.assigned_to_user_id,
          q: q.q?.trim() || undefined,
        },
        q.include_assignees === true,
        page.limit,
        page.offset,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/jobs/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Read a job',
        params: IdParam(),
        querystring: Type.Object(IncludeAssignees),
        response: { 200: One(JobSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { include_assignees } = request.query;
      return { data: await getJob(ctx(request), id, include_assignees === true) };
    },
  );

  app.post(
    '/v1/jobs',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Create a job; with external_ref an upsert (200 created false on a match)',
        body: CreateJobBody,
        response: {
          200: One(JobSchema, { created: Type.Boolean() }),
          201: One(JobSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { id, created } = await createJob(ctx(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: await getWrittenJob(ctx(request), id), created });
    },
  );

  app.patch(
    '/v1/jobs/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Update a job (only sent fields change; status moves the job)',
        params: IdParam(),
        body: UpdateJobBody,
        response: { 200: One(JobSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await updateJob(ctx(request), id, request.body);
      return { data: await getWrittenJob(ctx(request), id) };
    },
  );

  app.post(
    '/v1/jobs/:id/move',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Move a job to another pipeline stage',
        params: IdParam(),
        body: MoveJobBody,
        response: { 200: One(JobSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await moveJob(ctx(request), id, request.body.status);
      return { data: await getWrittenJob(ctx(request), id) };
    },
  );

  app.delete(
    '/v1/jobs/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Delete a job permanently',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteJob(ctx(request), id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/jobs/:id/merge',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Merge this job into another; this one is deleted',
        params: IdParam(),
        body: MergeJobBody,
        response: { 200: One(JobSchema, { merged_job_id: Type.Integer() }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { into_job_id } = request.body;
      await mergeJob(ctx(request), id, into_job_id);
      return { data: await getWrittenJob(ctx(request), into_job_id), merged_job_id: id };
    },
  );
}
