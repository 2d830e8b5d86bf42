// POST and GET /v1/jobs/{id}/costs (docs/api-decisions.md, "Operations: time and job costs").
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import { CreateJobCostBody, JobCostList, JobCostParams, OneCostRow } from './schemas.ts';
import { createJobCost, jobCosts } from './service.ts';

const tags = ['Job costs'];

export function jobCostRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:id/costs',
    {
      config: READ,
      schema: {
        tags,
        summary:
          "The job's costs (users who may see job costs): entered costs and its time entries' labor at their snapshot rates, by date, with totals",
        params: JobCostParams,
        response: { 200: JobCostList },
      },
    },
    async (request) => jobCosts(ctx(request), request.params.id),
  );

  app.post(
    '/v1/jobs/:id/costs',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Enter a cost on a job (office user who may see job costs); a cost code naming dumping makes it dump',
        params: JobCostParams,
        body: CreateJobCostBody,
        response: { 201: OneCostRow },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await createJobCost(ctx(request), request.params.id, request.body) }),
  );
}
