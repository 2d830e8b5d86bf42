// The delivery queue's hot statements (events/deliveries.ts) as SQL texts made once per shape (how
// many outcomes are recorded, how many deliveries claimed, how many subscriptions are busy) and run
// with a flat list of values. Built with Kysely's `sql` for every batch, they took about 8% of the
// webhook worker's event loop on SQLite: a node per value (twelve per outcome), the whole tree
// compiled again, and the garbage of both (docs/performance.md, "Statement texts made once").
// Texts are written with `?` (no other `?` appears in them); PostgreSQL's are numbered ($1, $2 …)
// once, when first made.
import { CompiledQuery, type QueryResult } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';

/**
 * Texts kept, the least recently used dropped first. A worker uses a few dozen shapes; the bound is
 * for a large concurrency, whose claims could come in thousands of (outcomes, busy) shapes.
 */
const MAX_TEXTS = 500;
const made = new Map<string, string>();

/** The text `make` writes for this shape, numbered for PostgreSQL; made once per engine and key. */
function text(engine: Engine, key: string, make: () => string): string {
  const cacheKey = `${engine}:${key}`;
  let found = made.get(cacheKey);
  if (found === undefined) {
    const written = make();
    let n = 0;
    found = engine === 'postgres' ? written.replace(/\?/g, () => `$${++n}`) : written;
    if (made.size >= MAX_TEXTS) made.delete(made.keys().next().value!);
  } else {
    made.delete(cacheKey);
  }
  made.set(cacheKey, found);
  return found;
}

/** Runs a text made here with its values, as Kysely runs a compiled query (no plugin sees it). */
export function runText<R>(db: Executor, statement: string, parameters: unknown[]): Promise<QueryResult<R>> {
  return db.executeQuery<R>(CompiledQuery.raw(statement, parameters));
}

const list = (count: number, item: string) => Array.from({ length: count }, () => item).join(', ');

/**
 * How many rows PostgreSQL's statements carry for `count` outcomes or busy subscriptions: the next
 * power of two, the rest rows of nulls, which match no delivery and no subscription. Each shape is
 * a statement prepared on every connection that runs it, and planned anew with its values for its
 * first five runs there (claimTail says what such a plan once did); a worker's batches came in
 * dozens of shapes, rounded they come in a handful (docs/performance.md, "Fewer statement shapes on
 * PostgreSQL").
 */
export const paddedCount = (count: number) => (count <= 1 ? count : 2 ** Math.ceil(Math.log2(count)));

// ---- recording outcomes ----------------------------------------------------------------------

/**
 * One outcome's row of `v`, in OUTCOME_COLUMNS' order. Typed: PostgreSQL takes a VALUES list's
 * parameters as text otherwise. The VALUES columns are named apart from the table's, so
 * `returning id` is the delivery's on both engines (SQLite's RETURNING does not take the table's alias).
 */
const OUTCOME_ROW = `(cast(? as integer), ?, cast(? as integer), cast(? as integer), ?, ?, cast(? as integer), ?, ?, ?, ?,
  cast(? as integer))`;
const OUTCOME_COLUMNS = `v (delivery_id, token, attempt, ok, next_at, signed_at, response_status, error, delivered_at,
  delivery_uuid, target_url, duration_ms)`;

const outcomesAsV = (outcomes: number) => `with ${OUTCOME_COLUMNS} as (values ${list(outcomes, OUTCOME_ROW)})`;

const STATUS = `(case when v.ok = 1 then 'succeeded' when d.status <> 'pending' then d.status
  when v.next_at is null then 'failed' else 'pending' end)`;

/** The deliveries' new state from `v`, for those whose lease this worker still holds; its one value is updated_at. */
const UPDATE_FROM_V = `update webhook_deliveries as d set
    status = ${STATUS},
    attempts = v.attempt,
    next_attempt_at = case when ${STATUS} = 'pending' then v.next_at end,
    locked_until = null,
    lease_token = null,
    last_attempt_at = v.signed_at,
    last_response_status = v.response_status,
    last_error = v.error,
    delivered_at = v.delivered_at,
    updated_at = ?
  from v
  where d.id = v.delivery_id and d.lease_token = v.token
  returning id`;

const ATTEMPT_COLUMNS = `webhook_attempts (delivery_id, number, delivery_uuid, target_url, signed_at, duration_ms,
  response_status, error)`;

/** SQLite: `v` and the update from it; values: the outcomes' rows, then updated_at. */
export const recordText = (engine: Engine, outcomes: number) =>
  text(engine, `record:${outcomes}`, () => `${outcomesAsV(outcomes)} ${UPDATE_FROM_V}`);

/** SQLite: the attempt rows of the outcomes it updated, eight values each. */
export const attemptRowsText = (engine: Engine, rows: number) =>
  text(
    engine,
    `attempts:${rows}`,
    () => `insert into ${ATTEMPT_COLUMNS} values ${list(rows, '(?, ?, ?, ?, ?, ?, ?, ?)')}`,
  );

