// Records events in the caller's transaction, so an event (and the webhook deliveries it queues)
// exists exactly when its change does.
import { randomUUID } from 'node:crypto';
import type { Executor } from '#db/dialect.ts';
import type { Event } from '#db/tables.ts';
import { now } from '#platform/time.ts';
import { isDeliverable } from './catalog.ts';
import { queueDeliveries } from './queue.ts';
import { flag } from '#db/tables/shared.ts';

export interface EventInput {
  firmId: number;
  type: string;
  entity: { type: string; id: number };
  jobId?: number | null;
  data: Record<string, unknown>;
  /** Defaults to now; derived events pass their source's occurred_at. */
  occurredAt?: string;
  /** Feed events (raw job events, business events) are true; webhook-only job and proposal events false. */
  inFeed: boolean;
}

/**
 * The feed promises a reader that ids only grow: a client resuming after id N must never find
 * an event below N committed later. Ids come from one sequence, and on PostgreSQL two
 * transactions can take ids in one order and commit in the other. So every transaction that
 * writes a feed event first bumps its workspace's counter: the row lock that takes is held to
 * commit, so a workspace's feed events take their ids and commit one transaction after another.
 * (SQLite has one writer at a time anyway.) Webhook-only events are not in the feed and skip it.
 */
async function holdFeedOrder(trx: Executor, firmId: number): Promise<void> {
  await trx
    .updateTable('firms')
    .set((eb) => ({ feed_events: eb('feed_events', '+', 1) }))
    .where('id', '=', firmId)
    .execute();
}

export async function recordEvent(trx: Executor, input: EventInput): Promise<{ eventId: string; occurredAt: string }> {
  if (input.inFeed) await holdFeedOrder(trx, input.firmId);
  const createdAt = now();
  const values = {
    firm_id: input.firmId,
    event_id: randomUUID(),
    event_type: input.type,
    in_feed: flag(input.inFeed),
    occurred_at: input.occurredAt ?? createdAt,
    created_at: createdAt,
    entity_type: input.entity.type,
    entity_id: input.entity.id,
    job_id: input.jobId ?? null,
    data: JSON.stringify(input.data),
  };
  const { id } = await trx.insertInto('events').values(values).returning('id').executeTakeFirstOrThrow();
  if (isDeliverable(values.event_type, input.inFeed)) await queueDeliveries(trx, { id, ...values } as Event);
  return { eventId: values.event_id, occurredAt: values.occurred_at };
}

/** A business event (in the feed, deliverable): the one call later areas make. */
export function recordBusinessEvent(trx: Executor, input: Omit<EventInput, 'inFeed'>) {
  return recordEvent(trx, { ...input, inFeed: true });
}
