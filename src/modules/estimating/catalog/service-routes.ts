// /v1/catalog/services and their default cost lines (document 3, Estimating catalog).
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { filterOf } from './route-kit.ts';
import {
  CostLineParams,
  CreateCostLineBody,
  CreateServiceBody,
  IdParams,
  ServiceListQuery,
  ServiceSchema,
  ServiceSummarySchema,
  UpdateCostLineBody,
  UpdateServiceBody,
} from './schemas.ts';
import * as services from './services.ts';

export function catalogServiceRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/catalog/services',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'List catalog services A to Z (archived ones only with include_archived=true)',
        querystring: ServiceListQuery,
        response: { 200: ListOf(ServiceSummarySchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await services.listServices(ctx(request), filterOf(q), page.limit, page.offset);
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/catalog/services',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Create a catalog service, optionally with its default cost lines',
        body: CreateServiceBody,
        response: { 201: One(ServiceSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await services.createService(ctx(request), request.body) }),
  );

  app.get(
    '/v1/catalog/services/:id',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'Read a catalog service with its cost lines',
        params: IdParams,
        response: { 200: One(ServiceSchema) },
      },
    },
    async (request) => ({ data: await services.getService(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/catalog/services/:id',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Update a catalog service; archived true/false archives or restores it',
        params: IdParams,
        body: UpdateServiceBody,
        response: { 200: One(ServiceSchema) },
      },
    },
    async (request) => ({ data: await services.updateService(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/catalog/services/:id',
    {
      config: DELETE,
      schema: {
        tags: ['Catalog'],
        summary: 'Archive a catalog service (estimates that use it keep their lines)',
        params: IdParams,
        response: { 200: One(ServiceSchema) },
      },
    },
    async (request) => ({ data: await services.archiveService(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/catalog/services/:id/cost-lines',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Add a default cost line to a service (at position, or last); answers the service',
        params: IdParams,
        body: CreateCostLineBody,
        response: { 201: One(ServiceSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await services.addCostLine(ctx(request), request.params.id, request.body) }),
  );

  app.patch(
    '/v1/catalog/services/:id/cost-lines/:line_id',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Change or move a default cost line; answers the service',
        params: CostLineParams,
        body: UpdateCostLineBody,
        response: { 200: One(ServiceSchema) },
      },
    },
    async (request) => {
      const { id, line_id } = request.params;
      return { data: await services.updateCostLine(ctx(request), id, line_id, request.body) };
    },
  );

  app.delete(
    '/v1/catalog/services/:id/cost-lines/:line_id',
    {
      config: DELETE,
      schema: {
        tags: ['Catalog'],
        summary: 'Remove a default cost line; answers the service',
        params: CostLineParams,
        response: { 200: One(ServiceSchema) },
      },
    },
    async (request) => {
      const { id, line_id } = request.params;
      return { data: await services.deleteCostLine(ctx(request), id, line_id) };
    },
  );

  // ---- items ----
}
