// PostgreSQL plans an unnamed statement on every call; for the API's joined reads planning costs
// several times the execution. Giving each distinct SQL text a name makes pg prepare it once per
// connection and reuse the plan. Kysely calls `client.query(text, values)`; the pool handed to it
// turns those calls into named ones. The names derive from the text, so they are stable.
//
// A prepared statement lives as long as its connection, and texts are not a closed set: an
// `IN (…)` list or a multi-row insert is a new text for every length. So, like the SQLite side
// (sqlite-statements.ts), each connection keeps at most `max` of them: the least recently used
// are deallocated when the connection goes back to the pool, outside any transaction, so a
// DEALLOCATE can neither abort a caller's transaction nor race a query of it still waiting in the
// connection's queue.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statements kept per connection: the API's hot texts are a few hundred; each plan costs the backend memory. */
export const MAX_NAMED_STATEMENTS = 500;

const NAMED = Symbol('groundwork.namedStatements');

/** Names already worked out, by text: hashing the text on every call cost about 2% of a read's CPU. */
const names = new Map<string, string>();
/** Texts whose names are kept; past this the map starts again (texts are not a closed set). */
const NAMES_KEPT = 5000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = 'gw_' + createHash('sha1').update(text).digest('hex').slice(0, 24);
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(text, name);
  }
  return name;
}

type Query = (...args: unknown[]) => unknown;
/** pg's record of the statements this connection has prepared (name → text); it skips Parse for those. */
type Parsed = Record<string, string>;

interface Tagged {
  /** `naming`: whether this checkout names its statements (Database.unprepared's checkouts do not). */
  [NAMED]?: { recent: Map<string, true>; naming: boolean };
}

function parsedOf(client: pg.PoolClient): Parsed | undefined {
  const parsed = (client as unknown as { connection?: { parsedStatements?: unknown } }).connection?.parsedStatements;
  return parsed && typeof parsed === 'object' ? (parsed as Parsed) : undefined;
}

function nameStatements(client: pg.PoolClient, max: number): pg.PoolClient {
  const tagged = client as pg.PoolClient & Tagged;
  // Without pg's record of prepared names nothing could be deallocated safely: leave statements unnamed.
  if (!parsedOf(client)) return client;
  if (!tagged[NAMED]) {
    // Names in use order, oldest first (a Map keeps insertion order; a use re-inserts).
    const recent = new Map<string, true>();
    const state = { recent, naming: true };
    tagged[NAMED] = state;
    const query = client.query.bind(client) as Query;
    (client as unknown as { query: Query }).query = (first: unknown, ...rest: unknown[]) => {
      if (!state.naming || typeof first !== 'string' || !Array.isArray(rest[0]) || rest.length !== 1)
        return query(first, ...rest);
      const name = nameOf(first);
      recent.delete(name);
      recent.set(name, true);
      return query({ name, text: first, values: rest[0] });
    };
  }
  tagged[NAMED].naming = true;
  // pg-pool hands every checkout a fresh release(); prune just before it runs.
  const release = client.release.bind(client) as (err?: Error | boolean) => void;
  client.release = (err?: Error | boolean) => {
    if (!err) prune(client, max);
    release(err);
  };
  return client;
}

/** Deallocates the least recently used statements beyond `max` (queued ahead of the next checkout's queries). */
function prune(client: pg.PoolClient, max: number): void {
  const { recent } = (client as pg.PoolClient & Tagged)[NAMED]!;
  if (recent.size <= max) return;
  const parsed = parsedOf(client)!;
  // A text whose Parse failed was never prepared.
  for (const name of recent.keys()) if (parsed[name] === undefined) recent.delete(name);
  for (const name of recent.keys()) {
    if (recent.size <= max) break;
    recent.delete(name);
    // The callback runs before pg sends the next queued query, so no later query skips its Parse
    // for a name the server no longer has. A failed DEALLOCATE leaves pg's record, which stays true.
    (client.query as unknown as Query)(`DEALLOCATE "${name}"`, (err: unknown) => {
      if (!err) delete parsed[name];
    });
  }
}

export function poolWithNamedStatements(pool: pg.Pool, max = MAX_NAMED_STATEMENTS) {
  return {
    async connect() {
      return nameStatements(await pool.connect(), max);
    },
    end() {
      return pool.end();
    },
  };
}

/**
 * The same pool for statements planned with their values on every run (Database.unprepared): a
 * connection the named pool has set up sends this checkout's statements unnamed.
 */
export function poolWithUnnamedStatements(pool: pg.Pool) {
  return {
    async connect() {
      const client = await pool.connect();
      const state = (client as pg.PoolClient & Tagged)[NAMED];
      if (state) state.naming = false;
      return client;
    },
    end() {
      return pool.end();
    },
  };
}
