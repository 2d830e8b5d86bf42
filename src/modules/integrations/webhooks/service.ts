// Webhook subscriptions (document 1, Subscription endpoints) and the delivery log's redeliver and
// replay (ours to design; docs/api-decisions.md).
import type { Executor } from '#db/dialect.ts';
import type { Event, WebhookSubscription } from '#db/tables.ts';
import {
  DEFAULT_SUBSCRIPTION,
  SUBSCRIPTION_NAMES,
  canonicalSubscription,
  subscriptionsReceiving,
} from '#events/catalog.ts';
import { queueDeliveries } from '#events/queue.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { badRequest, conflict, notFound, unprocessable } from '#platform/errors.ts';
import { assertPublicHost, PrivateAddressRefused } from '#platform/outbound.ts';
import { now } from '#platform/time.ts';
import { onVisibleJob } from '#crm/index.ts';
import { findDeliveryRow, findSubscription } from './repo.ts';
import { SECRET_MAX, type CreateSubscriptionInput, type UpdateSubscriptionInput } from './schemas.ts';

export const TARGET_URL_MAX = 500;

export const subscriptionNotFound = () => notFound('Webhook subscription not found');

function eventTypeOf(value: string | null | undefined): string {
  const canonical = value === undefined || value === null ? DEFAULT_SUBSCRIPTION : canonicalSubscription(value);
  if (canonical === null) {
    throw badRequest(`event_type must be one of ${SUBSCRIPTION_NAMES.join(', ')}`, {
      field: 'event_type',
      accepted: SUBSCRIPTION_NAMES,
    });
  }
  return canonical;
}

function targetUrlOf(value: string, allowPrivate: boolean): string {
  const url = value.trim();
  if (!/^https?:\/\//i.test(url))
    throw badRequest('target_url must start with http:// or https://', { field: 'target_url' });
  if (url.length > TARGET_URL_MAX) {
    throw badRequest(`target_url must be at most ${TARGET_URL_MAX} characters`, { field: 'target_url' });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('target_url must be a valid URL', { field: 'target_url' });
  }
  try {
    assertPublicHost(parsed, allowPrivate);
  } catch (err) {
    if (err instanceof PrivateAddressRefused) {
      throw badRequest('target_url must be a public address', {
        field: 'target_url',
        code: 'private_target',
        message: err.message,
      });
    }
    throw err;
  }
  return url;
}

/** An empty secret means unsigned deliveries, like no secret at all. */
function secretOf(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (value.length > SECRET_MAX)
    throw badRequest(`secret must be at most ${SECRET_MAX} characters`, { field: 'secret' });
  return value;
}

export async function createSubscription(
  ctx: ServiceContext,
  input: CreateSubscriptionInput,
  allowPrivate: boolean,
): Promise<WebhookSubscription> {
  if (input.target_url === undefined || input.target_url === null || input.target_url.trim() === '') {
    throw badRequest('target_url is required', { field: 'target_url' });
  }
  const targetUrl = targetUrlOf(input.target_url, allowPrivate);
  const eventType = eventTypeOf(input.event_type);
  const secret = secretOf(input.secret);
  const t = now();
  return ctx.database.db
    .insertInto('webhook_subscriptions')
    .values({
      firm_id: ctx.auth.firm.id,
      event_type: eventType,
      target_url: targetUrl,
      secret,
      active: 1,
      created_by_user_id: ctx.auth.user.id,
      deactivated_at: null,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Stops a subscription: its pending deliveries are abandoned (their history stays). */
async function deactivate(trx: Executor, subscription: WebhookSubscription, t: string): Promise<void> {
  await trx
    .updateTable('webhook_subscriptions')
    .set({ active: 0, deactivated_at: t, updated_at: t })
    .where('id', '=', subscription.id)
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'abandoned', next_attempt_at: null, updated_at: t })
    .where('subscription_id', '=', subscription.id)
    .where('status', '=', 'pending')
    .execute();
}

export async function updateSubscription(
  ctx: ServiceContext,
  id: number,
  input: UpdateSubscriptionInput,
  allowPrivate: boolean,
): Promise<WebhookSubscription> {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    const existing = await findSubscription(trx, firmId, id);
    if (!existing) throw subscriptionNotFound();
    const changes: Partial<WebhookSubscription> = {};
    if (input.target_url !== undefined) {
      if (input.target_url === null || input.target_url.trim() === '')
        throw badRequest('target_url cannot be empty', { field: 'target_url' });
      changes.target_url = targetUrlOf(input.target_url, allowPrivate);
    }
    // null is not "back to the default" on a change: name the events wanted.
    if (input.event_type === null)
      throw badRequest(`event_type must be one of ${SUBSCRIPTION_NAMES.join(', ')}`, {
        field: 'event_type',
        accepted: SUBSCRIPTION_NAMES,
      });
    if (input.event_type !== undefined) changes.event_type = eventTypeOf(input.event_type);
    if (input.secret !== undefined) changes.secret = secretOf(input.secret);
    const t = now();
    if (input.active === false && existing.active === 1) await deactivate(trx, existing, t);
    if (input.active === true && existing.active === 0) Object.assign(changes, { active: 1, deactivated_at: null });
    if (Object.keys(changes).length > 0) {
      await trx
        .updateTable('webhook_subscriptions')
        .set({ ...changes, updated_at: t })
        .where('id', '=', id)
        .execute();
    }
    return (await findSubscription(trx, firmId, id))!;
  });
}

