// GET /v1/jobs/{id}/allocation (docs/api-decisions.md, "Operations: time and job costs").
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, READ } from '#platform/routes.ts';
import { AllocationParams, JobAllocation } from './schemas.ts';
import { jobAllocation } from './service.ts';

export function allocationRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/jobs/:id/allocation',
    {
      config: READ,
      schema: {
        tags: ['Work orders'],
        summary:
          "The job's estimate lines given to its work orders: planned and completed (from daily reports) quantities",
        params: AllocationParams,
        response: { 200: JobAllocation },
      },
    },
    async (request) => ({ data: await jobAllocation(ctx(request), request.params.id) }),
  );
}
