// PostgreSQL plans an unnamed statement on every call; for the API's joined reads planning costs
// several times the execution. Giving each distinct SQL text a name makes pg prepare it once per
// connection and reuse the plan. Kysely calls `client.query(text, values)`; the pool handed to it
// turns those calls into named ones. The names derive from the text, so they are stable.
import { createHash } from 'node:crypto';
import type pg from 'pg';

const NAMED = Symbol('groundwork.namedStatements');

function nameOf(text: string): string {
  return 'gw_' + createHash('sha1').update(text).digest('hex').slice(0, 24);
}

function nameStatements(client: pg.PoolClient): pg.PoolClient {
  const tagged = client as pg.PoolClient & { [NAMED]?: true };
  if (tagged[NAMED]) return client;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (first: unknown, ...rest: unknown[]) =>
    typeof first === 'string' && Array.isArray(rest[0]) && rest.length === 1
      ? query({ name: nameOf(first), text: first, values: rest[0] })
      : query(first, ...rest);
  tagged[NAMED] = true;
  return client;
}

export function poolWithNamedStatements(pool: pg.Pool) {
  return {
    async connect() {
      return nameStatements(await pool.connect());
    },
    end() {
      return pool.end();
    },
  };
}
