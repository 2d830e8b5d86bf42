// /v1/catalog/services (with their default cost lines), /v1/catalog/items, /v1/price-lists and
// /v1/estimate-templates. Reads need read_jobs; writes need write_jobs and an owner or
// estimating admin user (403 estimating_admin_required). DELETE archives; PATCH {archived:false}
// restores.
import type { Static } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import type { Permission } from '#platform/permissions.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import * as items from './items.ts';
import * as priceLists from './price-lists.ts';
import {
  CatalogListQuery,
  CostLineParams,
  CreateCostLineBody,
  CreateItemBody,
  CreatePriceListBody,
  CreateServiceBody,
  CreateTemplateBody,
  IdParams,
  ItemListQuery,
  ItemSchema,
  PriceListSchema,
  PriceListSummarySchema,
  ServiceListQuery,
  ServiceSchema,
  ServiceSummarySchema,
  TemplateSchema,
  UpdateCostLineBody,
  UpdateItemBody,
  UpdatePriceListBody,
  UpdateServiceBody,
  UpdateTemplateBody,
} from './schemas.ts';
import * as services from './services.ts';
import * as templates from './templates.ts';

type ListQuery = Partial<Static<typeof ServiceListQuery> & Static<typeof ItemListQuery>>;
const filterOf = (q: ListQuery) => ({
  q: q.q?.trim() || undefined,
  includeArchived: q.include_archived,
  category: q.category,
  estimatingMode: q.estimating_mode,
  kind: q.kind,
});
const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };
const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };
/** Deletes (archives included) also need Delete records, as every DELETE of the API does (document 1, Permissions). */
const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };

export function catalogRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  // ---- services ----
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
