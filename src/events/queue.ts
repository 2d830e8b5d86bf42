// Queues an event's webhook deliveries: one per active subscription that receives it, each with
// the body every attempt will send (in webhook_payloads, beside the delivery's narrow row).
import type { Executor } from '#db/dialect.ts';
import type { Event } from '#db/tables.ts';
import { now } from '#platform/time.ts';
import { subscriptionsReceiving } from './catalog.ts';
import { buildPayload } from './payload.ts';
import { deliveriesQueuedIn } from './queued.ts';

export interface QueueOptions {
  /** Only this subscription (replay to one endpoint). */
  subscriptionId?: number;
  /** The delivery this one sends again (redeliver). */
  redeliveryOf?: number;
  /** With subscriptionId: queue even if its event_type no longer receives this event. */
  anyEventType?: boolean;
}

/** Returns the ids of the deliveries queued (none when no active subscription receives the event). */
export async function queueDeliveries(db: Executor, event: Event, options: QueueOptions = {}): Promise<number[]> {
  const names = subscriptionsReceiving(event.event_type, event.in_feed === 1);
  if (names.length === 0) return [];
  let query = db
    .selectFrom('webhook_subscriptions')
    .select('id')
    .where('firm_id', '=', event.firm_id)
    .where('active', '=', 1);
  if (!(options.anyEventType && options.subscriptionId !== undefined)) query = query.where('event_type', 'in', names);
  if (options.subscriptionId !== undefined) query = query.where('id', '=', options.subscriptionId);
  const subscriptions = await query.orderBy('id').execute();
  if (subscriptions.length === 0) return [];
  const payload = await buildPayload(db, event);
  const t = now();
  const rows = await db
    .insertInto('webhook_deliveries')
    .values(
      subscriptions.map((s) => ({
        firm_id: event.firm_id,
        subscription_id: s.id,
        event_row_id: event.id,
        event_id: event.event_id,
        event_type: event.event_type,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: t,
        locked_until: null,
        lease_token: null,
        last_attempt_at: null,
        last_response_status: null,
        last_error: null,
        delivered_at: null,
        redelivery_of: options.redeliveryOf ?? null,
        created_at: t,
        updated_at: t,
      })),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('webhook_payloads')
    .values(rows.map((r) => ({ delivery_id: r.id, payload })))
    .execute();
  deliveriesQueuedIn(db, t);
  return rows.map((r) => r.id);
}
