// An estimate's lifecycle (document 3, Estimates): issue, mark won or lost, reopen, recalculate, and
// the change-order estimates started from an issued one.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import type { Permission } from '#platform/permissions.ts';
import { bodyOptional, RecordId } from '#platform/schemas.ts';
import { createChangeOrder, issueEstimate, markLost, markWon, reopenEstimate } from './lifecycle.ts';
import { ChangeOrderBody, IssueBody, MarkLostBody, EstimateEnvelope, EstimateParams } from './schemas.ts';
import { recalculate } from './service.ts';

const WRITE: { permissions: Permission[] } = { permissions: ['write_jobs'] };

const tags = ['Estimates'];

export function estimateLifecycleRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.post(
    '/v1/estimates/:id/issue',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Issue: freeze the next version (1: estimate_issued; later: estimate_revised). Nothing is sent.',
        params: EstimateParams,
        body: IssueBody,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
        body: MarkLostBody,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
        response: { 200: EstimateEnvelope },
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
        params: EstimateParams,
        response: { 200: EstimateEnvelope },
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
        params: Type.Object({ estimate_id: RecordId() }),
        body: ChangeOrderBody,
        response: { 201: EstimateEnvelope },
      },
    },
    async (request, reply) => {
      const { estimate_id: id } = request.params;
      return reply.status(201).send({ data: await createChangeOrder(ctx(request), id, request.body) });
    },
  );
}
