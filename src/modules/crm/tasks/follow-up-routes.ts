// The five routes every follow-up resource has (document 2, Follow-ups): job follow-ups at
// /v1/tasks and company follow-ups at /v1/account-tasks. Add (201), list (soonest due first, or
// oldest change first with updated_after), read, change and delete; each resource names its path,
// schemas, summaries, its parent's filter and its services.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { contextFor, type Env, type ServiceContext } from '#platform/context.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import type { FollowUpFilter } from './follow-up-query.ts';
import { dueBound } from './schemas.ts';

/** The list query's shared filters, as every follow-up list query declares them. */
interface FollowUpQuery {
  status?: 'open' | 'done' | 'all';
  assigned_to_user_id?: number;
  contact_id?: number;
  due_before?: string;
  due_after?: string;
  updated_after?: string;
}

/** The shared filters of a list query (open only unless status says otherwise). */
export function followUpFilterOf(q: FollowUpQuery): FollowUpFilter {
  return {
    status: q.status ?? 'open',
    assignedToUserId: q.assigned_to_user_id,
    contactId: q.contact_id,
    dueBefore: dueBound(q.due_before, 'due_before'),
    dueAfter: dueBound(q.due_after, 'due_after'),
    updatedAfter: syncWindow(q.updated_after, 'second'),
  };
}

/**
 * A follow-up resource. Its object's schema stays a plain TSchema here: Fastify's reply types cannot
 * be resolved through a generic one, and the services' own return types already pin the objects.
 */
export interface FollowUpResource<C extends TSchema, U extends TSchema, Q extends TSchema, F extends FollowUpFilter> {
  /** The collection's path, e.g. /v1/tasks. */
  path: string;
  schemas: { object: TSchema; create: C; update: U; list: Q };
  summaries: { create: string; list: string; read: string; update: string; delete: string };
  /** The list query as a filter (the shared one and the parent's) and a page. */
  query(q: Static<Q>): { filter: F; page: Page };
  create(ctx: ServiceContext, input: Static<C>): Promise<unknown>;
  list(ctx: ServiceContext, filter: F, page: Page): Promise<{ data: unknown[]; total: number }>;
  read(ctx: ServiceContext, id: number): Promise<unknown>;
  update(ctx: ServiceContext, id: number, input: Static<U>): Promise<unknown>;
  remove(ctx: ServiceContext, id: number): Promise<void>;
}

export function followUpResourceRoutes<
  C extends TSchema,
  U extends TSchema,
  Q extends TSchema,
  F extends FollowUpFilter,
>(app: ApiApp, env: Env, r: FollowUpResource<C, U, Q, F>): void {
  const ctx = contextFor(env);
  const tags = ['Follow-ups'];
  const item = `${r.path}/:id`;

  app.post(
    r.path,
    {
      config: WRITE,
      schema: { tags, summary: r.summaries.create, body: r.schemas.create, response: { 201: One(r.schemas.object) } },
    },
    async (request, reply) => reply.status(201).send({ data: await r.create(ctx(request), request.body) }),
  );

  app.get(
    r.path,
    {
      config: READ,
      schema: {
        tags,
        summary: r.summaries.list,
        querystring: r.schemas.list,
        response: { 200: ListOf(r.schemas.object) },
      },
    },
    async (request) => {
      const { filter, page } = r.query(request.query);
      const { data, total } = await r.list(ctx(request), filter, page);
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    item,
    {
      config: READ,
      schema: { tags, summary: r.summaries.read, params: IdParam(), response: { 200: One(r.schemas.object) } },
    },
    async (request) => ({ data: await r.read(ctx(request), request.params.id) }),
  );

  app.patch(
    item,
    {
      config: WRITE,
      schema: {
        tags,
        summary: r.summaries.update,
        params: IdParam(),
        body: r.schemas.update,
        response: { 200: One(r.schemas.object) },
      },
    },
    async (request) => ({ data: await r.update(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    item,
    {
      config: DELETE,
      schema: { tags, summary: r.summaries.delete, params: IdParam(), response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await r.remove(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
