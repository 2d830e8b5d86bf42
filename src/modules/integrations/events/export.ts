// The events export dataset (document 3, Export dataset rows): the feed (events.in_feed = 1: raw
// job events and business events; the webhook-only job events are not in it), with the entity
// flat as entity_type and entity_id. occurred_at has the Z form, as in the feed and in webhook
// payloads, so a row's occurred_at reads like the watermark it is compared with.
import type { Event } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import { changedSince } from '#platform/sync.ts';
import { defineDataset } from '#src/area.ts';
import { onVisibleJob } from '#crm/index.ts';

type EventRow = Pick<
  Event,
  'id' | 'event_id' | 'event_type' | 'occurred_at' | 'entity_type' | 'entity_id' | 'job_id' | 'data'
>;

export function eventRow(e: EventRow) {
  return {
    id: e.id,
    event_id: e.event_id,
    event_type: e.event_type,
    occurred_at: zWire(e.occurred_at),
    entity_type: e.entity_type,
    entity_id: e.entity_id,
    job_id: e.job_id,
    data: JSON.parse(e.data) as Record<string, unknown>,
  };
}

export const eventsDataset = defineDataset({
  name: 'events',
  description: 'The event feed: raw job events and business events, oldest first',
  changedSinceFields: ['occurred_at'],
  readBatch(db, { firmId, user, afterId, limit, updatedAfter }) {
    let qb = db
      .selectFrom('events')
      .select(['id', 'event_id', 'event_type', 'occurred_at', 'entity_type', 'entity_id', 'job_id', 'data'])
      .where('firm_id', '=', firmId)
      .where('in_feed', '=', 1)
      .where('id', '>', afterId);
    if (updatedAfter !== undefined) qb = qb.where(changedSince(['occurred_at'], updatedAfter));
    // The feed's rule (GET /v1/events): a user who sees only their own jobs gets the events of
    // those jobs and the events that belong to no job.
    return onVisibleJob(qb, 'job_id', firmId, user).orderBy('id').limit(limit).execute();
  },
  toRow: eventRow,
});
