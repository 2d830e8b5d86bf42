// The feed's promise under concurrent writers: a reader that resumes with after=<last id seen>
// never misses an event, because no event can commit later with an id below one already read.
// Ids come from one sequence; on PostgreSQL two transactions can take ids in one order and commit
// in the other, so events/record.ts makes every feed-event transaction lock its workspace row
// first (holdFeedOrder) and hold it to commit. On SQLite writers are serialised anyway; the
// lighter run there checks the same invariant.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '#events/record.ts';
import { now } from '#platform/time.ts';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

const POSTGRES = !!process.env.DATABASE_URL?.startsWith('postgres');

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function feedIds(firmId: number): Promise<number[]> {
  const rows = await t.database.db
    .selectFrom('events')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('in_feed', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

async function idOf(eventId: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('events')
    .select('id')
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A feed event that belongs to no job (no subscription receives it here, so nothing is queued). */
const businessEvent = (firmId: number, n: number) => ({
  firmId,
  type: 'estimate_created',
  entity: { type: 'estimate', id: n },
  jobId: null,
  inFeed: true,
  data: { estimate_id: n, status: 'draft', is_change_order: false, parent_estimate_id: null },
});

/** A feed reader: pages from its cursor, keeps every item it was given. */
class Reader {
  after = 0;
  readonly seen: { id: number; event_id: string }[] = [];
  pages = 0;
  constructor(
    private readonly api: Client,
    private readonly limit: number,
  ) {}

  /** One page; true when the feed said more follow. */
  async page(): Promise<boolean> {
    const res = await this.api.get(`/v1/events?after=${this.after}&limit=${this.limit}`);
    if (res.status !== 200) throw new Error(`feed read ${res.status}: ${JSON.stringify(res.body)}`);
    this.pages++;
    for (const e of res.body.data) this.seen.push({ id: e.id, event_id: e.event_id });
    this.after = res.body.pagination.next_after;
    return res.body.pagination.has_more;
  }

  async drain(): Promise<void> {
    while (await this.page()) {
      /* until has_more is false */
    }
  }
}

function expectExactlyOnceInOrder(reader: Reader, expected: number[], label: string): void {
  const ids = reader.seen.map((e) => e.id);
  for (let i = 1; i < ids.length; i++) {
    if (ids[i]! <= ids[i - 1]!) throw new Error(`${label}: id ${ids[i]} after ${ids[i - 1]} (position ${i})`);
  }
  const seen = new Set(ids);
  const missed = expected.filter((id) => !seen.has(id));
  expect(missed, `${label} missed ${missed.length} of ${expected.length} feed events`).toEqual([]);
  expect(ids.length, `${label} saw an event twice`).toBe(seen.size);
  expect(ids, label).toEqual(expected);
}

describe.runIf(POSTGRES)('feed order on PostgreSQL, step by step', () => {
  it('without the workspace lock a reader can skip an event: a later id commits first (the hazard)', async () => {
    // Plain inserts into events, as a writer that bypassed recordEvent would do.
    const w = await t.workspace();
    const insertRaw = (trx: typeof t.database.db, n: number) =>
      trx
        .insertInto('events')
        .values({
          firm_id: w.firmId,
          event_id: randomUUID(),
          event_type: 'estimate_created',
          in_feed: 1,
          occurred_at: now(),
          created_at: now(),
          entity_type: 'estimate',
          entity_id: n,
          job_id: null,
          data: '{}',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const reader = new Reader(w.api, 50);
    const inserted = deferred<number>();
    const release = deferred();
    const first = t.database.db.transaction().execute(async (trx) => {
      const { id } = await insertRaw(trx as never, 1);
      inserted.resolve(id);
      await release.promise;
    });
    const firstId = await inserted.promise;
    const { id: secondId } = await insertRaw(t.database.db, 2);
    expect(secondId).toBeGreaterThan(firstId);
    await reader.drain();
    expect(reader.seen.map((e) => e.id)).toEqual([secondId]);
    release.resolve();
    await first;
    await reader.drain();
    // firstId is committed below the reader's cursor: it is never seen.
    expect(await feedIds(w.firmId)).toEqual([firstId, secondId]);
    expect(reader.seen.map((e) => e.id)).toEqual([secondId]);
  });

  it('recordEvent makes a second feed writer of the workspace wait for the first to commit', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const reader = new Reader(w.api, 50);
    const inserted = deferred();
    const release = deferred();
    let firstEventId = '';
    const first = t.database.db.transaction().execute(async (trx) => {
      firstEventId = (await recordEvent(trx, businessEvent(w.firmId, 1))).eventId;
      inserted.resolve();
      await release.promise;
    });
    await inserted.promise;

    let secondInserted = false;
    let secondEventId = '';
    const second = t.database.db.transaction().execute(async (trx) => {
      secondEventId = (await recordEvent(trx, businessEvent(w.firmId, 2))).eventId;
      secondInserted = true;
    });
    // Another workspace's feed writer is not held up.
    const elsewhere = await t.database.db
      .transaction()
      .execute((trx) => recordEvent(trx, businessEvent(other.firmId, 3)));
    expect(elsewhere.eventId).toMatch(/-/);
    // A webhook-only event of the same workspace is not held up either.
    await t.database.db.transaction().execute((trx) =>
      recordEvent(trx, {
        firmId: w.firmId,
        type: 'proposal_viewed',
        entity: { type: 'proposal', id: 9 },
        jobId: null,
        inFeed: false,
        data: {},
      }),
    );

    await sleep(300);
    expect(secondInserted).toBe(false);
    await reader.drain();
    expect(reader.seen).toEqual([]);

    release.resolve();
    await first;
    await second;
    expect(secondInserted).toBe(true);
    const firstId = await idOf(firstEventId);
    const secondId = await idOf(secondEventId);
    expect(secondId).toBeGreaterThan(firstId);
    await reader.drain();
    expect(reader.seen.map((e) => e.id)).toEqual([firstId, secondId]);
  });

  it('a rolled-back feed writer releases the lock and leaves no event behind', async () => {
    const w = await t.workspace();
    const reader = new Reader(w.api, 50);
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, businessEvent(w.firmId, 1));
        await sleep(100);
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    const after = await t.database.db.transaction().execute((trx) => recordEvent(trx, businessEvent(w.firmId, 2)));
    await reader.drain();
    expect(reader.seen.map((e) => e.event_id)).toEqual([after.eventId]);
  });
});

/**
 * Writers of one workspace for `ms`: API writers creating, PATCHing and moving jobs (each of those
 * transactions also locks the workspace row on PostgreSQL before it starts), and direct writers
 * that call recordEvent with nothing else holding the order for them, pausing inside the
 * transaction so that, without the lock, a later id would often commit first.
 */
async function runWriters(
  w: Workspace,
  opts: { apiWriters: number; directWriters: number; pauseMs: number },
  running: () => boolean,
) {
  const failures: string[] = [];
  let calls = 0;
  const check = (what: string, res: { status: number; body: unknown }, ok: number[]) => {
    calls++;
    if (!ok.includes(res.status)) failures.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  };
  const statuses = ['active', 'won', 'lost', 'lead', 'won'];
  const apiWriter = async (n: number) => {
    const mine: number[] = [];
    for (let i = 0; running(); i++) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const path = (n + i) % 4;
      if (path === 0 || mine.length === 0) {
        const res = await w.api.post('/v1/jobs', {
          name: `W${n} job ${i}`,
          status: i % 7 === 0 ? 'won' : 'lead',
          allow_duplicate_name: true,
        });
        check('create', res, [201]);
        if (res.status === 201) mine.push((res.body as any).data.id);
      } else if (path === 1) {
        const id = mine[i % mine.length]!;
        check('patch status', await w.api.patch(`/v1/jobs/${id}`, { status: statuses[i % statuses.length] }), [200]);
      } else if (path === 2) {
        const id = mine[(i * 7) % mine.length]!;
        check('move', await w.api.post(`/v1/jobs/${id}/move`, { status: statuses[(i + 2) % statuses.length] }), [200]);
      } else {
        // A detail change: webhook-only, but it commits in between.
        const id = mine[(i * 3) % mine.length]!;
        check('patch notes', await w.api.patch(`/v1/jobs/${id}`, { notes: `note ${n}.${i}` }), [200]);
      }
    }
  };
  const directWriter = async (n: number) => {
    for (let i = 0; running(); i++) {
      try {
        await t.database.db.transaction().execute(async (trx) => {
          await recordEvent(trx, businessEvent(w.firmId, n * 1_000_000 + i));
          if (opts.pauseMs > 0) await sleep(Math.random() * opts.pauseMs);
          await recordEvent(trx, businessEvent(w.firmId, n * 1_000_000 + i));
        });
        calls++;
      } catch (err) {
        failures.push(`direct: ${(err as Error).message}`);
      }
      // Idle briefly between transactions so the API writers get their turns too; at least yield
      // to timers (on SQLite every call resolves without real I/O, and would starve them).
      if (opts.pauseMs > 0) await sleep(Math.random() * opts.pauseMs);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all([
    ...Array.from({ length: opts.apiWriters }, (_, n) => apiWriter(n)),
    ...Array.from({ length: opts.directWriters }, (_, n) => directWriter(n + 1)),
  ]);
  return { failures, calls };
}

interface RunOptions {
  apiWriters: number;
  directWriters: number;
  pauseMs: number;
  /** Writers run at least this long, and on until the workspace has `minEvents` feed events (at most 4x as long). */
  ms: number;
  minEvents: number;
}

async function concurrentRun(opts: RunOptions) {
  const w = await t.workspace();
  // Another workspace written at the same time: its ids interleave with ours in the sequence.
  const other = await t.workspace();
  const readers = [new Reader(w.api, 200), new Reader(w.api, 7)];
  let writing = true;
  const started = Date.now();
  // A hard stop that needs no timer to fire.
  const running = () => writing && Date.now() - started < opts.ms * 4;
  const control = (async () => {
    while (writing) {
      await sleep(100);
      const elapsed = Date.now() - started;
      if (elapsed >= opts.ms * 4 || (elapsed >= opts.ms && (await feedIds(w.firmId)).length >= opts.minEvents))
        writing = false;
    }
  })();
  const readLoops = readers.map(async (r) => {
    while (running()) {
      await r.page();
      await sleep(1);
    }
  });
  const [ours, theirs] = await Promise.all([
    runWriters(w, opts, running),
    runWriters(other, { ...opts, apiWriters: 2, directWriters: 1 }, running),
  ]).finally(() => {
    writing = false;
  });
  await control;
  const writersMs = Date.now() - started;
  await Promise.all(readLoops);
  // Writers have stopped: a final drain reaches the end of the feed.
  for (const r of readers) await r.drain();

  expect(ours.failures).toEqual([]);
  expect(theirs.failures).toEqual([]);
  const expected = await feedIds(w.firmId);
  // The run must actually have been concurrent and long enough to mean something.
  expect(expected.length).toBeGreaterThanOrEqual(Math.min(opts.minEvents, opts.apiWriters * 10));
  for (const [i, r] of readers.entries()) {
    expect(r.pages, `reader ${i} polled while writers ran`).toBeGreaterThan(3);
    expectExactlyOnceInOrder(r, expected, `reader ${i} (limit ${i === 0 ? 200 : 7})`);
  }
  const otherIds = new Set(await feedIds(other.firmId));
  expect(readers[0]!.seen.some((e) => otherIds.has(e.id))).toBe(false);
  return { events: expected.length, calls: ours.calls + theirs.calls, ms: writersMs };
}

describe('feed readers under concurrent writers', () => {
  it.skipIf(!POSTGRES)(
    'PostgreSQL: 8 API writers and 3 direct recordEvent writers in one workspace; readers polling the cursor see every feed event once, in order',
    async () => {
      await concurrentRun({ apiWriters: 8, directWriters: 3, pauseMs: 4, ms: 4000, minEvents: 400 });
    },
    90_000,
  );

  it.skipIf(POSTGRES)(
    'SQLite: the same invariant with a lighter load',
    async () => {
      await concurrentRun({ apiWriters: 4, directWriters: 2, pauseMs: 0, ms: 1500, minEvents: 200 });
    },
    60_000,
  );
});
