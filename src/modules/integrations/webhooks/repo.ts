// Queries of subscriptions and the delivery log, scoped to the workspace.
import type { Executor } from '#db/dialect.ts';
import type { DeliveryStatus, User, WebhookSubscription } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { DeliveryRow } from './serialize.ts';

export function findSubscription(db: Executor, firmId: number, id: number): Promise<WebhookSubscription | undefined> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listSubscriptionRows(db: Executor, firmId: number): Promise<WebhookSubscription[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('firm_id', '=', firmId)
    .orderBy('id', 'desc')
    .execute();
}

export interface DeliveryFilter {
  webhookId?: number;
  eventId?: string;
  eventType?: string;
  status?: DeliveryStatus;
}

/** Deliveries with their subscription's URL; a user who sees only their jobs sees only those jobs' deliveries. */
function deliveries(db: Executor, firmId: number, user: User, f: DeliveryFilter) {
  let qb = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .innerJoin('events as e', 'e.id', 'd.event_row_id')
    .where('d.firm_id', '=', firmId);
  if (f.webhookId !== undefined) qb = qb.where('d.subscription_id', '=', f.webhookId);
  if (f.eventId !== undefined) qb = qb.where('d.event_id', '=', f.eventId);
  if (f.eventType !== undefined) qb = qb.where('d.event_type', '=', f.eventType);
  if (f.status !== undefined) qb = qb.where('d.status', '=', f.status);
  return onVisibleJob(qb, 'e.job_id', firmId, user);
}

export async function listDeliveryRows(
  db: Executor,
  firmId: number,
  user: User,
  f: DeliveryFilter,
  limit: number,
  offset: number,
) {
  const [rows, count] = await Promise.all([
    deliveries(db, firmId, user, f)
      .selectAll('d')
      .select('s.target_url')
      .orderBy('d.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    deliveries(db, firmId, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as DeliveryRow[], total: Number(count.n) };
}

export async function findDeliveryRow(
  db: Executor,
  firmId: number,
  user: User,
  id: number,
): Promise<DeliveryRow | undefined> {
  return deliveries(db, firmId, user, {})
    .selectAll('d')
    .select('s.target_url')
    .where('d.id', '=', id)
    .executeTakeFirst() as Promise<DeliveryRow | undefined>;
}

export function attemptsOf(db: Executor, deliveryId: number) {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('number')
    .execute();
}

/** The body every attempt of a delivery sends (JSON text); undefined once the delivery is pruned. */
export async function payloadOf(db: Executor, deliveryId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_payloads')
    .select('payload')
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row?.payload;
}
