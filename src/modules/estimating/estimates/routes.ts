// /v1/estimates and an estimate's versions, revisions and award (document 3, Estimates). Reads need
// read_jobs and answer stored numbers; writes need write_jobs, re-run the pricing engine and answer
// the fresh estimate wrapped in data. GET /v1/estimates/{id} answers the estimate unwrapped.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import type { Permission } from '#platform/permissions.ts';
import { ListOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import {
  CreateEstimateBody,
  ESTIMATE_STATUSES,
  EstimateSchema,
  EstimateSummarySchema,
  RevisionSchema,
  UpdateEstimateBody,
  VersionSchema,
  EstimateEnvelope,
  EstimateParams,
} from './schemas.ts';
import {
  archiveEstimate,
  createEstimate,
  getAward,
  getEstimate,
  listEstimates,
  listRevisions,
  listVersions,
  updateEstimate,
} from './service.ts';

const READ: { permissions: Permission[] } = { permissions: ['read_jobs'] };

const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };

const DELETE: { permissions: Permission[] } = { permissions: ['write_jobs', 'delete_records'] };

const tags = ['Estimates'];

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
          job_id: Type.Optional(RecordId()),
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
        response: { 201: EstimateEnvelope },
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
        params: EstimateParams,
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
        params: EstimateParams,
        body: UpdateEstimateBody,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
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
        params: EstimateParams,
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
        params: EstimateParams,
        response: { 200: EstimateSchema },
      },
    },
    async (request) => getAward(ctx(request), request.params.id),
  );
}
