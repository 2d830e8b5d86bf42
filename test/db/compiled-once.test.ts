// A query compiled once (src/db/compiled-once.ts) answers as the same query built on every call:
// number and string parameters substituted in every place they are bound (a time zone, a number bound
// twice), and a builder that changes a value before binding it (lower-cased here) is
// refused at once, since its stand-in would be sent instead of the value. A read made while
// another caller's transaction is open never sees that transaction's writes (on SQLite such a
// read waits for it: db/direct-read.ts). Both engines.
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '#db/compiled-once.ts';
import type { DB } from '#db/tables.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;

/** A firms row: the table every database has, whatever areas are installed. */
const firm = (name: string, timezone: string, nextJobNumber: number): Insertable<DB['firms']> => ({
  name,
  plan: 'gold',
  subscription_status: 'active',
  timezone,
  settings: '{}',
  job_types: '[]',
  divisions: '[]',
  owner_user_id: null,
  next_job_number: nextJobNumber,
  created_at: '2026-01-01T00:00:00.000000',
  updated_at: '2026-01-01T00:00:00.000000',
});

beforeAll(async () => {
  fresh = await freshDatabase();
  await fresh.database.db
    .insertInto('firms')
    .values(['Alpha', 'Beta', 'Gamma'].map((name, i) => firm(name, i === 1 ? 'America/Chicago' : 'UTC', 10 * (i + 1))))
    .execute();
});
afterAll(() => fresh.drop());

const byZone = compiledOnce((db, zone: string, above: number, limit: number) =>
  db
    .selectFrom('firms')
    .select(['name', 'next_job_number'])
    .where('timezone', '=', zone)
    .where((eb) => eb.or([eb('next_job_number', '>', above), eb('next_job_number', '=', above)]))
    .orderBy('id')
    .limit(limit),
);

describe('compiledOnce', () => {
  it('substitutes string and number parameters, each wherever it is bound', async () => {
    const { db } = fresh.database;
    expect(await byZone(db, 'UTC', 10, 5)).toEqual([
      { name: 'Alpha', next_job_number: 10 },
      { name: 'Gamma', next_job_number: 30 },
    ]);
    // The second call runs the kept compilation with other values.
    expect(await byZone(db, 'UTC', 11, 5)).toEqual([{ name: 'Gamma', next_job_number: 30 }]);
    expect(await byZone(db, 'America/Chicago', 0, 1)).toEqual([{ name: 'Beta', next_job_number: 20 }]);
    expect(await byZone(db, 'UTC', 0, 1)).toEqual([{ name: 'Alpha', next_job_number: 10 }]);
  });

  it('refuses a builder that binds a changed value rather than send its stand-in', async () => {
    const lowered = compiledOnce((db, zone: string) =>
      db.selectFrom('firms').select('name').where('timezone', '=', zone.toLowerCase()),
    );
    await expect(lowered(fresh.database.db, 'utc')).rejects.toThrow('parameter 0 is not bound as given');
  });

  it('never sees the writes of a transaction still open beside it', async () => {
    const { db } = fresh.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('firms')
          .values(firm('Uncommitted', 'Europe/Oslo', 1))
          .execute();
        inserted();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await written;
    // Made while the transaction holds its row: on SQLite it waits for the connection.
    const during = byZone(db, 'Europe/Oslo', 0, 5);
    release();
    expect(await during).toEqual([]);
    expect(await rolledBack).toBe('rolled back');
    expect(await byZone(db, 'Europe/Oslo', 0, 5)).toEqual([]);
  });
});
