// Named PostgreSQL statements stay bounded per connection (src/db/pg-prepared.ts): every length of
// an IN (…) list is a new SQL text, so without a cap a connection would keep a prepared statement
// for each one for its whole life. One connection, so pg_prepared_statements (per session) shows
// all of them. PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '#db/database.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

const POSTGRES = !!process.env.DATABASE_URL?.startsWith('postgres');
const CAP = 20;

describe.runIf(POSTGRES)('named statements on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let capped: Database;
  beforeAll(async () => {
    fresh = await freshDatabase();
    capped = openDatabase(fresh.url, {
      schema: fresh.database.schema,
      poolSize: 1,
      maxNamedStatements: CAP,
    });
    await capped.db
      .insertInto('firms')
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          name: `Firm ${i}`,
          plan: 'gold',
          subscription_status: 'active',
          timezone: 'UTC',
          settings: '{}',
          job_types: '[]',
          divisions: '[]',
          owner_user_id: null,
          next_job_number: 1,
          created_at: '2026-01-01T00:00:00.000000',
          updated_at: '2026-01-01T00:00:00.000000',
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await capped.close();
    await fresh.drop();
  });

  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  const firmsIn = (db: Database['db'], n: number) =>
    db.selectFrom('firms').select('id').where('id', 'in', ids(n)).orderBy('id').execute();
  const prepared = async () =>
    (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(capped.db)).rows.map((r) => r.name);

  it('200 IN-list lengths leave at most the cap prepared, and every query still answers right', async () => {
    for (let n = 1; n <= 200; n++) expect((await firmsIn(capped.db, n)).length).toBe(Math.min(n, 5));
    const names = await prepared();
    // The cap, plus the query reading pg_prepared_statements itself.
    expect(names.length).toBeLessThanOrEqual(CAP + 1);
    expect(names.length).toBeGreaterThan(1);
    expect(names.every((n) => n.startsWith('gw_'))).toBe(true);
    // A length whose statement was deallocated is prepared again; a recent one is reused.
    expect((await firmsIn(capped.db, 3)).map((r) => r.id)).toEqual([1, 2, 3]);
    expect((await firmsIn(capped.db, 200)).length).toBe(5);
  });

  it('inside one transaction too, and after it the connection is back under the cap', async () => {
    await capped.db.transaction().execute(async (trx) => {
      for (let n = 201; n <= 300; n++) expect((await firmsIn(trx, n)).length).toBe(5);
      // Still in the transaction, earlier statements are kept: nothing is deallocated under a caller.
      expect((await firmsIn(trx, 201)).length).toBe(5);
    });
    expect((await prepared()).length).toBeLessThanOrEqual(CAP + 1);
  });

  it('unprepared statements are planned with their values and share the pool: none is named', async () => {
    const before = await prepared();
    for (let i = 0; i < 8; i++) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from firms where id between ${1} and ${3}`.execute(
        capped.unprepared,
      );
      expect(rows[0]!.n).toBe(3);
    }
    // Eight runs of one text on the pool's one connection, yet no statement of it was prepared: each
    // run was planned afresh (a named one would have settled on a generic plan after five).
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from pg_prepared_statements where statement like ${'%between $1 and $2%'}`.execute(
      capped.db,
    );
    expect(rows[0]!.n).toBe(0);
    // The same connection checked out by `db` again names its statements.
    expect((await capped.db.selectFrom('firms').select('name').where('id', '=', 4).execute()).length).toBe(1);
    const after = await prepared();
    expect(after.filter((n) => !before.includes(n)).length).toBeGreaterThanOrEqual(1);
  });

  it('connections run without JIT, in their schema (database.ts)', async () => {
    const { rows } = await sql<{
      jit: string;
      schema: string;
    }>`select current_setting('jit') as jit, current_schema() as schema`.execute(capped.unprepared);
    expect(rows[0]).toEqual({ jit: 'off', schema: fresh.database.schema });
  });

  it('a failed statement neither breaks the connection nor the count', async () => {
    await expect(sql`select nope from firms where id in (${sql.join([1, 2])})`.execute(capped.db)).rejects.toThrow();
    await expect(
      capped.db.transaction().execute(async (trx) => {
        await firmsIn(trx, 2);
        await sql`select 1/0 where 1 in (${sql.join([1, 2, 3, 4])})`.execute(trx);
      }),
    ).rejects.toThrow();
    for (let n = 301; n <= 340; n++) expect((await firmsIn(capped.db, n)).length).toBe(5);
    expect((await prepared()).length).toBeLessThanOrEqual(CAP + 1);
  });
});
