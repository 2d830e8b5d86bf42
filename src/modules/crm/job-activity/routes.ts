// GET /v1/jobs/{job_id}/activity: the job page's activity log (document 2: "Tagging and other
// job-page changes ... land in the job's activity log").
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { JobActivityEntrySchema } from './serialize.ts';
import { jobActivityOf } from './service.ts';

export function jobActivityRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:job_id/activity',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Jobs'],
        summary: "The job's activity log, newest first",
        params: Type.Object({ job_id: RecordId() }),
        querystring: Type.Object({
          kind: Type.Optional(Type.String({ maxLength: 50, description: 'only entries of this kind, e.g. tag_added' })),
          ...PageQuery(200),
        }),
        response: { 200: ListOf(JobActivityEntrySchema) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await jobActivityOf(ctx(request), job_id, q.kind, page);
      return listEnvelope(data, total, page);
    },
  );
}
