// GET /v1/assessment-services (document 3, Site assessments and pins).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { AssessmentServiceSchema } from './schemas.ts';
import { assessmentServiceObject, listAssessmentServices } from './service.ts';

export function assessmentServiceRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/assessment-services',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Site assessments'],
        summary: 'The services assessors pin on a site walk, each with the catalog service that prices it',
        response: { 200: Type.Object({ data: Type.Array(AssessmentServiceSchema) }) },
      },
    },
    async (request) => ({ data: (await listAssessmentServices(ctx(request))).map(assessmentServiceObject) }),
  );
}
