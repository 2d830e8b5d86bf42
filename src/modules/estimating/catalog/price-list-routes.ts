// /v1/price-lists (document 3, Estimating catalog).
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { filterOf } from './route-kit.ts';
import {
  CatalogListQuery,
  CreatePriceListBody,
  IdParams,
  PriceListSchema,
  PriceListSummarySchema,
  UpdatePriceListBody,
} from './schemas.ts';
import * as priceLists from './price-lists.ts';

export function priceListRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/price-lists',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'List price lists A to Z',
        querystring: CatalogListQuery,
        response: { 200: ListOf(PriceListSummarySchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await priceLists.listPriceLists(ctx(request), filterOf(q), page.limit, page.offset);
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/price-lists',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary: 'Create a price list with service unit prices and item unit costs',
        body: CreatePriceListBody,
        response: { 201: One(PriceListSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await priceLists.createPriceList(ctx(request), request.body) }),
  );

  app.get(
    '/v1/price-lists/:id',
    {
      config: READ,
      schema: {
        tags: ['Catalog'],
        summary: 'Read a price list with its entries',
        params: IdParams,
        response: { 200: One(PriceListSchema) },
      },
    },
    async (request) => ({ data: await priceLists.getPriceList(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/price-lists/:id',
    {
      config: WRITE,
      schema: {
        tags: ['Catalog'],
        summary:
          'Update a price list; services/items arrays replace its entries; archived true/false archives or restores it',
        params: IdParams,
        body: UpdatePriceListBody,
        response: { 200: One(PriceListSchema) },
      },
    },
    async (request) => ({ data: await priceLists.updatePriceList(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/price-lists/:id',
    {
      config: DELETE,
      schema: {
        tags: ['Catalog'],
        summary: 'Archive a price list (it stops being the default)',
        params: IdParams,
        response: { 200: One(PriceListSchema) },
      },
    },
    async (request) => ({ data: await priceLists.archivePriceList(ctx(request), request.params.id) }),
  );

  // ---- estimate templates ----
}
