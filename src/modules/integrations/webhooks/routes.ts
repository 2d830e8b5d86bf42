// /v1/webhooks: subscriptions (document 1), the delivery log, redeliver and replay (ours).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import type { DeliveryStatus } from '#db/tables.ts';
import { eventNameOf, SUBSCRIPTION_NAMES_TEXT } from '#events/catalog.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { attemptsOf, findDeliveryRow, listDeliveryRows, listSubscriptionRows, payloadOf } from './repo.ts';
import {
  DeliveryDetailSchema,
  DeliverySchema,
  SubscriptionSchema,
  deliveryObject,
  subscriptionObject,
} from './serialize.ts';
import {
  CreateSubscriptionBody,
  DELIVERY_STATUSES,
  ListDeliveriesQuery,
  ReplayBody,
  UpdateSubscriptionBody,
} from './schemas.ts';
import { createSubscription, deleteSubscription, redeliver, replayEvent, updateSubscription } from './service.ts';

export function webhookRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/webhooks',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'List subscriptions, newest first (deactivated ones included)',
        response: { 200: Type.Object({ data: Type.Array(SubscriptionSchema) }) },
      },
    },
    async (request) => ({
      data: (await listSubscriptionRows(env.database.db, request.auth.firm.id)).map(subscriptionObject),
    }),
  );

  app.post(
    '/v1/webhooks',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'Subscribe a URL to an event (default job_status_changed)',
        description: `event_type: ${SUBSCRIPTION_NAMES_TEXT}`,
        body: CreateSubscriptionBody,
        response: { 201: One(SubscriptionSchema) },
      },
    },
    async (request, reply) => {
      const created = await createSubscription(ctx(request), request.body, env.deps.outbound.allowPrivateNetwork);
      return reply.status(201).send({ data: subscriptionObject(created) });
    },
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'Change a subscription; a new secret rotates it, active true reactivates it',
        params: IdParam(),
        body: UpdateSubscriptionBody,
        response: { 200: One(SubscriptionSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return {
        data: subscriptionObject(
          await updateSubscription(ctx(request), id, request.body, env.deps.outbound.allowPrivateNetwork),
        ),
      };
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'Deactivate a subscription (history kept, pending deliveries abandoned)',
        params: IdParam(),
        response: { 200: One(SubscriptionSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: subscriptionObject(await deleteSubscription(ctx(request), id)) };
    },
  );

  app.get(
    '/v1/webhooks/deliveries',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'The delivery log, newest first',
        querystring: ListDeliveriesQuery,
        response: {
          200: ListOf(DeliverySchema, {
            retention_days: Type.Integer({
              description:
                'How far back the log reaches: settled deliveries (succeeded, failed, abandoned) are kept this many days after they settle, then removed with their attempts; pending ones are always kept',
            }),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.status !== undefined && !DELIVERY_STATUSES.includes(q.status as DeliveryStatus)) {
        throw badRequest(`status must be one of ${DELIVERY_STATUSES.join(', ')}`, { field: 'status' });
      }
      const page = pageOf(q);
      const { rows, total } = await listDeliveryRows(
        env.database.db,
        request.auth.firm.id,
        request.auth.user,
        {
          webhookId: q.webhook_id,
          eventId: q.event_id,
          eventType: q.event_type === undefined ? undefined : eventNameOf(q.event_type),
          status: q.status as DeliveryStatus | undefined,
        },
        page.limit,
        page.offset,
      );
      return {
        ...listEnvelope(rows.map(deliveryObject), total, page),
        retention_days: env.deps.deliveryRetentionDays,
      };
    },
  );

  const readDelivery = async (firmId: number, user: Parameters<typeof findDeliveryRow>[2], id: number) => {
    const row = await findDeliveryRow(env.database.db, firmId, user, id);
    if (!row) throw notFound('Webhook delivery not found');
    const [attempts, payload] = await Promise.all([attemptsOf(env.database.db, id), payloadOf(env.database.db, id)]);
    // Pruned (past the retention) since the row was read.
    if (payload === undefined) throw notFound('Webhook delivery not found');
    return {
      ...deliveryObject(row),
      attempt_log: attempts.map((a) => ({
        number: a.number,
        delivery_uuid: a.delivery_uuid,
        target_url: a.target_url,
        attempted_at: zWire(a.signed_at),
        duration_ms: a.duration_ms,
        response_status: a.response_status,
        error: a.error,
      })),
      payload: JSON.parse(payload) as unknown,
    };
  };

  app.get(
    '/v1/webhooks/deliveries/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'One delivery with every attempt and the body it sends',
        params: IdParam(),
        response: { 200: One(DeliveryDetailSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await readDelivery(request.auth.firm.id, request.auth.user, id) };
    },
  );

  app.post(
    '/v1/webhooks/deliveries/:id/redeliver',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: "Send a delivery's event again to its subscription (a new delivery, same event_id, current record)",
        params: IdParam(),
        response: { 202: One(DeliveryDetailSchema) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const newId = await redeliver(ctx(request), id);
      return reply.status(202).send({ data: await readDelivery(request.auth.firm.id, request.auth.user, newId) });
    },
  );

  app.post(
    '/v1/webhooks/replay',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Webhooks'],
        summary: 'Send an event again (by event_id) to every active subscription that receives it, or to one',
        body: ReplayBody,
        response: { 202: Type.Object({ data: Type.Array(DeliverySchema) }) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const ids = await replayEvent(ctx(request), body.event_id, body.webhook_id);
      const rows = await Promise.all(
        ids.map((id) => findDeliveryRow(env.database.db, request.auth.firm.id, request.auth.user, id)),
      );
      return reply.status(202).send({ data: rows.map((r) => deliveryObject(r!)) });
    },
  );
}
