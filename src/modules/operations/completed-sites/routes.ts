// GET /v1/sites/completed (document 2, Syncing rule 5; docs/decisions/operations-rebids.md).
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, READ } from '#platform/routes.ts';
import { CompletedSiteList, CompletedSitesQuery } from './schemas.ts';
import { listSitesCompleted } from './service.ts';

export function completedSiteRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/sites/completed',
    {
      config: READ,
      schema: {
        tags: ['Re-bids'],
        summary: 'List sites with completed work (newest first; with updated_after oldest updated first)',
        querystring: CompletedSitesQuery,
        response: { 200: CompletedSiteList },
      },
    },
    async (request) => listSitesCompleted(ctx(request), request.query, pageOf(request.query)),
  );
}
