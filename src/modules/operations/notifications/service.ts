// In-app notifications (docs/api-decisions.md, "Operations: notifications"): what schedule requests
// tell the people who decide them and the people who made them. Written in the transaction of the
// change they tell of; read and marked read by their own user only.
import type { Executor } from '#db/dialect.ts';
import type { Notification } from '#db/tables.ts';
import { type ServiceContext, inTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { can } from '#platform/permissions.ts';
import { now, zWire } from '#platform/time.ts';
import { transition } from '#db/transition.ts';

export interface NotificationInput {
  kind: string;
  title: string;
  body: string;
  scheduleRequestId?: number | null;
}

export async function notify(db: Executor, firmId: number, userIds: readonly number[], n: NotificationInput) {
  const at = now();
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('notifications')
    .values(
      unique.map((user_id) => ({
        firm_id: firmId,
        user_id,
        kind: n.kind,
        title: n.title.slice(0, 200),
        body: n.body,
        schedule_request_id: n.scheduleRequestId ?? null,
        created_at: at,
      })),
    )
    .execute();
}

/** Everyone who can edit the schedule (document 1, Schedule editor): owners and schedule editors. */
export async function scheduleEditorIds(db: Executor, firmId: number): Promise<number[]> {
  const users = await db
    .selectFrom('users')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('removed_at', 'is', null)
    .where((eb) => eb.or([eb('role', '=', 'owner'), eb('schedule_editor', '=', 1)]))
    .execute();
  return users.filter((u) => can(u, 'schedule_editor')).map((u) => u.id);
}

export function notificationObject(n: Notification) {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    schedule_request_id: n.schedule_request_id,
    read_at: zWire(n.read_at),
    created_at: zWire(n.created_at),
  };
}

export async function listNotifications(ctx: ServiceContext, unreadOnly: boolean, page: Page) {
  let qb = ctx.database.db
    .selectFrom('notifications')
    .where('firm_id', '=', ctx.auth.firm.id)
    .where('user_id', '=', ctx.auth.user.id);
  if (unreadOnly) qb = qb.where('read_at', 'is', null);
  const [rows, count] = await Promise.all([
    qb.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return listEnvelope(rows.map(notificationObject), Number(count.n), page);
}

/** Marks one of the caller's notifications read (the first time; a repeat answers it as it is). */
export async function readNotification(ctx: ServiceContext, id: number) {
  return inTransaction(ctx.database, async (trx) => {
    const mine = () =>
      trx
        .selectFrom('notifications')
        .selectAll()
        .where('firm_id', '=', ctx.auth.firm.id)
        .where('user_id', '=', ctx.auth.user.id)
        .where('id', '=', id)
        .executeTakeFirst();
    const row = await mine();
    if (!row) throw notFound('Notification not found');
    if (row.read_at === null) await transition(trx, 'notifications', id, { read_at: null }, { read_at: now() });
    return notificationObject((await mine())!);
  });
}
