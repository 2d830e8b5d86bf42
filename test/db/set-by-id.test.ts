// Many rows' text column set in one statement (src/db/set-by-id.ts): each row gets its own value,
// null included; rows not named keep theirs; more rows than one statement carries are all set; an
// empty list writes nothing. Both engines.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setTextById } from '#db/set-by-id.ts';
import { freshDatabase } from '#test/helpers/harness.ts';

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
const ids: number[] = [];

beforeAll(async () => {
  fresh = await freshDatabase();
  const t = '2026-01-01T00:00:00.000000';
  const rows = await fresh.database.db
    .insertInto('firms')
    .values(
      Array.from({ length: 1000 }, (_, i) => ({
        name: `Firm ${i}`,
        plan: 'gold' as const,
        subscription_status: 'active' as const,
        timezone: 'UTC',
        settings: '{}',
        job_types: '[]',
        divisions: '[]',
        owner_user_id: null,
        next_job_number: 1000,
        created_at: t,
        updated_at: t,
      })),
    )
    .returning('id')
    .execute();
  ids.push(...rows.map((r) => r.id));
});
afterAll(() => fresh.drop());

const zones = async () =>
  new Map(
    (await fresh.database.db.selectFrom('firms').select(['id', 'timezone']).execute()).map((r) => [r.id, r.timezone]),
  );

it('sets each named row its own value and leaves the others', async () => {
  // 900 rows: more than one statement's share, so the rows are set in several statements.
  const named = ids.slice(0, 900).map((id, i) => ({ id, value: i % 2 === 0 ? 'America/Chicago' : `Zone/${i}` }));
  await setTextById(fresh.database.db, 'firms', 'timezone', named);
  const after = await zones();
  for (const { id, value } of named) expect(after.get(id)).toBe(value);
  for (const id of ids.slice(900)) expect(after.get(id)).toBe('UTC');
});

it('writes nothing for no rows, and takes a value with quotes as it is', async () => {
  await setTextById(fresh.database.db, 'firms', 'timezone', []);
  await setTextById(fresh.database.db, 'firms', 'timezone', [{ id: ids[999], value: 'O\'Brien\'s "zone"' }]);
  const after = await zones();
  expect(after.get(ids[999])).toBe('O\'Brien\'s "zone"');
  expect(after.get(ids[998])).toBe('UTC');
});
