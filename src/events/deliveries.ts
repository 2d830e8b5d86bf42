// The delivery queue's claims and results. A worker claims due deliveries by writing a lease
// (locked_until, lease_token); a worker that dies simply lets its leases run out and another sweep
// takes them over, so a delivery is never lost and is marked succeeded only on a 2xx it received.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
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

/** How far an announced due time may stand ahead of the worker's clock and still be taken. */
const ANNOUNCED_AHEAD_MS = 1000;

/**
 * What a worker asks of a claim: up to `limit` due deliveries for `leaseMs`, skipping subscriptions
 * that already have `perSubscription` attempts in flight here (`busy`; one slow receiver must not
 * hold every slot). Due means by `at`, or by `announced` when that is later (the due time of
 * deliveries just committed in this process, events/queued.ts) but not by more than
 * ANNOUNCED_AHEAD_MS: a clock that far behind the service's (a test's manual clock) is this
 * worker's own to follow.
 */
export interface ClaimRequest {
  at: number;
  limit: number;
  leaseMs: number;
  busy: ReadonlyMap<number, number>;
  perSubscription: number;
  announced: string | null;
}

interface Lease {
  due: string;
  until: string;
  token: string;
}

function leaseFor(claim: ClaimRequest): Lease {
  const byClock = storedAt(claim.at);
  const { announced } = claim;
  const due =
    announced !== null && announced > byClock && announced <= storedAt(claim.at + ANNOUNCED_AHEAD_MS)
      ? announced
      : byClock;
  return { due, until: storedAt(claim.at + claim.leaseMs), token: randomUUID() };
}

/**
 * Records finished attempts (recordAttempts below) and claims due deliveries into the slots they
 * free, together: one transaction on SQLite, one statement on PostgreSQL. A worker at full speed
 * so makes one commit and one round trip per batch instead of two (docs/performance.md, "Webhook
 * delivery"). Either part may be empty. The claim cannot take a delivery whose outcome is being
 * recorded: that one is leased to this worker, so it is not due.
 */
export async function recordAndClaim(
  database: Database,
  outcomes: AttemptOutcome[],
  claim: ClaimRequest | null,
): Promise<ClaimedDelivery[]> {
  const claiming = claim !== null && claim.limit > 0;
  if (!claiming) {
    await recordAttempts(database, outcomes);
    return [];
  }
  const lease = leaseFor(claim);
  if (database.dialect.engine === 'postgres') {
    const recording = outcomes.length > 0 ? sql`${recordingCtes(outcomes)}, ` : sql`with `;
    const { rows } = await sql<ClaimedDelivery>`${recording}${claimStatement(claim, lease)}`.execute(database.db);
    return inIdOrder(rows);
  }
  return database.db.transaction().execute(async (trx) => {
    await recordOnSqlite(trx, outcomes);
    return claimOnSqlite(trx, claim, lease);
  });
}

/** SQLite's claim: the candidates read, the share applied here, the chosen leased and returned. */
async function claimOnSqlite(trx: Executor, claim: ClaimRequest, lease: Lease): Promise<ClaimedDelivery[]> {
  // `status = 'pending'` written as a literal so both engines match the partial due index.
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'subscription_id'])
    .where(sql<boolean>`status = 'pending'`)
    .where('next_attempt_at', '<=', lease.due)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', lease.due)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(claim.limit * 4)
    .execute();
  const taken = new Map(claim.busy);
  const chosen: number[] = [];
  for (const row of rows) {
    if (chosen.length >= claim.limit) break;
    const n = taken.get(row.subscription_id) ?? 0;
    if (n >= claim.perSubscription) continue;
    taken.set(row.subscription_id, n + 1);
    chosen.push(row.id);
  }
  if (chosen.length === 0) return [];
  const { rows: claimed } = await sql<ClaimedDelivery>`update webhook_deliveries
      set locked_until = ${lease.until}, lease_token = ${lease.token}
      where id in (${sql.join(chosen)})
      returning ${CLAIMED}`.execute(trx);
  return inIdOrder(claimed);
}

/**
 * The claimed rows as RETURNING gives them: the subscription's address and secret as subqueries
 * (SQLite's RETURNING cannot name an UPDATE … FROM table).
 */
const CLAIMED = sql`id, subscription_id, event_type, payload, attempts, lease_token,
  (select s.target_url from webhook_subscriptions s where s.id = webhook_deliveries.subscription_id) as target_url,
  (select s.secret from webhook_subscriptions s where s.id = webhook_deliveries.subscription_id) as secret`;

const inIdOrder = (rows: ClaimedDelivery[]) =>
  rows.map((c) => ({ ...c, id: Number(c.id) })).sort((a, b) => a.id - b.id);

/**
 * PostgreSQL's claim as the end of one statement (after `with `, or after the recording CTEs): the
 * due candidates locked (several workers may sweep at once: each skips the rows another is
 * claiming), ranked within their subscription after what this worker already has in flight for
 * it, the first `limit` within the share leased and returned. The same choice as SQLite's loop
 * above, made in the database.
 */
