// /v1/locations: sites (document 2, Syncing rules and Required fields of create calls).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { listLocations } from './repo.ts';
import { CreateLocationBody, ListLocationsQuery, UpdateLocationBody } from './schemas.ts';
import { LocationSchema, locationObject } from './serialize.ts';
import { getLocation, updateLocation, upsertLocation } from './service.ts';

export function locationRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/locations',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Sites'],
        summary: 'List sites (archived ones drop out unless include_archived=true)',
        querystring: ListLocationsQuery,
        response: { 200: ListOf(LocationSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { rows, total } = await listLocations(
        env.database.db,
        request.auth.firm.id,
        {
          externalRef: q.external_ref,
          clientAccountId: q.client_account_id,
          q: q.q?.trim() || undefined,
          includeArchived: q.include_archived,
          engine: env.database.dialect.engine,
        },
        page.limit,
        page.offset,
      );
      return listEnvelope(rows.map(locationObject), total, page);
    },
  );

  app.post(
    '/v1/locations',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Sites'],
        summary: 'Create or match a site (upsert on external_ref, then address)',
        body: CreateLocationBody,
        response: {
          200: One(LocationSchema, { created: Type.Boolean() }),
          201: One(LocationSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { location, created } = await upsertLocation(ctx(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: locationObject(location), created });
    },
  );

  app.get(
    '/v1/locations/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags: ['Sites'], summary: 'Read a site', params: IdParam(), response: { 200: One(LocationSchema) } },
    },
    async (request) => {
      const { id } = request.params;
      return { data: locationObject(await getLocation(ctx(request), id)) };
    },
  );

  app.patch(
    '/v1/locations/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Sites'],
        summary: 'Update a site; archived true/false archives or restores it',
        params: IdParam(),
        body: UpdateLocationBody,
        response: { 200: One(LocationSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: locationObject(await updateLocation(ctx(request), id, request.body)) };
    },
  );
}
