// Records events in the caller's transaction, so an event (and the webhook deliveries it queues)
// exists exactly when its change does.
import { randomUUID } from 'node:crypto';
import type { Executor } from '#db/dialect.ts';
import type { Event } from '#db/tables.ts';
import { now } from '#platform/time.ts';
import { isDeliverable } from './catalog.ts';
import { queueDeliveries } from './queue.ts';
import { flag } from '#db/tables/shared.ts';
import { commitsInTurn } from '#db/write-order.ts';

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
 * An SQLite transaction skips it (db/write-order.ts): SQLite has one writer at a time anyway.
 * Webhook-only events are not in the feed and skip it.
 */
async function holdFeedOrder(trx: Executor, firmId: number): Promise<void> {
  await trx
    .updateTable('firms')
    .set((eb) => ({ feed_events: eb('feed_events', '+', 1) }))
    .where('id', '=', firmId)
    .execute();
}

/** An event as it will be stored, its id and time taken now, before it is written. */
export interface PreparedEvent {
  eventId: string;
  occurredAt: string;
  /** The row without its id. */
  values: Omit<Event, 'id'>;
}

/**
 * Takes an event's id and time now, so events derived from it (which carry its event_id and
 * occurred_at) can be written with it in one statement (recordEvents).
 */
export function prepareEvent(input: EventInput): PreparedEvent {
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
  return { eventId: values.event_id, occurredAt: values.occurred_at, values };
}

/**
 * Writes prepared events of one workspace in one INSERT, ids in the order given (both engines
 * number the rows of a VALUES list in order; the ids are matched back by event_id all the same),
 * then queues each deliverable one's webhook deliveries.
 */
export async function recordEvents(trx: Executor, events: PreparedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const firmId = events[0]!.values.firm_id;
  if (events.some((e) => e.values.in_feed === 1) && !commitsInTurn(trx)) await holdFeedOrder(trx, firmId);
  const rows = await trx
    .insertInto('events')
    .values(events.map((e) => e.values))
    .returning(['id', 'event_id'])
    .execute();
  const ids = new Map(rows.map((r) => [r.event_id, r.id]));
  for (const { values } of events) {
    if (isDeliverable(values.event_type, values.in_feed === 1))
      await queueDeliveries(trx, { id: ids.get(values.event_id)!, ...values } as Event);
  }
}

export async function recordEvent(trx: Executor, input: EventInput): Promise<{ eventId: string; occurredAt: string }> {
  const event = prepareEvent(input);
  await recordEvents(trx, [event]);
  return { eventId: event.eventId, occurredAt: event.occurredAt };
}

/** A business event (in the feed, deliverable): the one call later areas make. */
export function recordBusinessEvent(trx: Executor, input: Omit<EventInput, 'inFeed'>) {
  return recordEvent(trx, { ...input, inFeed: true });
}
