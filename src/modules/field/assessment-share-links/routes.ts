// Assessment report links (document 2: POST /v1/site-assessments/{assessment_id}/share-link), and
// the list and revoke the spec leaves out (docs/api-decisions.md, Assessment and capital plan
// links). The page a link opens is src/pages/assessment-report.ts.
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { bodyOptional } from '#platform/schemas.ts';
import {
  AssessmentLinkParams,
  AssessmentShareLinkList,
  AssessmentShareLinkListQuery,
  CreateAssessmentShareLinkBody,
  OneAssessmentShareLink,
  RevokeParams,
} from './schemas.ts';
import { createAssessmentShareLink, listAssessmentShareLinks, revokeAssessmentShareLink } from './service.ts';

const tags = ['Site assessments'];

export function assessmentShareLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/site-assessments/:id/share-link',
    {
      config: WRITE,
      preValidation: bodyOptional,
      schema: {
        tags,
        summary:
          "Make a new link to the assessment's report for a customer (scoped to service_type_ids when given); nothing is sent",
        params: AssessmentLinkParams,
        body: CreateAssessmentShareLinkBody,
        response: { 201: OneAssessmentShareLink },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await createAssessmentShareLink(ctx(request), request.params.id, request.body, originOf(request)),
      }),
  );

  app.get(
    '/v1/site-assessments/:id/share-links',
    {
      config: READ,
      schema: {
        tags,
        summary: "The assessment's report links, newest first (revoked ones with share_url null)",
        params: AssessmentLinkParams,
        querystring: AssessmentShareLinkListQuery,
        response: { 200: AssessmentShareLinkList },
      },
    },
    async (request) => listAssessmentShareLinks(ctx(request), request.params.id, request.query, originOf(request)),
  );

  app.post(
    '/v1/site-assessments/:id/share-links/:link_id/revoke',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Turn a report link off for good: its page says it was revoked',
        params: RevokeParams,
        response: { 200: OneAssessmentShareLink },
      },
    },
    async (request) => ({
      data: await revokeAssessmentShareLink(ctx(request), request.params.id, request.params.link_id, originOf(request)),
    }),
  );
}