export async function deleteSubscription(ctx: ServiceContext, id: number): Promise<WebhookSubscription> {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    const existing = await findSubscription(trx, firmId, id);
    if (!existing) throw subscriptionNotFound();
    if (existing.active === 1) await deactivate(trx, existing, now());
    return (await findSubscription(trx, firmId, id))!;
  });
}

// ---- redeliver and replay -------------------------------------------------------------------

const inactive = (s: WebhookSubscription) =>
  conflict('Webhook subscription is inactive', {
    message: `Subscription ${s.id} is deactivated; reactivate it with PATCH {"active": true} first`,
    code: 'subscription_inactive',
  });

/** Sends one delivery's event again to its subscription, as a new delivery with a fresh body. */
export async function redeliver(ctx: ServiceContext, deliveryId: number): Promise<number> {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    const delivery = await findDeliveryRow(trx, firmId, ctx.auth.user, deliveryId);
    if (!delivery) throw notFound('Webhook delivery not found');
    const subscription = (await findSubscription(trx, firmId, delivery.subscription_id))!;
    if (subscription.active === 0) throw inactive(subscription);
    const event = await trx
      .selectFrom('events')
      .selectAll()
      .where('id', '=', delivery.event_row_id)
      .executeTakeFirstOrThrow();
    // Sent even when the subscription has since changed its event_type: it once received this event.
    const [id] = await queueDeliveries(trx, event, {
      subscriptionId: subscription.id,
      redeliveryOf: delivery.id,
      anyEventType: true,
    });
    return id!;
  });
}

/**
 * Sends one event (by event_id, feed or webhook-only) again to every active subscription that
 * receives it, or to the one named. Returns the new deliveries' ids.
 */
export async function replayEvent(
  ctx: ServiceContext,
  eventId: string,
  webhookId: number | undefined,
): Promise<number[]> {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    const event = (await onVisibleJob(
      trx.selectFrom('events').selectAll().where('firm_id', '=', firmId).where('event_id', '=', eventId),
      'job_id',
      firmId,
      ctx.auth.user,
    ).executeTakeFirst()) as Event | undefined;
    if (!event) throw notFound('Event not found', { field: 'event_id' });
    const named = webhookId === undefined ? undefined : await findSubscription(trx, firmId, webhookId);
    if (named === undefined && webhookId !== undefined) throw subscriptionNotFound();
    const receiving = subscriptionsReceiving(event.event_type, event.in_feed === 1);
    if (receiving.length === 0) {
      throw unprocessable('Event is not delivered by webhook', {
        message: `${event.event_type} is a feed-only event; its webhook twin has its own event_id`,
        code: 'not_deliverable',
      });
    }
    if (named) {
      if (named.active === 0) throw inactive(named);
      if (!receiving.includes(named.event_type)) {
        throw unprocessable('Subscription does not receive this event', {
          message: `Subscription ${named.id} receives ${named.event_type}, not ${event.event_type}`,
          code: 'not_subscribed',
        });
      }
    }
    const ids = await queueDeliveries(trx, event, { subscriptionId: webhookId });
    if (ids.length === 0) {
      throw unprocessable('No active subscription receives this event', {
        code: 'no_subscription',
        event_type: event.event_type,
      });
    }
    return ids;
  });
}
