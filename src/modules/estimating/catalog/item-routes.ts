// /v1/catalog/items: crews, equipment, materials, trucks and dump sites (document 3, Estimating catalog).
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { filterOf } from './route-kit.ts';
import { CreateItemBody, IdParams, ItemListQuery, ItemSchema, UpdateItemBody } from './schemas.ts';
import * as items from './items.ts';

export function catalogItemRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/catalog/items',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'List catalog items (crews, equipment, materials, trucks, subcontractors, dump sites) A to Z',
        querystring: ItemListQuery,
        response: { 200: ListOf(ItemSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await items.listItems(ctx(request), filterOf(q), page.limit, page.offset);
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/catalog/items',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Create a catalog item',
        body: CreateItemBody,
        response: { 201: One(ItemSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await items.createItem(ctx(request), request.body) }),
  );

  app.get(
    '/v1/catalog/items/:id',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'Read a catalog item',
        params: IdParams,
        response: { 200: One(ItemSchema) },
      },
    },
    async (request) => ({ data: await items.getItem(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/catalog/items/:id',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary:
          'Update a catalog item (service cost lines keep their own unit costs); archived true/false archives or restores it',
        params: IdParams,
        body: UpdateItemBody,
        response: { 200: One(ItemSchema) },
      },
    },
    async (request) => ({ data: await items.updateItem(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/catalog/items/:id',
    {
      config: DELETE,
      schema: {
        tags: ['Catalog'],
        summary: 'Archive a catalog item',
        params: IdParams,
        response: { 200: One(ItemSchema) },
      },
    },
    async (request) => ({ data: await items.archiveItem(ctx(request), request.params.id) }),
  );

  // ---- price lists ----
}
