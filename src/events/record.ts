// Records events in the caller's transaction, so an event exists exactly when its change does.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/dialect.ts';
import { now } from '../platform/time.ts';

export interface EventInput {
  firmId: number;
  type: string;
  entity: { type: string; id: number };
  jobId?: number | null;
  data: Record<string, unknown>;
  /** Defaults to now; derived events pass their source's occurred_at. */
  occurredAt?: string;
  /** Feed events (raw job events, business events) are true; webhook-only job events false. */
  inFeed: boolean;
}

export async function recordEvent(trx: Executor, input: EventInput): Promise<{ eventId: string; occurredAt: string }> {
  const eventId = randomUUID();
  const createdAt = now();
  const occurredAt = input.occurredAt ?? createdAt;
  await trx.insertInto('events').values({
    firm_id: input.firmId,
    event_id: eventId,
    event_type: input.type,
    in_feed: input.inFeed ? 1 : 0,
    occurred_at: occurredAt,
    created_at: createdAt,
    entity_type: input.entity.type,
    entity_id: input.entity.id,
    job_id: input.jobId ?? null,
    data: JSON.stringify(input.data),
  }).execute();
  return { eventId, occurredAt };
}
