// /v1/jobs/{job_id}/details, /location, /operations-assignment and /contacts/{contact_id}.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { One } from '#platform/schemas.ts';
import {
  JobContactParams,
  JobDetailsBody,
  JobDetailsSchema,
  JobLocationAnswer,
  JobLocationBody,
  JobParams,
  OperationsAssignmentBody,
  OperationsSchema,
} from './schemas.ts';
import {
  getJobDetails,
  removeJobContact,
  setJobLocation,
  setOperationsAssignment,
  updateJobDetails,
} from './service.ts';

export function jobDetailRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:job_id/details',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Job details'],
        summary: 'Read job details',
        params: JobParams,
        response: { 200: One(JobDetailsSchema) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      return { data: await getJobDetails(ctx(request), job_id) };
    },
  );

  app.patch(
    '/v1/jobs/:job_id/details',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Job details'],
        summary: 'Update job details (only sent fields change)',
        params: JobParams,
        body: JobDetailsBody,
        response: { 200: One(JobDetailsSchema) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      return { data: await updateJobDetails(ctx(request), job_id, request.body) };
    },
  );

  app.put(
    '/v1/jobs/:job_id/location',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Job details'],
        summary: 'Link the job to a site, save its address as a site, or detach it',
        params: JobParams,
        body: JobLocationBody,
        response: { 200: One(JobLocationAnswer) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      return { data: await setJobLocation(ctx(request), job_id, request.body) };
    },
  );

  app.patch(
    '/v1/jobs/:job_id/operations-assignment',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Job details'],
        summary: 'Set the operations division and assignee (owner or schedule editor; crew scheduling on)',
        params: JobParams,
        body: OperationsAssignmentBody,
        response: { 200: One(OperationsSchema) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      return { data: await setOperationsAssignment(ctx(request), job_id, request.body) };
    },
  );

  app.delete(
    '/v1/jobs/:job_id/contacts/:contact_id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Job details'],
        summary: 'Take a person off the job',
        params: JobContactParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { job_id, contact_id } = request.params;
      await removeJobContact(ctx(request), job_id, contact_id);
      return reply.status(204).send(null);
    },
  );
}
