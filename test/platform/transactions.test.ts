// inTransaction (src/platform/context.ts) runs work again only when running it again can succeed:
// a deadlock or serialization failure, or a unique-key race the caller declares (uniqueRace). A
// genuine unique violation is a 409 at once (the caller's own, or a generic one), never three runs
// and a 500, and nothing is saved. What the work asks to do after its commit (db/after-commit.ts)
// runs after the commit, and never for an attempt that rolled back. Against the real database of
// the run, never a mock.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { afterCommit } from '#db/after-commit.ts';
import type { Database } from '#db/database.ts';
import { inTransaction } from '#platform/context.ts';
import { ApiError, conflict } from '#platform/errors.ts';
import { freshDatabase, startApp, type TestApp } from '#test/helpers/harness.ts';

const POSTGRES = !!process.env.DATABASE_URL?.startsWith('postgres');
const T = '2026-01-01T00:00:00.000000';

function deferred<V = void>() {
  let resolve!: (v: V) => void;
  const promise = new Promise<V>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;
let firmId: number;
beforeAll(async () => {
  fresh = await freshDatabase();
  database = fresh.database;
  ({ id: firmId } = await database.db
    .insertInto('firms')
    .values({
      name: 'Tx',
      plan: 'gold',
      subscription_status: 'active',
      timezone: 'UTC',
      settings: '{}',
      job_types: '[]',
      divisions: '[]',
      owner_user_id: null,
      next_job_number: 1,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow());
});
afterAll(() => fresh.drop());

const stage = (key: string) => ({
  firm_id: firmId,
  key,
  label: key,
  type: 'open' as const,
  position: 1,
  is_completed: 0 as const,
  created_at: T,
});
const stageRow = (key: string) =>
  database.db
    .selectFrom('job_stages')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('key', '=', key)
    .executeTakeFirst();
const countStages = async () =>
  (await database.db.selectFrom('job_stages').select('id').where('firm_id', '=', firmId).execute()).length;

describe('inTransaction and unique violations', () => {
  it("a genuine unique violation runs once and is a 409; the transaction's other writes are gone", async () => {
    await database.db.insertInto('job_stages').values(stage('taken')).execute();
    const before = await countStages();
    let runs = 0;
    const err = await inTransaction(database, async (trx) => {
      runs++;
      await trx
        .insertInto('job_stages')
        .values(stage(`fresh-${runs}`))
        .execute();
      await trx.insertInto('job_stages').values(stage('taken')).execute();
    }).catch((e: unknown) => e);
    expect(runs).toBe(1);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).body).toMatchObject({ code: 'unique_violation' });
    expect(await countStages()).toBe(before);
  });

  it('the caller says what it means', async () => {
    const err = await inTransaction(
      database,
      async (trx) => {
        await trx.insertInto('job_stages').values(stage('taken')).execute();
      },
      { onUniqueViolation: () => conflict('Stage key already used', { key: 'taken' }) },
    ).catch((e: unknown) => e);
    expect((err as ApiError).body).toEqual({ error: 'Stage key already used', key: 'taken' });
  });

  it("uniqueRace: a look-up that was stale runs again and finds the winner's row", async () => {
    await database.db.insertInto('job_stages').values(stage('won-by-other')).execute();
    const winner = (await stageRow('won-by-other'))!;
    let runs = 0;
    const result = await inTransaction(
      database,
      async (trx) => {
        runs++;
        // The first run's look-up happened before the other writer committed: it saw nothing.
        const found =
          runs === 1
            ? undefined
            : await trx
                .selectFrom('job_stages')
                .select('id')
                .where('firm_id', '=', firmId)
                .where('key', '=', 'won-by-other')
                .executeTakeFirst();
        if (found) return found.id;
        await trx.insertInto('job_stages').values(stage('won-by-other')).execute();
        return -1;
      },
      { uniqueRace: true },
    );
    expect([runs, result]).toEqual([2, winner.id]);
  });

  it.runIf(POSTGRES)(
    "PostgreSQL, a real race: the loser's insert fails after the winner commits, and its second run finds the row",
    async () => {
      const looked = deferred();
      const go = deferred();
      let runs = 0;
      const loser = inTransaction(
        database,
        async (trx) => {
          runs++;
          const found = await trx
            .selectFrom('job_stages')
            .select('id')
            .where('firm_id', '=', firmId)
            .where('key', '=', 'raced')
            .executeTakeFirst();
          if (found) return `found ${found.id}`;
          if (runs === 1) {
            looked.resolve();
            await go.promise;
          }
          await trx.insertInto('job_stages').values(stage('raced')).execute();
          return 'inserted';
        },
        { uniqueRace: true },
      );
      await looked.promise;
      const { id } = await database.db
        .insertInto('job_stages')
        .values(stage('raced'))
        .returning('id')
        .executeTakeFirstOrThrow();
      go.resolve();
      expect(await loser).toBe(`found ${id}`);
      expect(runs).toBe(2);
    },
  );
});

describe('afterCommit: work for after the commit', () => {
  it('runs once the transaction has committed, when another connection sees its writes', async () => {
    const seen: (string | undefined)[] = [];
    let ranInside = false;
    await inTransaction(database, async (trx) => {
      await trx.insertInto('job_stages').values(stage('after-commit')).execute();
      afterCommit(trx, () => {
        ranInside = true;
      });
      afterCommit(trx, () => {
        // Read through the database, not the transaction: on PostgreSQL another pooled connection.
        void stageRow('after-commit').then((row) => seen.push(row?.key));
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ranInside).toBe(false);
    });
    expect(ranInside).toBe(true);
    await vi.waitFor(() => expect(seen).toEqual(['after-commit']));
  });

  it('never for an attempt that rolled back, and once for the attempt that committed', async () => {
    await database.db.insertInto('job_stages').values(stage('rolled-back')).execute();
    const calls: number[] = [];
    let runs = 0;
    await inTransaction(
      database,
      async (trx) => {
        runs++;
        afterCommit(trx, () => calls.push(runs));
        if (runs === 1) await trx.insertInto('job_stages').values(stage('rolled-back')).execute();
      },
      { uniqueRace: true },
    );
    expect(calls).toEqual([2]);

    const failed = await inTransaction(database, async (trx) => {
      afterCommit(trx, () => calls.push(-1));
      throw new Error('no');
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual([2]);
  });

  it('outside a transaction the statement has committed already: the callback runs at once', async () => {
    let ran = false;
    afterCommit(database.db, () => {
      ran = true;
    });
    await Promise.resolve();
    expect(ran).toBe(true);
  });
});

describe('callers that upsert without the workspace lock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('concurrent admin calls adding one stage key: one 201, the rest its 409 (never a 500)', async () => {
    const w = await t.workspace();
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
          key: 'estimating',
          label: 'Estimating',
          type: 'open',
        }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of replies.filter((x) => x.status === 409))
      expect(r.body).toMatchObject({ error: 'Stage key already used', key: 'estimating' });
  });
});
