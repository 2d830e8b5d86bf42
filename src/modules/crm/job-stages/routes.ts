// GET /v1/job-stages and GET /v1/job-types: the workspace's pipeline and job type values.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { Env } from '#platform/context.ts';
import { ListOf } from '#platform/schemas.ts';
import { jobTypesOf } from '#platform/workspace.ts';
import { listStages } from './repo.ts';

const StageSchema = Type.Object({
  key: Type.String(),
  label: Type.String(),
  type: Type.String({ description: 'open, won, lost or excluded' }),
  position: Type.Integer(),
  is_completed: Type.Boolean({ description: "the workspace's completed stage" }),
});

/** Both lists are short and unpaged; the envelope keeps the list convention (limit = total). */
const whole = <T>(data: T[]) => ({ data, pagination: { total: data.length, limit: data.length, offset: 0 } });

export function jobStageRoutes(app: ApiApp, env: Env): void {
  app.get(
    '/v1/job-stages',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags: ['Jobs'], summary: 'Pipeline stages in order', response: { 200: ListOf(StageSchema) } },
    },
    async (request) => {
      const stages = await listStages(env.database.db, request.auth.firm.id);
      return whole(
        stages.map((s) => ({
          key: s.key,
          label: s.label,
          type: s.type,
          position: s.position,
          is_completed: s.is_completed === 1,
        })),
      );
    },
  );

  app.get(
    '/v1/job-types',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: 'Job type values',
        response: { 200: ListOf(Type.Object({ value: Type.String() })) },
      },
    },
    async (request) => whole(jobTypesOf(request.auth.firm).map((value) => ({ value }))),
  );
}
