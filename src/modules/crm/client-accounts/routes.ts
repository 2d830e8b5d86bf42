// /v1/client-accounts: customers (document 2, Syncing rules and Required fields of create calls).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { listClientAccounts } from './repo.ts';
import { CreateClientAccountBody, ListClientAccountsQuery, UpdateClientAccountBody } from './schemas.ts';
import { ClientAccountSchema, clientAccountObject } from './serialize.ts';
import { getClientAccount, updateClientAccount, upsertClientAccount } from './service.ts';

export function clientAccountRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/client-accounts',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Customers'],
        summary: 'List customers (archived ones drop out unless include_archived=true)',
        querystring: ListClientAccountsQuery,
        response: { 200: ListOf(ClientAccountSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { rows, total } = await listClientAccounts(
        env.database.db,
        request.auth.firm.id,
        {
          externalRef: q.external_ref,
          q: q.q?.trim() || undefined,
          includeArchived: q.include_archived,
          engine: env.database.dialect.engine,
        },
        page.limit,
        page.offset,
      );
      return listEnvelope(rows.map(clientAccountObject), total, page);
    },
  );

  app.post(
    '/v1/client-accounts',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Customers'],
        summary: 'Create or match a customer (upsert on external_ref, then name)',
        body: CreateClientAccountBody,
        response: {
          200: One(ClientAccountSchema, { created: Type.Boolean() }),
          201: One(ClientAccountSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { account, created } = await upsertClientAccount(ctx(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: clientAccountObject(account), created });
    },
  );

  app.get(
    '/v1/client-accounts/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Customers'],
        summary: 'Read a customer',
        params: IdParam(),
        response: { 200: One(ClientAccountSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: clientAccountObject(await getClientAccount(ctx(request), id)) };
    },
  );

  app.patch(
    '/v1/client-accounts/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Customers'],
        summary: 'Update a customer; archived true/false archives or restores it',
        params: IdParam(),
        body: UpdateClientAccountBody,
        response: { 200: One(ClientAccountSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: clientAccountObject(await updateClientAccount(ctx(request), id, request.body)) };
    },
  );
}
