// /v1/tasks: job follow-ups. Company follow-ups (/v1/account-tasks) register from here too.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { CreateTaskBody, dueBound, ListTasksQuery, UpdateTaskBody } from './schemas.ts';
import { TaskSchema } from './serialize.ts';
import { createTask, deleteTask, getTask, listTasksOf, updateTask } from './service.ts';

export function taskRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/tasks',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Add a follow-up to a job (each call adds one)',
        body: CreateTaskBody,
        response: { 201: One(TaskSchema) },
      },
    },
    async (request, reply) => {
      const task = await createTask(ctx(request), request.body);
      return reply.status(201).send({ data: task });
    },
  );

  app.get(
    '/v1/tasks',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'List job follow-ups, soonest due first (with updated_after: oldest updated first)',
        querystring: ListTasksQuery,
        response: { 200: ListOf(TaskSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listTasksOf(
        ctx(request),
        {
          jobId: q.job_id,
          status: q.status ?? 'open',
          assignedToUserId: q.assigned_to_user_id,
          contactId: q.contact_id,
          dueBefore: dueBound(q.due_before, 'due_before'),
          dueAfter: dueBound(q.due_after, 'due_after'),
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/tasks/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Read a job follow-up',
        params: IdParam(),
        response: { 200: One(TaskSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await getTask(ctx(request), id) };
    },
  );

  app.patch(
    '/v1/tasks/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Change a job follow-up; status done completes it, open reopens it',
        params: IdParam(),
        body: UpdateTaskBody,
        response: { 200: One(TaskSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await updateTask(ctx(request), id, request.body) };
    },
  );

  app.delete(
    '/v1/tasks/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Delete a job follow-up',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteTask(ctx(request), id);
      return reply.status(204).send(null);
    },
  );
}
