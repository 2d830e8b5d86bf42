// Request schemas of /v1/webhooks (document 1, Subscription endpoints) and the delivery log; the
// service inputs are their static types.
import { Type, type Static } from '@sinclair/typebox';
import type { DeliveryStatus } from '#db/tables.ts';
import { SUBSCRIPTION_NAMES_TEXT } from '#events/catalog.ts';
import { Body, Nullable, PageQuery, RecordId, TEXT_CEILING } from '#platform/schemas.ts';

export const SECRET_MAX = 128;

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'abandoned'];

// Lengths and formats are checked by the service, which answers with document 1's messages.
const fields = {
  target_url: Nullable(
    Type.String({ maxLength: TEXT_CEILING, description: 'https:// recommended; at most 500 characters once trimmed' }),
  ),
  event_type: Nullable(
    Type.String({
      maxLength: 100,
      description: SUBSCRIPTION_NAMES_TEXT,
    }),
  ),
  secret: Nullable(
    Type.String({
      maxLength: SECRET_MAX,
      description: 'Signs deliveries (HMAC-SHA256); at most 128 characters; never returned',
    }),
  ),
};

/** POST /v1/webhooks. */
export const CreateSubscriptionBody = Body(fields);
export type CreateSubscriptionInput = Static<typeof CreateSubscriptionBody>;
/** PATCH /v1/webhooks/:id. */
export const UpdateSubscriptionBody = Body({ ...fields, active: Type.Boolean() });
export type UpdateSubscriptionInput = Static<typeof UpdateSubscriptionBody>;

export const ListDeliveriesQuery = Type.Object({
  webhook_id: Type.Optional(RecordId()),
  event_id: Type.Optional(Type.String()),
  event_type: Type.Optional(Type.String()),
  status: Type.Optional(Type.String({ description: DELIVERY_STATUSES.join(', ') })),
  ...PageQuery(200),
});

/** POST /v1/webhooks/replay. */
export const ReplayBody = Body(
  { event_id: Type.String({ minLength: 1, maxLength: 64 }), webhook_id: RecordId() },
  { required: ['event_id'] },
);
