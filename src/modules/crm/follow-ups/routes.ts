// /v1/follow-ups/bulk (document 2, "Re-bids, reminders, follow-ups").
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { BulkFollowUpsBody, BulkFollowUpsResult } from './schemas.ts';
import { bulkFollowUps } from './service.ts';

export function followUpRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/follow-ups/bulk',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Follow-ups'],
        operationId: 'bulk_update_follow_ups',
        summary:
          'Mark done, snooze or reassign many job follow-ups, company follow-ups or reminders; rows the user may not act on or already finished are skipped',
        body: BulkFollowUpsBody,
        response: { 200: BulkFollowUpsResult },
      },
    },
    async (request) => ({ data: await bulkFollowUps(ctx(request), request.body) }),
  );
}
