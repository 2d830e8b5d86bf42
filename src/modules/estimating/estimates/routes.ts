// /v1/estimates (document 3, Estimates). Reads need read_jobs and answer stored numbers; writes
// need write_jobs, re-run the pricing engine and answer the fresh estimate wrapped in data.
// GET /v1/estimates/{id} answers the estimate unwrapped.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import type { Permission } from '#platform/permissions.ts';
import { bodyOptional, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import { createChangeOrder, issueEstimate, markLost, markWon, reopenEstimate } from './lifecycle.ts';
import { addLine, changeLine, getLine, removeLine } from './lines.ts';
import {
  AddLineBody,
  ChangeLineBody,
  ChangeOrderBody,
  CreateEstimateBody,
  ESTIMATE_STATUSES,
  EstimateSchema,
  EstimateSummarySchema,
  IssueBody,
  LineWithCostLinesSchema,
  MarkLostBody,
  RevisionSchema,
  UpdateEstimateBody,
  VersionSchema,
} from './schemas.ts';
import {
  archiveEstimate,
  createEstimate,
  getAward,
  getEstimate,
  listEstimates,
  listRevisions,
  listVersions,
  recalculate,
  updateEstimate,
} from './service.ts';

const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };
const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };
const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };
const Id = RecordId();
const params = Type.Object({ id: Id });
const lineParams = Type.Object({ id: Id, line_item_id: Id });
const tags = ['Estimates'];
const Wrapped = One(EstimateSchema);

export function estimateRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/estimates',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List estimates: summary rows, most recently updated first (with updated_after, oldest first)',
        querystring: Type.Object({
          job_id: Type.Optional(Id),
          status: Type.Optional(Type.String({ maxLength: 40, description: ESTIMATE_STATUSES.join(', ') })),
          updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601' })),
          include_archived: Type.Optional(Type.Boolean()),
          ...PageQuery(100),
        }),
        response: { 200: ListOf(EstimateSummarySchema) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.status !== undefined && !(ESTIMATE_STATUSES as readonly string[]).includes(q.status)) {
        throw badRequest(`status must be one of ${ESTIMATE_STATUSES.join(', ')}`, {
          code: 'invalid_status',
          field: 'status',
        });
      }
      const page = pageOf(q);
      const { data, total } = await listEstimates(
        ctx(request),
        {
          jobId: q.job_id,
          status: q.status,
          updatedAfter: syncWindow(q.updated_after, 'second'),
          includeArchived: q.include_archived,
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/estimates',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Create an estimate for a job, optionally from a template',
        body: CreateEstimateBody,
        response: { 201: Wrapped },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createEstimate(ctx(request), request.body) }),
  );

  app.get(
    '/v1/estimates/:id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Read an estimate (unwrapped); ?version=N reads an issued version as it was frozen',
        params,
        querystring: Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })) }),
        response: { 200: EstimateSchema },
      },
    },
    async (request) => getEstimate(ctx(request), request.params.id, request.query.version),
  );

  app.patch(
    '/v1/estimates/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Change pricing inputs (markup, tax, price list, contingency, minimum), job-level costs, the name or areas; archived: false restores',
        params,
        body: UpdateEstimateBody,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await updateEstimate(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/estimates/:id',
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Archive an estimate (PATCH archived: false restores it)',
        params,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await archiveEstimate(ctx(request), request.params.id) }),
  );

  app.get(
    '/v1/estimates/:id/versions',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Every issued version with its totals and issue date, oldest first',
        params,
        response: { 200: Type.Object({ data: Type.Array(VersionSchema) }) },
      },
    },
    async (request) => ({ data: await listVersions(ctx(request), request.params.id) }),
  );

  app.get(
    '/v1/estimates/:id/revisions',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The edit log, newest first',
        params,
        querystring: Type.Object({ ...PageQuery(200) }),
        response: { 200: ListOf(RevisionSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { data, total } = await listRevisions(ctx(request), request.params.id, page);
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/estimates/:id/award',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The award snapshot (award_snapshot_id): the estimate as it was marked won, unwrapped',
        params,
        response: { 200: EstimateSchema },
      },
    },
    async (request) => getAward(ctx(request), request.params.id),
  );

  app.post(
    '/v1/estimates/:id/line-items',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Add a line: a catalog service (service_id) and quantity, or a custom line (name, unit)',
        params,
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
        params: lineParams,
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
        params: lineParams,
        body: ChangeLineBody,
        response: { 200: Wrapped },
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
        params: lineParams,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await removeLine(ctx(request), request.params.id, request.params.line_item_id) }),
  );

  app.post(
    '/v1/estimates/:id/issue',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Issue: freeze the next version (1: estimate_issued; later: estimate_revised). Nothing is sent.',
        params,
        body: IssueBody,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await issueEstimate(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/estimates/:id/mark-won',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Mark an issued estimate won (estimate_approved, awarded_at, award snapshot)',
        params,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await markWon(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/estimates/:id/mark-lost',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Mark an estimate lost (estimate_declined)',
        params,
        body: MarkLostBody,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await markLost(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/estimates/:id/reopen',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Reopen a lost estimate in the status it was lost from',
        params,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await reopenEstimate(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/estimates/:id/recalculate',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Re-price on demand (automatic driving times are looked up again)',
        params,
        response: { 200: Wrapped },
      },
    },
    async (request) => ({ data: await recalculate(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/estimates/:estimate_id/change-orders',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Start a change-order estimate (additive: empty; revision: a copy of the lines)',
        params: Type.Object({ estimate_id: Id }),
        body: ChangeOrderBody,
        response: { 201: Wrapped },
      },
    },
    async (request, reply) => {
      const { estimate_id: id } = request.params;
      return reply.status(201).send({ data: await createChangeOrder(ctx(request), id, request.body) });
    },
  );
}
