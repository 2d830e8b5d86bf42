// GET /v1/events: the ordered, append-only feed, paged with an id cursor (the cursor's names and
// the envelope are ours: docs/api-decisions.md).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { Env } from '#platform/context.ts';
import { FEED_EVENTS } from '#events/catalog.ts';
import { readFeed } from './feed.ts';
import { badRequest } from '#platform/errors.ts';
import { Nullable, RecordId } from '#platform/schemas.ts';

const FeedItemSchema = Type.Object({
  id: Type.Integer({ description: 'Increasing feed position; resume with after=<last id seen>' }),
  event_id: Type.String(),
  event_type: Type.String(),
  occurred_at: Type.String(),
  entity: Type.Object({ type: Type.String(), id: Type.Integer() }),
  data: Type.Record(Type.String(), Type.Unknown()),
  job_id: Nullable(Type.Integer()),
});

export function eventFeedRoutes(app: ApiApp, env: Env): void {
  app.get(
    '/v1/events',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Events'],
        summary: 'The event feed: feed events with id greater than `after`, oldest first',
        querystring: Type.Object({
          after: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: Number.MAX_SAFE_INTEGER,
              default: 0,
              description: 'The last id already seen (0: from the start)',
            }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
          event_type: Type.Optional(Type.String()),
          job_id: Type.Optional(RecordId()),
        }),
        response: {
          200: Type.Object({
            data: Type.Array(FeedItemSchema),
            pagination: Type.Object({
              after: Type.Integer(),
              limit: Type.Integer(),
              next_after: Type.Integer({
                description: 'Send as `after` for the next page (unchanged when nothing new arrived)',
              }),
              has_more: Type.Boolean(),
            }),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.event_type !== undefined && !FEED_EVENTS.includes(q.event_type)) {
        throw badRequest(`event_type must be one of ${FEED_EVENTS.join(', ')}`, { field: 'event_type' });
      }
      const after = q.after ?? 0;
      const limit = q.limit ?? 50;
      const page = await readFeed(env.database.db, request.auth.firm.id, request.auth.user, {
        after,
        limit,
        eventType: q.event_type,
        jobId: q.job_id,
      });
      return { data: page.items, pagination: { after, limit, next_after: page.nextAfter, has_more: page.hasMore } };
    },
  );
}
