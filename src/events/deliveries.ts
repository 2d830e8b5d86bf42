// The delivery queue's claims and results. A worker claims due deliveries by writing a lease
// (locked_until, lease_token); a worker that dies simply lets its leases run out and another sweep
// takes them over, so a delivery is never lost and is marked succeeded only on a 2xx it received.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';
import { now, storedAt } from '#platform/time.ts';
import { nextAttemptAfter } from './retry-schedule.ts';
import type { AttemptResult } from './sender.ts';

export interface ClaimedDelivery {
  id: number;
  subscription_id: number;
  event_type: string;
  payload: string;
  attempts: number;
  target_url: string;
  secret: string | null;
  lease_token: string;
}

/**
 * Claims up to `limit` due deliveries for `leaseMs`, skipping subscriptions that already have
 * `perSubscription` attempts in flight here (one slow receiver must not hold every slot).
 */
export async function claimDueDeliveries(
  database: Database,
  at: number,
  limit: number,
  leaseMs: number,
  busy: ReadonlyMap<number, number>,
  perSubscription: number,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const due = storedAt(at);
  const token = randomUUID();
  return database.db.transaction().execute(async (trx) => {
    // `status = 'pending'` written as a literal so both engines match the partial due index.
    let candidates = trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'subscription_id'])
      .where(sql<boolean>`status = 'pending'`)
      .where('next_attempt_at', '<=', due)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', due)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit * 4);
    // Several workers may sweep at once on PostgreSQL: each skips the rows another is claiming.
    if (database.dialect.engine === 'postgres') candidates = candidates.forUpdate().skipLocked();
    const rows = await candidates.execute();
    const taken = new Map(busy);
    const chosen: number[] = [];
    for (const row of rows) {
      if (chosen.length >= limit) break;
      const n = taken.get(row.subscription_id) ?? 0;
      if (n >= perSubscription) continue;
      taken.set(row.subscription_id, n + 1);
      chosen.push(row.id);
    }
    if (chosen.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ locked_until: storedAt(at + leaseMs), lease_token: token })
      .where('id', 'in', chosen)
      .execute();
    const claimed = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .select([
        'd.id',
        'd.subscription_id',
        'd.event_type',
        'd.payload',
        'd.attempts',
        's.target_url',
        's.secret',
        'd.lease_token',
      ])
      .where('d.id', 'in', chosen)
      .orderBy('d.id')
      .execute();
    return claimed as ClaimedDelivery[];
  });
}

export interface AttemptOutcome {
  claimed: ClaimedDelivery;
  result: AttemptResult;
  signedAt: number;
  finishedAt: number;
}

/**
 * Records attempts' outcomes in one transaction: each attempt's row, and its delivery's new state
 * (succeeded; pending with the next due time; failed after the last attempt). An outcome is
 * dropped when its lease was lost to another worker, which then owns the delivery. A
 * subscription deactivated meanwhile leaves the delivery abandoned, unless this attempt succeeded.
 */
export async function recordAttempts(database: Database, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await database.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'attempts', 'lease_token'])
      .where(
        'id',
        'in',
        outcomes.map((o) => o.claimed.id),
      )
      .execute();
    const current = new Map(rows.map((r) => [r.id, r]));
    const attempts = [];
    const t = now();
    for (const { claimed, result, signedAt, finishedAt } of outcomes) {
      const row = current.get(claimed.id);
      if (!row || row.lease_token !== claimed.lease_token) continue;
      const number = row.attempts + 1;
      const next = result.ok ? null : nextAttemptAfter(number, finishedAt);
      const status = result.ok
        ? 'succeeded'
        : row.status !== 'pending'
          ? row.status
          : next === null
            ? 'failed'
            : 'pending';
      attempts.push({
        delivery_id: claimed.id,
        number,
        delivery_uuid: result.deliveryUuid,
        target_url: claimed.target_url,
        signed_at: storedAt(signedAt),
        duration_ms: result.durationMs,
        response_status: result.status,
        error: result.error,
      });
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts: number,
          next_attempt_at: status === 'pending' ? storedAt(next!) : null,
          locked_until: null,
          lease_token: null,
          last_attempt_at: storedAt(signedAt),
          last_response_status: result.status,
          last_error: result.error,
          delivered_at: result.ok ? storedAt(finishedAt) : null,
          updated_at: t,
        })
        .where('id', '=', claimed.id)
        .execute();
    }
    if (attempts.length > 0) await trx.insertInto('webhook_attempts').values(attempts).execute();
  });
}
