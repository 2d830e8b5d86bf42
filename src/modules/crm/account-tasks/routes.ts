// /v1/account-tasks: company follow-ups. Registered by tasks/routes.ts (taskRoutes).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { dueBound } from '#crm/tasks/schemas.ts';
import { CreateAccountTaskBody, ListAccountTasksQuery, UpdateAccountTaskBody } from './schemas.ts';
import { AccountTaskSchema } from './serialize.ts';
import {
  createAccountTask,
  deleteAccountTask,
  getAccountTask,
  listAccountTasksOf,
  updateAccountTask,
} from './service.ts';

export function accountTaskRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/account-tasks',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: "Add a follow-up to a customer (title defaults from the type and the customer's name)",
        body: CreateAccountTaskBody,
        response: { 201: One(AccountTaskSchema) },
      },
    },
    async (request, reply) => {
      const task = await createAccountTask(ctx(request), request.body);
      return reply.status(201).send({ data: task });
    },
  );

  app.get(
    '/v1/account-tasks',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'List company follow-ups, soonest due first (with updated_after: oldest updated first)',
        querystring: ListAccountTasksQuery,
        response: { 200: ListOf(AccountTaskSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listAccountTasksOf(
        ctx(request),
        {
          clientAccountId: q.client_account_id,
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
    '/v1/account-tasks/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Read a company follow-up',
        params: IdParam(),
        response: { 200: One(AccountTaskSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await getAccountTask(ctx(request), id) };
    },
  );

  app.patch(
    '/v1/account-tasks/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        summary:
          'Change a company follow-up; status done completes it (a repeating one moves to its next round and stays open)',
        params: IdParam(),
        body: UpdateAccountTaskBody,
        response: { 200: One(AccountTaskSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await updateAccountTask(ctx(request), id, request.body) };
    },
  );

  app.delete(
    '/v1/account-tasks/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Follow-ups'],
        summary: 'Delete a company follow-up',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteAccountTask(ctx(request), id);
      return reply.status(204).send(null);
    },
  );
}
