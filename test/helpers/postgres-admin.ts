// What the PostgreSQL test runs do to whole databases: make one (empty, or a copy of a template),
// name it in a URL, and drop it. Each test file gets a database of its own, copied from the one
// template the run migrated (postgres-template.ts), instead of a schema it migrates itself.
import pg from 'pg';

/** `url` with its database replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on `url`'s database from a short-lived connection. */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** "database is being accessed by other users": a pool just closed leaves its backends exiting for a moment. */
const OBJECT_IN_USE = '55006';

/**
 * Runs `statement` until no other session is on the database it names: CREATE DATABASE … TEMPLATE
 * and DROP DATABASE both refuse while one is, and the pool that last used it may still be
 * leaving. Gives up after about five seconds.
 */
export async function whenUnused(url: string, statement: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await adminQuery(url, statement);
    } catch (err) {
      if ((err as { code?: string }).code !== OBJECT_IN_USE || attempt >= 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
