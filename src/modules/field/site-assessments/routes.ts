// /v1/site-assessments (document 3, Site assessments and pins; Assessment state table).
import { Type } from '@sinclair/typebox';
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { bodyOptional, One } from '#platform/schemas.ts';
import {
  AssessmentDetailSchema,
  AssessmentList,
  AssessmentListQuery,
  AssessmentParams,
  AssessmentSchema,
  CreateAssessmentBody,
  DetailQuery,
  DuplicateAssessmentBody,
  OneAssessment,
  UpdateAssessmentBody,
} from './schemas.ts';
import {
  completeSiteAssessment,
  createSiteAssessment,
  duplicateSiteAssessment,
  getSiteAssessment,
  listSiteAssessments,
  reopenSiteAssessment,
  updateSiteAssessment,
} from './service.ts';

const tags = ['Site assessments'];

export function siteAssessmentRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/site-assessments',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Site assessments, most recently changed first (updated_after: oldest first)',
        querystring: AssessmentListQuery,
        response: { 200: AssessmentList },
      },
    },
    async (request) => listSiteAssessments(ctx(request), request.query),
  );

  app.post(
    '/v1/site-assessments',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Start an assessment on a job (its loose pins join it), or get the job's open one (200, created false)",
        body: CreateAssessmentBody,
        response: {
          201: One(AssessmentSchema, { created: Type.Boolean() }),
          200: One(AssessmentSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const result = await createSiteAssessment(ctx(request), request.body);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.get(
    '/v1/site-assessments/:id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'An assessment with its services roll-up, severity totals, handoff and pins',
        params: AssessmentParams,
        querystring: DetailQuery,
        response: { 200: One(AssessmentDetailSchema) },
      },
    },
    async (request) => ({
      data: await getSiteAssessment(
        ctx(request),
        request.params.id,
        request.query.include_pins !== false,
        originOf(request),
      ),
    }),
  );

  app.patch(
    '/v1/site-assessments/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Change an assessment's title or notes",
        params: AssessmentParams,
        body: UpdateAssessmentBody,
        response: { 200: OneAssessment },
      },
    },
    async (request) => ({ data: await updateSiteAssessment(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/site-assessments/:id/complete',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Complete an assessment: the job's loose pins join it and the handoff is saved; completing twice changes nothing",
        params: AssessmentParams,
        response: { 200: OneAssessment },
      },
    },
    async (request) => ({ data: await completeSiteAssessment(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/site-assessments/:id/reopen',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Reopen a completed assessment so new pins join it again (409 when the job has another open one)',
        params: AssessmentParams,
        response: { 200: OneAssessment },
      },
    },
    async (request) => ({ data: await reopenSiteAssessment(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/site-assessments/:id/duplicate',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary: 'Copy an assessment and every pin as a new completed assessment on the same job',
        params: AssessmentParams,
        body: DuplicateAssessmentBody,
        response: { 201: OneAssessment },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await duplicateSiteAssessment(ctx(request), request.params.id, request.body) }),
  );
}
