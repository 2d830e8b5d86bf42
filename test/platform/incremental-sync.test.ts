// Document 1, convention 9: the incremental-sync recipe finishes and returns every row once on every
// list that takes updated_after, also when more rows than limit changed within one second (the wire
// shows most updated_at values to the second). The clock is paused so that "within one second" is
// certain rather than likely. Rules: platform/sync.ts and docs/api-decisions.md.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job } from '#test/helpers/records.ts';
import { expectSyncRecipe } from '#test/helpers/sync.ts';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());
afterEach(() => resumeClock());

const N = 5;
const LIMIT = 2;

/** Writes `N` records within one paused second, then lets that second end. */
async function inOneSecond(create: (i: number) => Promise<number>): Promise<number[]> {
  pauseClock();
  const ids: number[] = [];
  for (let i = 0; i < N; i++) ids.push(await create(i));
  advanceClock(1000);
  return ids;
}

async function created(res: Promise<{ status: number; body: any }>): Promise<number> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return (r.body.data ?? r.body).id;
}

// One list per row: how to write a record of it, and how its wire shows updated_at.
const lists: {
  name: string;
  path: (w: Workspace, parent: Parents) => string;
  create: (w: Workspace, parent: Parents, i: number) => Promise<number>;
  wire: RegExp;
}[] = [];
interface Parents {
  jobId: number;
  accountId: number;
}
const SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
lists.push(
  {
    name: 'contacts',
    wire: SECONDS,
    path: () => '/v1/contacts',
    create: (w, _p, i) => created(w.api.post('/v1/contacts', { name: `Person ${i}` })),
  },
  {
    name: 'estimates',
    wire: SECONDS,
    path: (_w, p) => `/v1/estimates?job_id=${p.jobId}`,
    create: (w, p) => created(w.api.post('/v1/estimates', { job_id: p.jobId })),
  },
  {
    name: 'tasks',
    wire: SECONDS,
    path: (_w, p) => `/v1/tasks?status=all&job_id=${p.jobId}`,
    create: (w, p, i) => created(w.api.post('/v1/tasks', { job_id: p.jobId, title: `Call ${i}` })),
  },
  {
    name: 'account tasks',
    wire: SECONDS,
    path: (_w, p) => `/v1/account-tasks?status=all&client_account_id=${p.accountId}`,
    create: (w, p) => created(w.api.post('/v1/account-tasks', { client_account_id: p.accountId })),
  },
  {
    name: 'activities',
    wire: SECONDS,
    path: (_w, p) => `/v1/activities?client_account_id=${p.accountId}`,
    create: (w, p, i) =>
      created(
        w.api.post('/v1/activities', {
          type: 'note',
          body: `Note ${i}`,
          associations: { client_account_id: p.accountId },
        }),
      ),
  },
  {
    name: 'jobs',
    wire: MICROS,
    path: () => '/v1/jobs',
    create: (w, _p, i) => created(w.api.post('/v1/jobs', { name: `Sync job ${i}` })),
  },
);

describe('the recipe with more rows than limit changed within one second', () => {
  for (const list of lists) {
    it(`${list.name}: finishes and returns every row exactly once`, async () => {
      const w = await t.workspace();
      const parents =
        list.name === 'jobs'
          ? { jobId: 0, accountId: 0 }
          : { jobId: (await job(w)).id, accountId: (await account(w)).id };
      const ids = await inOneSecond((i) => list.create(w, parents, i));
      const pull = await expectSyncRecipe(w.api, list.path(w, parents), { limit: LIMIT, expectIds: ids });
      for (const row of pull.rows) expect(row.updated_at).toMatch(list.wire);
      if (list.wire === SECONDS) {
        // All N rows show one updated_at: the first page takes that whole second.
        expect(new Set(pull.rows.map((r) => r.updated_at)).size).toBe(1);
        expect(pull.pageSizes).toEqual([N, 0]);
      }
      // Nothing changed since: sending back the cursor answers an empty page.
      const path = list.path(w, parents);
      const again = await w.api.get(
        `${path}${path.includes('?') ? '&' : '?'}updated_after=${encodeURIComponent(pull.cursor)}`,
      );
      expect(again.body.data).toEqual([]);
    });
  }

  it('contacts: a later second pulls only what changed after the saved cursor', async () => {
    const w = await t.workspace();
    const first = await inOneSecond((i) => created(w.api.post('/v1/contacts', { name: `First ${i}` })));
    const pull = await expectSyncRecipe(w.api, '/v1/contacts', { limit: LIMIT, expectIds: first });
    const second = await inOneSecond((i) => created(w.api.post('/v1/contacts', { name: `Second ${i}` })));
    await w.api.patch(`/v1/contacts/${first[0]}`, { title: 'Changed' });
    advanceClock(1000);
    await expectSyncRecipe(w.api, '/v1/contacts', {
      limit: LIMIT,
      expectIds: [...second, first[0]!],
      since: pull.cursor,
    });
  });
});

describe('updated_after on lists shown to the second', () => {
  it('a whole second means after that second; a fraction compares to the microsecond', async () => {
    const w = await t.workspace();
    pauseClock();
    const a = await created(w.api.post('/v1/contacts', { name: 'Early in the second' }));
    advanceClock(500);
    const b = await created(w.api.post('/v1/contacts', { name: 'Late in the second' }));
    advanceClock(1000);
    const shown = (await w.api.get(`/v1/contacts/${a}`)).body.data.updated_at as string;
    const ids = async (after: string) =>
      (await w.api.get(`/v1/contacts?updated_after=${encodeURIComponent(after)}`)).body.data.map((c: any) => c.id);
    expect(await ids(shown)).toEqual([]);
    expect(await ids(shown.replace('Z', '.000Z'))).toEqual([]);
    expect(await ids(shown.replace('Z', '.25Z'))).toEqual([b]);
    const secondBefore = new Date(Date.parse(shown) - 1000).toISOString().replace('.000Z', 'Z');
    expect(await ids(secondBefore)).toEqual([a, b]);
  });

  it('rows of the second still running wait until it ends, so a later write in it is never skipped', async () => {
    const w = await t.workspace();
    const early = await inOneSecond((i) => created(w.api.post('/v1/contacts', { name: `Earlier ${i}` })));
    pauseClock();
    const a = await created(w.api.post('/v1/contacts', { name: 'Written while syncing' }));
    // The client pulls in the middle of the second: it sees the earlier second only.
    const pull = await expectSyncRecipe(w.api, '/v1/contacts', { limit: LIMIT, expectIds: early });
    const list = await w.api.get('/v1/contacts?updated_after=2000-01-01');
    expect(list.body.pagination.total).toBe(N);
    advanceClock(300);
    const b = await created(w.api.post('/v1/contacts', { name: 'Later in the same second' }));
    advanceClock(1000);
    await expectSyncRecipe(w.api, '/v1/contacts', { limit: LIMIT, expectIds: [a, b], since: pull.cursor });
  });
});