function claimStatement(claim: ClaimRequest, lease: Lease) {
  const { busy, limit, perSubscription } = claim;
  const inFlight =
    busy.size === 0
      ? sql`select 0 as subscription_id, 0 as n where false`
      : sql`values ${sql.join([...busy].map(([id, n]) => sql`(cast(${id} as integer), cast(${n} as integer))`))}`;
  return sql`busy (subscription_id, n) as (${inFlight}),
      candidates as (
        select id, subscription_id, next_attempt_at from webhook_deliveries
        where status = 'pending' and next_attempt_at <= ${lease.due}
          and (locked_until is null or locked_until <= ${lease.due})
        order by next_attempt_at, id
        limit ${limit * 4}
        for update skip locked
      ),
      ranked as (
        select c.id, c.next_attempt_at,
          row_number() over (partition by c.subscription_id order by c.next_attempt_at, c.id) + coalesce(b.n, 0) as slot
        from candidates c left join busy b on b.subscription_id = c.subscription_id
      ),
      chosen as (
        select id from ranked where slot <= ${perSubscription} order by next_attempt_at, id limit ${limit}
      )
    update webhook_deliveries
    set locked_until = ${lease.until}, lease_token = ${lease.token}
    where id in (select id from chosen)
    returning ${CLAIMED}`;
}

export interface AttemptOutcome {
  claimed: ClaimedDelivery;
  result: AttemptResult;
  signedAt: number;
  finishedAt: number;
}

/**
 * Records attempts' outcomes: every delivery's new state in one UPDATE … FROM a VALUES list
 * (succeeded; pending with the next due time; failed after the last attempt), and the attempt rows
 * of those it updated in one INSERT. On PostgreSQL both are one statement (the UPDATE a
 * data-modifying CTE the INSERT reads), one round trip; on SQLite, which has no such CTE, two in
 * one transaction. An outcome is dropped when its lease was lost to another worker, which then owns
 * the delivery (the UPDATE matches the lease token, so it updates nothing and no attempt row is
 * written). A subscription deactivated meanwhile leaves the delivery abandoned, unless this attempt
 * succeeded. The attempt number is the claimed count plus one: only the lease holder writes it.
 */
async function recordAttempts(database: Database, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  if (database.dialect.engine === 'postgres') {
    await sql`${recordingCtes(outcomes)} select 1`.execute(database.db);
    return;
  }
  await database.db.transaction().execute((trx) => recordOnSqlite(trx, outcomes));
}

/** The outcomes as a VALUES list `v`, typed in its first row: PostgreSQL takes a VALUES list's parameters as text otherwise. */
function outcomeValues(outcomes: AttemptOutcome[]) {
  const values = sql.join(
    outcomes.map(({ claimed, result, signedAt, finishedAt }) => {
      const number = claimed.attempts + 1;
      const next = result.ok ? null : nextAttemptAfter(number, finishedAt);
      return sql`(cast(${claimed.id} as integer), ${claimed.lease_token}, cast(${number} as integer),
        cast(${result.ok ? 1 : 0} as integer), ${next === null ? null : storedAt(next)}, ${storedAt(signedAt)},
        cast(${result.status} as integer), ${result.error}, ${result.ok ? storedAt(finishedAt) : null},
        ${result.deliveryUuid}, ${claimed.target_url}, cast(${result.durationMs} as integer))`;
    }),
  );
  // The VALUES columns are named apart from the table's, so `returning id` is the delivery's on
  // both engines (SQLite's RETURNING does not take the table's alias).
  return sql`with v (delivery_id, token, attempt, ok, next_at, signed_at, response_status, error,
    delivered_at, delivery_uuid, target_url, duration_ms) as (values ${values})`;
}

/** The deliveries' new state from `v`, for those whose lease this worker still holds. */
function updateFromValues() {
  const status = sql`(case when v.ok = 1 then 'succeeded' when d.status <> 'pending' then d.status
    when v.next_at is null then 'failed' else 'pending' end)`;
  return sql`update webhook_deliveries as d set
      status = ${status},
      attempts = v.attempt,
      next_attempt_at = case when ${status} = 'pending' then v.next_at end,
      locked_until = null,
      lease_token = null,
      last_attempt_at = v.signed_at,
      last_response_status = v.response_status,
      last_error = v.error,
      delivered_at = v.delivered_at,
      updated_at = ${now()}
    from v
    where d.id = v.delivery_id and d.lease_token = v.token
    returning id`;
}

const ATTEMPT_COLUMNS = sql`webhook_attempts (delivery_id, number, delivery_uuid, target_url, signed_at, duration_ms,
    response_status, error)`;

/**
 * PostgreSQL: the recording as CTEs (`v`, `updated`, `recorded`) a statement goes on from; a
 * data-modifying CTE runs to completion whether or not the statement reads it.
 */
function recordingCtes(outcomes: AttemptOutcome[]) {
  return sql`${outcomeValues(outcomes)}, updated as (${updateFromValues()}),
    recorded as (
      insert into ${ATTEMPT_COLUMNS}
      select v.delivery_id, v.attempt, v.delivery_uuid, v.target_url, v.signed_at, v.duration_ms, v.response_status, v.error
      from v join updated on updated.id = v.delivery_id
      order by v.delivery_id
    )`;
}

/** SQLite, which has no data-modifying CTE: the update, then the attempt rows of what it updated. */
async function recordOnSqlite(trx: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const withValues = outcomeValues(outcomes);
  const { rows: updated } = await sql<{ id: number }>`${withValues} ${updateFromValues()}`.execute(trx);
  if (updated.length === 0) return;
  await sql`${withValues}
    insert into ${ATTEMPT_COLUMNS}
    select delivery_id, attempt, delivery_uuid, target_url, signed_at, duration_ms, response_status, error
    from v where delivery_id in (${sql.join(updated.map((u) => u.id))})
    order by delivery_id`.execute(trx);
}
