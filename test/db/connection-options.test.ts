// The settings every PostgreSQL connection starts with (src/db/database.ts, connectionOptions): JIT
// and parallel plans off, and the operator's PGOPTIONS after ours, so any of them can be set back.
// PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '#db/database.ts';
import { envVars } from '#test/helpers/env-vars.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

const POSTGRES = !!process.env.DATABASE_URL?.startsWith('postgres');

describe.runIf(POSTGRES)('PostgreSQL connection settings', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh.drop();
  });
  const set = envVars(['PGOPTIONS']);

  /** jit, max_parallel_workers_per_gather and search_path as a connection of `database` sees them. */
  const settings = async (database: Database) =>
    (
      await sql<{ jit: string; workers: string; path: string }>`select current_setting('jit') as jit,
        current_setting('max_parallel_workers_per_gather') as workers, current_setting('search_path') as path`.execute(
        database.db,
      )
    ).rows[0]!;

  const opened = async (check: (s: Awaited<ReturnType<typeof settings>>) => void) => {
    const database = openDatabase(fresh.url, { schema: fresh.database.schema, poolSize: 1 });
    try {
      check(await settings(database));
    } finally {
      await database.close();
    }
  };

  it('start with JIT and parallel plans off, in the schema asked for', async () => {
    set({});
    await opened((s) => {
      expect(s.jit).toBe('off');
      expect(s.workers).toBe('0');
      expect(s.path).toBe(fresh.database.schema);
    });
  });

  it("take the operator's PGOPTIONS over ours", async () => {
    set({ PGOPTIONS: '-c max_parallel_workers_per_gather=2 -c work_mem=16MB' });
    await opened((s) => {
      expect(s.workers).toBe('2');
      expect(s.jit).toBe('off');
    });
  });
});
