// Wire shapes of webhook subscriptions (document 1) and of the delivery log (ours: not shown).
import { Type } from '@sinclair/typebox';
import type { WebhookDelivery, WebhookSubscription } from '#db/tables.ts';
import { MAX_ATTEMPTS } from '#events/retry-schedule.ts';
import { Nullable, NullableString } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export const SubscriptionSchema = Type.Object({
  id: Type.Integer(),
  event_type: Type.String(),
  target_url: Type.String(),
  active: Type.Boolean(),
  has_secret: Type.Boolean(),
  created_at: Type.String(),
});

/** The secret itself is never returned. */
export function subscriptionObject(s: WebhookSubscription) {
  return {
    id: s.id,
    event_type: s.event_type,
    target_url: s.target_url,
    active: s.active === 1,
    has_secret: s.secret !== null,
    created_at: zWire(s.created_at),
  };
}

export const DeliverySchema = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.Integer(),
  event_id: Type.String({ description: 'The event_id of the body; identical on every attempt and replay' }),
  event_type: Type.String(),
  status: Type.String({
    description: 'pending, succeeded, failed (all attempts used) or abandoned (subscription deactivated)',
  }),
  attempts: Type.Integer({ description: 'Attempts made so far' }),
  max_attempts: Type.Integer(),
  last_response_status: Nullable(Type.Integer()),
  last_error: NullableString(),
  last_attempt_at: NullableString(),
  next_attempt_at: Nullable(Type.String({ description: 'When the next attempt is due (pending only)' })),
  delivered_at: NullableString(),
  redelivery_of: Nullable(Type.Integer({ description: 'The delivery this one sends again' })),
  target_url: Type.String({ description: "The subscription's current URL (each attempt's own is in attempt_log)" }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const AttemptSchema = Type.Object({
  number: Type.Integer(),
  delivery_uuid: Type.String({ description: 'The X-Service-Delivery header of the attempt' }),
  target_url: Type.String({ description: 'Where this attempt went' }),
  attempted_at: Type.String(),
  duration_ms: Type.Integer(),
  response_status: Nullable(Type.Integer()),
  error: NullableString(),
});

export const DeliveryDetailSchema = Type.Composite([
  DeliverySchema,
  Type.Object({
    attempt_log: Type.Array(AttemptSchema),
    payload: Type.Unknown({ description: 'The JSON body every attempt sends' }),
  }),
]);

export type DeliveryRow = WebhookDelivery & { target_url: string };

export function deliveryObject(d: DeliveryRow) {
  return {
    id: d.id,
    webhook_id: d.subscription_id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    max_attempts: MAX_ATTEMPTS,
    last_response_status: d.last_response_status,
    last_error: d.last_error,
    last_attempt_at: zWire(d.last_attempt_at),
    next_attempt_at: d.status === 'pending' ? zWire(d.next_attempt_at) : null,
    delivered_at: zWire(d.delivered_at),
    redelivery_of: d.redelivery_of,
    target_url: d.target_url,
    created_at: zWire(d.created_at),
    updated_at: zWire(d.updated_at),
  };
}
