// /v1/estimates/{id}/line-items (document 3, Estimates): each write re-runs the pricing engine and
// answers the fresh estimate.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import type { Permission } from '#platform/permissions.ts';
import { One } from '#platform/schemas.ts';
import { addLine, changeLine, getLine, removeLine } from './lines.ts';
import {
  AddLineBody,
  ChangeLineBody,
  EstimateSchema,
  LineWithCostLinesSchema,
  EstimateEnvelope,
  EstimateLineParams,
  EstimateParams,
} from './schemas.ts';

const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };

const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };

const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };

const tags = ['Estimates'];

export function estimateLineRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.post(
    '/v1/estimates/:id/line-items',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Add a line: a catalog service (service_id) and quantity, or a custom line (name, unit)',
        params: EstimateParams,
        body: AddLineBody,
        response: { 201: One(EstimateSchema, { line_item_id: Type.Integer() }) },
      },
    },
    async (request, reply) => {
      const { estimate, lineId } = await addLine(ctx(request), request.params.id, request.body);
      return reply.status(201).send({ data: estimate, line_item_id: lineId });
    },
  );
  app.get(
    '/v1/estimates/:id/line-items/:line_item_id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Read a line with its cost lines',
        params: EstimateLineParams,
        response: { 200: One(LineWithCostLinesSchema) },
      },
    },
    async (request) => ({ data: await getLine(ctx(request), request.params.id, request.params.line_item_id) }),
  );
  app.patch(
    '/v1/estimates/:id/line-items/:line_item_id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Change a line; cost_lines takes {id, …changes}, {id, deleted: true} or a new cost line',
        params: EstimateLineParams,
        body: ChangeLineBody,
        response: { 200: EstimateEnvelope },
      },
    },
    async (request) => ({
      data: await changeLine(ctx(request), request.params.id, request.params.line_item_id, request.body),
    }),
  );
  app.delete(
    '/v1/estimates/:id/line-items/:line_item_id',
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Remove a line (a bundle master with its sub-lines)',
        params: EstimateLineParams,
        response: { 200: EstimateEnvelope },
      },
    },
    async (request) => ({ data: await removeLine(ctx(request), request.params.id, request.params.line_item_id) }),
  );
}