/**
 * PostgreSQL: the recording as CTEs (`v`, `updated`, `recorded`) a statement goes on from; a
 * data-modifying CTE runs to completion whether or not the statement reads it.
 */
const recordingCtes = (outcomes: number) => `${outcomesAsV(outcomes)}, updated as (${UPDATE_FROM_V}),
  recorded as (
    insert into ${ATTEMPT_COLUMNS}
    select v.delivery_id, v.attempt, v.delivery_uuid, v.target_url, v.signed_at, v.duration_ms, v.response_status, v.error
    from v join updated on updated.id = v.delivery_id
    order by v.delivery_id
  )`;

/** PostgreSQL: the recording alone, one statement; values as recordText's. */
export const recordingText = (engine: Engine, outcomes: number) =>
  text(engine, `recording:${outcomes}`, () => `${recordingCtes(outcomes)} select 1`);

// ---- claiming ------------------------------------------------------------------------------

/**
 * The due deliveries in due order, from webhook_deliveries; values: the due time, twice. The status
 * a literal, so the partial due index matches. Both engines' claims read them so.
 */
const DUE = `where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until <= ?)
  order by next_attempt_at, id`;

/** SQLite: the due deliveries, read one at a time until the claim has its fill. */
export const DUE_TEXT = `select id, subscription_id from webhook_deliveries ${DUE}`;

/**
 * The claimed rows as RETURNING gives them: the body, and the subscription's address and secret, as
 * subqueries (SQLite's RETURNING cannot name an UPDATE … FROM table).
 */
const CLAIMED = `id, subscription_id, event_type, attempts, lease_token,
  (select p.payload from webhook_payloads p where p.delivery_id = webhook_deliveries.id) as payload,
  (select s.target_url from webhook_subscriptions s where s.id = webhook_deliveries.subscription_id) as target_url,
  (select s.secret from webhook_subscriptions s where s.id = webhook_deliveries.subscription_id) as secret`;

/** SQLite: the chosen deliveries leased and returned; values: locked_until, lease_token, then the ids. */
export const leaseText = (engine: Engine, ids: number) =>
  text(
    engine,
    `lease:${ids}`,
    () => `update webhook_deliveries set locked_until = ?, lease_token = ?
      where id in (${list(ids, '?')})
      returning ${CLAIMED}`,
  );

/**
 * PostgreSQL's claim as the end of one statement (after `with `, or after the recording CTEs): the
 * due candidates locked (several workers may sweep at once: each skips the rows another is
 * claiming), ranked within their subscription after what this worker already has in flight for
 * it, the first `limit` within the share leased and returned. The same choice as SQLite's loop
 * (deliveries.ts), made in the database. Values: each busy subscription's id and count, the due
 * time twice, the candidates' limit, the share, the limit, locked_until, lease_token.
 *
 * The candidates' limit is a subquery so that no plan knows its value. A prepared statement's first
 * five runs are planned with their values: with statistics from before a burst filled the queue
 * (the table's are refreshed only by autovacuum's analyze), a known limit larger than the
 * pending rows PostgreSQL expects made it read every pending delivery through a bitmap and sort
 * them (2.4–3 ms a write, against 0.8 ms walking the due index in order). A limit it cannot see is
 * taken as a tenth of the rows, which the ordered index walk serves best however stale the statistics
 * (docs/performance.md, "Fewer statement shapes on PostgreSQL").
 */
const claimTail = (busy: number) => {
  const inFlight =
    busy === 0
      ? 'select 0 as subscription_id, 0 as n where false'
      : `values ${list(busy, '(cast(? as integer), cast(? as integer))')}`;
  return `busy (subscription_id, n) as (${inFlight}),
    candidates as (
      select id, subscription_id, next_attempt_at from webhook_deliveries ${DUE}
      limit (select cast(? as integer))
      for update skip locked
    ),
    ranked as (
      select c.id, c.next_attempt_at,
        row_number() over (partition by c.subscription_id order by c.next_attempt_at, c.id) + coalesce(b.n, 0) as slot
      from candidates c left join busy b on b.subscription_id = c.subscription_id
    ),
    chosen as (
      select id from ranked where slot <= cast(? as integer) order by next_attempt_at, id limit cast(? as integer)
    )
  update webhook_deliveries
  set locked_until = ?, lease_token = ?
  where id in (select id from chosen)
  returning ${CLAIMED}`;
};

/** PostgreSQL: the recording of `outcomes` (none: the claim alone) and the claim, one statement. */
export const recordAndClaimText = (engine: Engine, outcomes: number, busy: number) =>
  text(
    engine,
    `record-claim:${outcomes}:${busy}`,
    () => `${outcomes > 0 ? `${recordingCtes(outcomes)}, ` : 'with '}${claimTail(busy)}`,
  );
