// Landscape takeoffs (document 3, "Landscape takeoffs"): the classes, takeoffs, their items and
// history, detect runs and undo. A plan takeoff's own routes (its schedule, sheets and runs) are
// plans/routes.ts.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { pageOf } from '#platform/pagination.ts';
import type { ApiApp } from '#platform/routes.ts';
import { IdParam, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { classesObject } from './classes.ts';
import { HistoryEntrySchema, takeoffHistory } from './history.ts';
import { addItems, deleteItem, listItems, updateItem } from './items.ts';
import { getRun, startDetect } from './runs.ts';
import {
  AddItemsBody,
  AnyItemSchema,
  ClassesSchema,
  CreateTakeoffBody,
  DetectBody,
  ItemChanged,
  ItemListQuery,
  ItemsAdded,
  RunSchema,
  TakeoffListQuery,
  TakeoffRowSchema,
  TakeoffSchema,
  UnitQuery,
  UpdateItemBody,
} from './schemas.ts';
import { createAerialTakeoff, getTakeoff, takeoffList } from './takeoffs.ts';
import { startPlanTakeoff } from './plans/start.ts';
import { undoRun } from './undo.ts';

const TAGS = ['Landscape'];
const READ = { permissions: ['read_measurements' as const] };
const WRITE = { permissions: ['write_measurements' as const] };

const ItemParams = Type.Object({ id: RecordId(), item_id: RecordId() });
const JobParam = Type.Object({ job_id: RecordId() });

export function landscapeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/landscape/classes',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary:
          'The landscape area classes (lawn, mulch…) and object classes (trees, shrubs), and which ones detection finds',
        response: { 200: One(ClassesSchema) },
      },
    },
    async () => ({ data: classesObject(env.deps.segmentation !== null) }),
  );

  app.get(
    '/v1/landscape-takeoffs',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'Landscape takeoffs, newest first (job_id: one job’s; type: aerial or blueprint)',
        querystring: TakeoffListQuery,
        response: { 200: ListOf(TakeoffRowSchema) },
      },
    },
    async (request) => takeoffList(ctx(request), request.query, pageOf(request.query)),
  );

  app.post(
    '/v1/jobs/:job_id/landscape-takeoffs',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary:
          'Start a landscape takeoff on a job: aerial (empty, 201), or blueprint from a plan PDF (a run that stores and reads its pages, 202)',
        params: JobParam,
        body: CreateTakeoffBody,
        response: { 201: One(TakeoffSchema), 202: One(RunSchema) },
      },
    },
    async (request, reply) => {
      const c = ctx(request);
      if (request.body.type === 'blueprint') {
        reply.code(202);
        return startPlanTakeoff(c, request.params.job_id, request.body);
      }
      reply.code(201);
      return createAerialTakeoff(c, request.params.job_id, request.body);
    },
  );

  app.get(
    '/v1/landscape-takeoffs/:id',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'A landscape takeoff with its quantities (unit: sf, sy, sm or acres; area_sqft is always square feet)',
        params: IdParam(),
        querystring: UnitQuery,
        response: { 200: One(TakeoffSchema) },
      },
    },
    async (request) => getTakeoff(ctx(request), request.params.id, request.query.unit ?? 'sf'),
  );

  app.get(
    '/v1/landscape-takeoffs/:id/items',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary:
          'A landscape takeoff’s items: aerial areas with their rings and objects with their point (class filter); a plan’s dots (plant_id, kind and page filters)',
        params: IdParam(),
        querystring: ItemListQuery,
        response: { 200: ListOf(AnyItemSchema) },
      },
    },
    async (request) => listItems(ctx(request), request.params.id, request.query, pageOf(request.query)),
  );

  app.post(
    '/v1/landscape-takeoffs/:id/items',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Add up to 200 areas (polygon) or objects (point) to an aerial takeoff',
        params: IdParam(),
        body: AddItemsBody,
        response: { 201: ItemsAdded },
      },
    },
    async (request, reply) => {
      const out = await addItems(ctx(request), request.params.id, request.body.items);
      reply.code(201);
      return out;
    },
  );

  app.patch(
    '/v1/landscape-takeoffs/:id/items/:item_id',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary:
          'Change an aerial item’s class (within its kind) or phase (null clears it), or a plan dot’s plant_id or quantity (null clears it)',
        params: ItemParams,
        body: UpdateItemBody,
        response: { 200: ItemChanged },
      },
    },
    async (request) => updateItem(ctx(request), request.params.id, request.params.item_id, request.body),
  );

  app.delete(
    '/v1/landscape-takeoffs/:id/items/:item_id',
    {
      config: { permissions: ['write_measurements', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete an item (kept in the takeoff’s history)',
        params: ItemParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const c = ctx(request);
      assertDeletionAllowed(c);
      await deleteItem(c, request.params.id, request.params.item_id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/landscape-takeoffs/:id/history',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'A landscape takeoff’s saved changes, newest first, with the items each replaced',
        params: IdParam(),
        querystring: Type.Object(PageQuery(200), { additionalProperties: false }),
        response: { 200: ListOf(HistoryEntrySchema) },
      },
    },
    async (request) => takeoffHistory(ctx(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/v1/landscape-takeoffs/:id/detect',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary:
          'Detect lawn, beds, trees and shrubs inside an outline from aerial imagery: a run (202; poll its poll_url)',
        params: IdParam(),
        body: DetectBody,
        response: { 202: One(RunSchema) },
      },
    },
    async (request, reply) => {
      const out = await startDetect(ctx(request), request.params.id, request.body);
      reply.code(202);
      return out;
    },
  );

  app.get(
    '/v1/landscape-runs/:id',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'A landscape run: pending until the worker finishes it, then completed (with its result) or failed',
        params: IdParam(),
        response: { 200: One(RunSchema) },
      },
    },
    async (request) => getRun(ctx(request), request.params.id),
  );

  app.post(
    '/v1/landscape-runs/:id/undo',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Undo a completed run: the takeoff’s items as they were before it',
        params: IdParam(),
        response: { 200: One(RunSchema) },
      },
    },
    async (request) => undoRun(ctx(request), request.params.id),
  );
}
