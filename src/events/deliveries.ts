// The delivery queue's claims and results. A worker claims due deliveries by writing a lease
// (locked_until, lease_token); a worker that dies simply lets its leases run out and another sweep
// takes them over, so a delivery is never lost and is marked succeeded only on a 2xx it received.
import { randomUUID } from 'node:crypto';
import type { Database } from '#db/database.ts';
import type { Engine } from '#db/dialect.ts';
import type { DirectStatements } from '#db/direct-transaction.ts';
import { now, storedAt } from '#platform/time.ts';
import {
  attemptRowsText,
  DUE_TEXT,
  leaseText,
  paddedCount,
  recordAndClaimText,
  recordingText,
  recordText,
  runText,
} from './delivery-statements.ts';
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
    const { busy, limit, perSubscription } = claim;
    const values = outcomes.length > 0 ? recordingValues(outcomes, 'postgres') : [];
    const busyRows = paddedCount(busy.size);
    for (const [id, n] of busy) values.push(id, n);
    for (let i = busy.size; i < busyRows; i++) values.push(null, null);
    values.push(lease.due, lease.due, limit * 4, perSubscription, limit, lease.until, lease.token);
    const statement = recordAndClaimText('postgres', paddedCount(outcomes.length), busyRows);
    const { rows } = await runText<ClaimedDelivery>(queueOf(database), statement, values);
    return inIdOrder(rows);
  }
  // One call on SQLite's connection (db/direct-transaction.ts), not a chain of promises per statement.
  return sqliteTransaction(database)((statements) => {
    recordOnSqlite(statements, outcomes);
    return claimOnSqlite(statements, claim, lease);
  });
}

/** PostgreSQL's connections for the queue's statements (database.ts, QUEUE_PLANS). */
const queueOf = (database: Database) => database.queue ?? database.db;

/** SQLite's transaction run on its connection directly (database.ts gives every SQLite database one). */
function sqliteTransaction(database: Database): NonNullable<Database['transact']> {
  if (!database.transact) throw new Error('the delivery queue on SQLite needs Database.transact');
  return database.transact;
}

interface DueRow {
  id: number;
  subscription_id: number;
}

/**
 * SQLite's claim: the due deliveries read in due order, one at a time, until `limit` are chosen
 * within the share (or four times that many are read: a subscription at its share may hold the
 * rest back), then leased and returned.
 */
function claimOnSqlite(statements: DirectStatements, claim: ClaimRequest, lease: Lease): ClaimedDelivery[] {
  const taken = new Map(claim.busy);
  const chosen: number[] = [];
  let read = 0;
  for (const row of statements.iterate(DUE_TEXT, [lease.due, lease.due]) as IterableIterator<DueRow>) {
    read++;
    const n = taken.get(row.subscription_id) ?? 0;
    if (n < claim.perSubscription) {
      taken.set(row.subscription_id, n + 1);
      chosen.push(row.id);
    }
    if (chosen.length >= claim.limit || read >= claim.limit * 4) break;
  }
  if (chosen.length === 0) return [];
  const rows = statements.all(leaseText('sqlite', chosen.length), [lease.until, lease.token, ...chosen]);
  return inIdOrder(rows as unknown as ClaimedDelivery[]);
}

const inIdOrder = (rows: ClaimedDelivery[]) =>
  rows.map((c) => ({ ...c, id: Number(c.id) })).sort((a, b) => a.id - b.id);

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
    await runText(
      queueOf(database),
      recordingText('postgres', paddedCount(outcomes.length)),
      recordingValues(outcomes, 'postgres'),
    );
    return;
  }
  await sqliteTransaction(database)((statements) => recordOnSqlite(statements, outcomes));
}

/** One outcome's values for its row of `v` (delivery-statements.ts, OUTCOME_ROW). */
function outcomeRow({ claimed, result, signedAt, finishedAt }: AttemptOutcome): unknown[] {
  const number = claimed.attempts + 1;
  const next = result.ok ? null : nextAttemptAfter(number, finishedAt);
  return [
    claimed.id,
    claimed.lease_token,
    number,
    result.ok ? 1 : 0,
    next === null ? null : storedAt(next),
    storedAt(signedAt),
    result.status,
    result.error,
    result.ok ? storedAt(finishedAt) : null,
    result.deliveryUuid,
    claimed.target_url,
    result.durationMs,
  ];
}

/**
 * The recording's values: every outcome's row of `v`, then updated_at. On PostgreSQL `v` has
 * paddedCount rows: rows of nulls follow the outcomes'.
 */
function recordingValues(outcomes: AttemptOutcome[], engine: Engine): unknown[] {
  const values: unknown[] = [];
  for (const outcome of outcomes) values.push(...outcomeRow(outcome));
  const rows = engine === 'postgres' ? paddedCount(outcomes.length) : outcomes.length;
  for (let i = outcomes.length; i < rows; i++) values.push(...NO_OUTCOME);
  values.push(now());
  return values;
}

/** A row of `v` that matches no delivery. */
const NO_OUTCOME: readonly unknown[] = Array.from({ length: 12 }, () => null);

/**
 * SQLite, which has no data-modifying CTE: the update, then the attempt rows of what it updated,
 * in delivery order.
 */
function recordOnSqlite(statements: DirectStatements, outcomes: AttemptOutcome[]): void {
  if (outcomes.length === 0) return;
  const updated = statements.all(recordText('sqlite', outcomes.length), recordingValues(outcomes, 'sqlite'));
  if (updated.length === 0) return;
  const kept = new Set(updated.map((u) => Number(u.id)));
  const values: unknown[] = [];
  for (const { claimed, result, signedAt } of [...outcomes].sort((a, b) => a.claimed.id - b.claimed.id)) {
    if (!kept.has(claimed.id)) continue;
    values.push(
      claimed.id,
      claimed.attempts + 1,
      result.deliveryUuid,
      claimed.target_url,
      storedAt(signedAt),
      result.durationMs,
      result.status,
      result.error,
    );
  }
  statements.run(attemptRowsText('sqlite', kept.size), values);
}
