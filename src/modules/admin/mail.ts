// The operator's view of mail: what the outbox folder holds (the embedded default writes every
// message there as an .eml file) and the queue of mail caused by changes, with what went wrong
// (a refused connection, a bounce). A failed message can be queued again once the cause is fixed.
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';
import { badRequest, conflict, notFound } from '#platform/errors.ts';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { DUE_AT_ONCE } from '#platform/mail/queue.ts';
import { zWire } from '#platform/time.ts';

const STATUSES = ['queued', 'sent', 'failed'] as const;
type Status = (typeof STATUSES)[number];

function limitOf(raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw badRequest('limit must be an integer from 1 to 500');
  return n;
}

export async function outboxMessages(dataDir: string, limit?: unknown) {
  return listOutbox(dataDir, limitOf(limit, 100));
}

export async function outboxMessage(dataDir: string, name: string): Promise<Buffer> {
  const raw = await readOutboxMessage(dataDir, name);
  if (!raw) throw notFound('Message not found', { message: `No message named "${name}" in the outbox` });
  return raw;
}

/** Queued, sent and failed mail, newest first, with counts by status. */
export async function mailQueue(database: Database, query: { status?: unknown; limit?: unknown }) {
  const status = query.status;
  if (status !== undefined && !STATUSES.includes(status as Status))
    throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
  let rows = database.db
    .selectFrom('outgoing_mail')
    .select([
      'id',
      'firm_id',
      'kind',
      'ref',
      'to_address',
      'subject',
      'status',
      'attempts',
      'next_attempt_at',
      'last_error',
      'sent_at',
      'created_at',
    ])
    .orderBy('id', 'desc')
    .limit(limitOf(query.limit, 100));
  if (status !== undefined) rows = rows.where('status', '=', status as Status);
  const counts = await database.db
    .selectFrom('outgoing_mail')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  return {
    counts: Object.fromEntries(STATUSES.map((s) => [s, Number(counts.find((c) => c.status === s)?.n ?? 0)])),
    messages: (await rows.execute()).map((r) => ({
      ...r,
      next_attempt_at: r.status === 'queued' && r.next_attempt_at !== DUE_AT_ONCE ? zWire(r.next_attempt_at) : null,
      sent_at: r.sent_at === null ? null : zWire(r.sent_at),
      created_at: zWire(r.created_at),
    })),
  };
}

/** Queues a failed message again, due now, with a fresh count of attempts. */
export async function retryMail(database: Database, id: number) {
  const row = await database.db
    .selectFrom('outgoing_mail')
    .select(['id', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Message not found');
  if (row.status !== 'failed')
    throw conflict('Only a failed message can be retried', { message: `This message is ${row.status}` });
  await database.db
    .updateTable('outgoing_mail')
    .set({ status: 'queued', attempts: 0, next_attempt_at: DUE_AT_ONCE, locked_until: null, lease_token: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .execute();
  return { id, status: 'queued' as const };
}
