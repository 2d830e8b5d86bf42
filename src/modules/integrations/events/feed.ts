// The event feed (document 1, "Delivery log, replay and the feed"): a workspace's feed events in
// increasing id order after a cursor. Ids are safe to resume from: feed writers of a workspace
// take ids and commit one after another (events/record.ts), so no event can appear later below an
// id a reader has already passed.
import type { Executor } from '#db/dialect.ts';
import type { Event, User } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { onVisibleJob } from '#crm/index.ts';

export interface FeedQuery {
  after: number;
  limit: number;
  eventType?: string;
  jobId?: number;
}

export function feedItem(
  e: Pick<Event, 'id' | 'event_id' | 'event_type' | 'occurred_at' | 'entity_type' | 'entity_id' | 'job_id' | 'data'>,
) {
  return {
    id: e.id,
    event_id: e.event_id,
    event_type: e.event_type,
    occurred_at: zWire(e.occurred_at),
    entity: { type: e.entity_type, id: e.entity_id },
    data: JSON.parse(e.data) as Record<string, unknown>,
    job_id: e.job_id,
  };
}

/** One page of the feed and whether more follow. */
export async function readFeed(db: Executor, firmId: number, user: User, q: FeedQuery) {
  let qb = db
    .selectFrom('events')
    .select(['id', 'event_id', 'event_type', 'occurred_at', 'entity_type', 'entity_id', 'job_id', 'data'])
    .where('firm_id', '=', firmId)
    .where('in_feed', '=', 1)
    .where('id', '>', q.after);
  if (q.eventType !== undefined) qb = qb.where('event_type', '=', q.eventType);
  if (q.jobId !== undefined) qb = qb.where('job_id', '=', q.jobId);
  const rows = await onVisibleJob(qb, 'job_id', firmId, user)
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  const hasMore = rows.length > q.limit;
  const page = hasMore ? rows.slice(0, q.limit) : rows;
  return { items: page.map(feedItem), hasMore, nextAfter: page.length > 0 ? page[page.length - 1]!.id : q.after };
}
