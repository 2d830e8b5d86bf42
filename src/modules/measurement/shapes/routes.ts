// Saved-takeoff shapes (document 3): the shapes of a measurement, the edit save, and the history
// of saves.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import type { ApiApp } from '#platform/routes.ts';
import {
  EditResultSchema,
  EditsBody,
  HistoryEntrySchema,
  HistoryQuery,
  ShapeListSchema,
  ShapesParams,
  ShapesQuery,
} from './schemas.ts';
import { measurementHistory } from './history.ts';
import { listShapes } from './list.ts';
import { saveEdits } from './save.ts';
import { Pagination } from '#platform/schemas.ts';

const TAGS = ['Measurement'];

export function shapeRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/measurements/:id/shapes',
    {
      config: { permissions: ['read_measurements'] },
      schema: {
        tags: TAGS,
        summary: "A measurement's shapes with the edits each allows, its header and the options an edit may name",
        params: ShapesParams,
        querystring: ShapesQuery,
        response: { 200: ShapeListSchema },
      },
    },
    async (request) => listShapes(ctx(request), request.params.id, request.query),
  );

  app.post(
    '/v1/measurements/:id/edits',
    {
      config: { permissions: ['write_measurements'] },
      schema: {
        tags: TAGS,
        summary:
          'Apply 1 to 200 shape operations in order and save them together (base_rev from the shapes listing; removing also needs Delete records)',
        params: ShapesParams,
        body: EditsBody,
        response: { 200: EditResultSchema },
      },
    },
    async (request) => saveEdits(ctx(request), request.params.id, request.body),
  );

  app.get(
    '/v1/measurements/:id/history',
    {
      config: { permissions: ['read_measurements'] },
      schema: {
        tags: TAGS,
        summary: "A measurement's saved edits, newest first, each with the shapes as they were before it",
        params: ShapesParams,
        querystring: HistoryQuery,
        response: { 200: Type.Object({ data: Type.Array(HistoryEntrySchema), pagination: Pagination }) },
      },
    },
    async (request) => measurementHistory(ctx(request), request.params.id, request.query),
  );
}
