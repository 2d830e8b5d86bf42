// /v1/estimate-templates (document 3, Estimating catalog).
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { filterOf } from './route-kit.ts';
import { CatalogListQuery, CreateTemplateBody, IdParams, TemplateSchema, UpdateTemplateBody } from './schemas.ts';
import * as templates from './templates.ts';

export function estimateTemplateRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/estimate-templates',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'List estimate templates A to Z',
        querystring: CatalogListQuery,
        response: { 200: ListOf(TemplateSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await templates.listTemplates(ctx(request), filterOf(q), page.limit, page.offset);
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/estimate-templates',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Create an estimate template: areas with catalog services and quantities',
        body: CreateTemplateBody,
        response: { 201: One(TemplateSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await templates.createTemplate(ctx(request), request.body) }),
  );

  app.get(
    '/v1/estimate-templates/:id',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'Read an estimate template',
        params: IdParams,
        response: { 200: One(TemplateSchema) },
      },
    },
    async (request) => ({ data: await templates.getTemplate(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/estimate-templates/:id',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary:
          'Update an estimate template (areas replace the whole list); archived true/false archives or restores it',
        params: IdParams,
        body: UpdateTemplateBody,
        response: { 200: One(TemplateSchema) },
      },
    },
    async (request) => ({ data: await templates.updateTemplate(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/estimate-templates/:id',
    {
      config: DELETE,
      schema: {
        tags: ['Catalog'],
        summary: 'Archive an estimate template',
        params: IdParams,
        response: { 200: One(TemplateSchema) },
      },
    },
    async (request) => ({ data: await templates.archiveTemplate(ctx(request), request.params.id) }),
  );
}
