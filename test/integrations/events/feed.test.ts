// GET /v1/events (document 1, Events; the cursor names and the envelope are ours,
// docs/api-decisions.md): the workspace's feed events after a cursor, oldest first. The feed holds
// the raw job events job_created and job_status_changed and every business event; the
// webhook-only job events (job_updated and the webhook twins of job_created / job_status_changed)
// are not in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Client, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const ITEM_KEYS = ['id', 'event_id', 'event_type', 'occurred_at', 'entity', 'data', 'job_id'].sort();
const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function job(w: Workspace | { api: Client }, body: Record<string, unknown>) {
  const res = await w.api.post('/v1/jobs', { allow_duplicate_name: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; status: string };
}

async function move(w: Workspace, id: number, status: string) {
  const res = await w.api.post(`/v1/jobs/${id}/move`, { status });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Every feed item the client sees, paging with next_after. */
async function readAll(api: Client, limit = 50, query = ''): Promise<any[]> {
  const out: any[] = [];
  let after = 0;
  for (let pages = 0; pages < 10_000; pages++) {
    const res = await api.get(`/v1/events?after=${after}&limit=${limit}${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    after = res.body.pagination.next_after;
    if (!res.body.pagination.has_more) return out;
  }
  throw new Error('feed did not end');
}

/** The feed events of a workspace straight from the table, in id order. */
async function feedRows(firmId: number) {
  return t.database.db
    .selectFrom('events')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('in_feed', '=', 1)
    .orderBy('id')
    .execute();
}

describe('GET /v1/events: item and envelope', () => {
  it('returns job_created with the exact item shape and the pagination envelope', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Shape Job' });
    const res = await w.api.get('/v1/events');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
    expect(res.body.data).toHaveLength(1);
    const item = res.body.data[0];
    expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(item).toEqual({
      id: expect.any(Number),
      event_id: expect.stringMatching(UUID),
      event_type: 'job_created',
      occurred_at: expect.stringMatching(Z),
      entity: { type: 'job', id: j.id },
      data: { status: 'lead' },
      job_id: j.id,
    });
    expect(Number.isInteger(item.id)).toBe(true);
    expect(res.body.pagination).toEqual({ after: 0, limit: 50, next_after: item.id, has_more: false });

    // The item matches the stored row (occurred_at cut to the second with Z).
    const [row] = await feedRows(w.firmId);
    expect(row!.id).toBe(item.id);
    expect(row!.event_id).toBe(item.event_id);
    expect(item.occurred_at).toBe(row!.occurred_at.slice(0, 19) + 'Z');
  });

  it('a job_status_changed item carries from_status and to_status', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Mover' });
    await move(w, j.id, 'active');
    const res = await w.api.get('/v1/events');
    expect(res.body.data.map((e: any) => e.event_type)).toEqual(['job_created', 'job_status_changed']);
    const changed = res.body.data[1];
    expect(Object.keys(changed).sort()).toEqual(ITEM_KEYS);
    expect(changed).toMatchObject({
      event_type: 'job_status_changed',
      entity: { type: 'job', id: j.id },
      job_id: j.id,
      data: { from_status: 'lead', to_status: 'active' },
    });
  });
});

describe('what the feed holds', () => {
  it('raw job events and the business events derived from them, never the webhook-only job events', async () => {
    const w = await t.workspace({ job_stages: [{ key: 'done', label: 'Done', type: 'won', completed: true }] });
    const a = await job(w, { name: 'Alpha' });
    // A detail change: webhook-only job_updated, nothing in the feed.
    expect((await w.api.patch(`/v1/jobs/${a.id}`, { notes: 'call first' })).status).toBe(200);
    await move(w, a.id, 'won'); // job_status_changed + job_won
    await move(w, a.id, 'lost'); // job_status_changed + job_cancelled
    const b = await job(w, { name: 'Bravo' });
    await move(w, b.id, 'lost'); // job_status_changed + job_lost
    const c = await job(w, { name: 'Charlie' });
    await move(w, c.id, 'done'); // job_status_changed + job_won + job_completed
    const d = await job(w, { name: 'Delta', status: 'won' }); // job_created + job_won

    const items = await readAll(w.api);
    const summary = items.map((e) => [e.event_type, e.job_id]);
    expect(summary).toEqual([
      ['job_created', a.id],
      ['job_status_changed', a.id],
      ['job_won', a.id],
      ['job_status_changed', a.id],
      ['job_cancelled', a.id],
      ['job_created', b.id],
      ['job_status_changed', b.id],
      ['job_lost', b.id],
      ['job_created', c.id],
      ['job_status_changed', c.id],
      ['job_won', c.id],
      ['job_completed', c.id],
      ['job_created', d.id],
      ['job_won', d.id],
    ]);
    for (const e of items) {
      expect(Object.keys(e).sort()).toEqual(ITEM_KEYS);
      expect(e.event_type).not.toBe('job_updated');
    }

    // Ids strictly increase.
    for (let i = 1; i < items.length; i++) expect(items[i].id).toBeGreaterThan(items[i - 1].id);

    // A derived event keeps its source's occurred_at, points at it, and has a higher id.
    const byEventId = new Map(items.map((e) => [e.event_id, e]));
    const derived = items.filter((e) =>
      ['job_won', 'job_lost', 'job_cancelled', 'job_completed'].includes(e.event_type),
    );
    expect(derived).toHaveLength(6);
    const stored = new Map((await feedRows(w.firmId)).map((r) => [r.event_id, r]));
    for (const e of derived) {
      const source = byEventId.get(e.data.source_event_id);
      expect(source, `${e.event_type} source`).toBeDefined();
      expect(['job_status_changed', 'job_created']).toContain(source.event_type);
      expect(e.occurred_at).toBe(source.occurred_at);
      // Identical to the microsecond in storage, not just on the wire.
      expect(stored.get(e.event_id)!.occurred_at).toBe(stored.get(source.event_id)!.occurred_at);
      expect(e.id).toBeGreaterThan(source.id);
      expect(e.entity).toEqual({ type: 'job', id: e.job_id });
      expect(e.data.to_status).toBe(source.data.to_status ?? source.data.status);
      expect(Object.keys(e.data).sort()).toEqual(['from_status', 'source_event_id', 'to_status']);
    }
    expect(derived.find((e) => e.event_type === 'job_cancelled').data).toMatchObject({
      from_status: 'won',
      to_status: 'lost',
    });
    expect(derived.find((e) => e.event_type === 'job_completed').data).toMatchObject({
      from_status: 'lead',
      to_status: 'done',
    });
    expect(derived.find((e) => e.job_id === d.id).data).toMatchObject({ from_status: null, to_status: 'won' });

    // The webhook-only events exist (the webhook worker delivers them) but none is in the feed.
    const webhookOnly = await t.database.db
      .selectFrom('events')
      .select(['event_id', 'event_type'])
      .where('firm_id', '=', w.firmId)
      .where('in_feed', '=', 0)
      .execute();
    expect(new Set(webhookOnly.map((e) => e.event_type))).toEqual(
      new Set(['job_created', 'job_updated', 'job_status_changed']),
    );
    for (const e of webhookOnly) expect(byEventId.has(e.event_id)).toBe(false);
    // Filtering by a webhook-only name is refused: it never appears in the feed.
    const byName = await w.api.get('/v1/events?event_type=job_updated');
    expect(byName.status).toBe(400);
    expect(byName.body.error).toMatch(/^event_type must be one of job_created, job_status_changed, job_won, /);
  });

  it('event_type and job_id filter the feed', async () => {
    const w = await t.workspace();
    const a = await job(w, { name: 'Filter A' });
    const b = await job(w, { name: 'Filter B' });
    await move(w, a.id, 'won');
    await move(w, b.id, 'won');
    await move(w, b.id, 'lost');

    const won = (await w.api.get('/v1/events?event_type=job_won')).body.data;
    expect(won.map((e: any) => e.job_id)).toEqual([a.id, b.id]);
    const ofB = (await w.api.get(`/v1/events?job_id=${b.id}`)).body.data;
    expect(ofB.map((e: any) => e.event_type)).toEqual([
      'job_created',
      'job_status_changed',
      'job_won',
      'job_status_changed',
      'job_cancelled',
    ]);
    expect(ofB.every((e: any) => e.job_id === b.id)).toBe(true);
    const both = (await w.api.get(`/v1/events?job_id=${b.id}&event_type=job_status_changed`)).body.data;
    expect(both.map((e: any) => e.data.to_status)).toEqual(['won', 'lost']);
    // Paging under a filter: next_after is the last id of the page.
    const page = await w.api.get('/v1/events?event_type=job_created&limit=1');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.pagination).toEqual({ after: 0, limit: 1, next_after: page.body.data[0].id, has_more: true });
    const rest = await w.api.get(`/v1/events?event_type=job_created&limit=1&after=${page.body.pagination.next_after}`);
    expect(rest.body.data.map((e: any) => e.job_id)).toEqual([b.id]);
    expect(rest.body.pagination.has_more).toBe(false);
  });
});

describe('paging with the cursor', () => {
  it('next_after walks every event exactly once, in increasing id order, at any page size', async () => {
    const w = await t.workspace();
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push((await job(w, { name: `Pager ${i}` })).id);
    for (const [i, id] of ids.entries()) {
      if (i % 2 === 0) await move(w, id, 'active');
      if (i % 3 === 0) await move(w, id, 'won');
      if (i % 5 === 0) await move(w, id, 'lost');
    }
    const expected = (await feedRows(w.firmId)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(100);
    for (const limit of [1, 7, 50, 200]) {
      const seen = (await readAll(w.api, limit)).map((e) => e.id);
      expect(seen, `limit ${limit}`).toEqual(expected);
    }
    // Without parameters: the first 50.
    const first = await w.api.get('/v1/events');
    expect(first.body.data.map((e: any) => e.id)).toEqual(expected.slice(0, 50));
    expect(first.body.pagination).toEqual({ after: 0, limit: 50, next_after: expected[49], has_more: true });
  });

  it('after a full read, next_after stays put until something new arrives, then picks it up', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Quiet' });
    const all = await w.api.get('/v1/events?limit=200');
    const last = all.body.pagination.next_after;
    expect(last).toBe(all.body.data.at(-1)!.id);
    for (let i = 0; i < 2; i++) {
      const again = await w.api.get(`/v1/events?after=${last}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        data: [],
        pagination: { after: last, limit: 50, next_after: last, has_more: false },
      });
    }
    // A webhook-only change adds nothing to the feed.
    await w.api.patch(`/v1/jobs/${j.id}`, { notes: 'quiet change' });
    expect((await w.api.get(`/v1/events?after=${last}`)).body.pagination.next_after).toBe(last);
    // A stage change does.
    await move(w, j.id, 'active');
    const fresh = await w.api.get(`/v1/events?after=${last}`);
    expect(fresh.body.data.map((e: any) => e.event_type)).toEqual(['job_status_changed']);
    expect(fresh.body.pagination.next_after).toBe(fresh.body.data[0].id);
    expect(fresh.body.data[0].id).toBeGreaterThan(last);
    // A cursor far ahead is not an error: nothing after it.
    const ahead = await w.api.get('/v1/events?after=999999999');
    expect(ahead.body).toEqual({
      data: [],
      pagination: { after: 999999999, limit: 50, next_after: 999999999, has_more: false },
    });
  });

  it('refuses a bad cursor or limit with 400', async () => {
    const w = await t.workspace();
    await job(w, { name: 'Validation' });
    for (const query of [
      'limit=201',
      'limit=1000',
      'limit=0',
      'limit=-5',
      'limit=abc',
      'after=-1',
      'after=abc',
      'after=1.5',
      'job_id=0',
      'job_id=x',
    ]) {
      const res = await w.api.get(`/v1/events?${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.error, query).toBe('string');
    }
    expect((await w.api.get('/v1/events?limit=200')).status).toBe(200);
    expect((await w.api.get('/v1/events?limit=1&after=0')).status).toBe(200);
  });
});

describe('who sees what', () => {
  it("another workspace's events never appear, by cursor or by job_id", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const aJob = await job(a, { name: 'Ours' });
    const bJob = await job(b, { name: 'Theirs' });
    await move(b, bJob.id, 'won');
    await move(a, aJob.id, 'won');
    await move(b, bJob.id, 'lost');

    const seenA = await readAll(a.api, 2);
    expect(seenA.map((e) => e.event_type)).toEqual(['job_created', 'job_status_changed', 'job_won']);
    expect(seenA.every((e) => e.job_id === aJob.id)).toBe(true);
    const seenB = await readAll(b.api, 2);
    expect(seenB.every((e) => e.job_id === bJob.id)).toBe(true);
    expect(seenB).toHaveLength(5);
    expect((await a.api.get(`/v1/events?job_id=${bJob.id}`)).body.data).toEqual([]);
    // Ids come from one sequence: A's cursor skips over B's ids without showing them.
    const bIds = new Set(seenB.map((e) => e.id));
    expect(seenA.some((e) => bIds.has(e.id))).toBe(false);
  });

  it("a user who sees only their own jobs gets only those jobs' events", async () => {
    const w = await t.workspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const ownersJob = await job(w, { name: 'Owner Job' });
    const handedOver = await job(w, { name: 'Handed Over', assigned_to_user_id: own.id });
    const theirOwn = await job(own, { name: 'Made By Member' });
    await move(w, ownersJob.id, 'won');
    await move(w, handedOver.id, 'won');
    await move(w, theirOwn.id, 'lost');

    const seen = await readAll(own.api, 3);
    const visible = new Set([handedOver.id, theirOwn.id]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => visible.has(e.job_id))).toBe(true);
    expect(new Set(seen.map((e) => e.job_id))).toEqual(visible);
    const expected = (await feedRows(w.firmId)).filter((r) => visible.has(r.job_id!)).map((r) => r.id);
    expect(seen.map((e) => e.id)).toEqual(expected);
    expect((await own.api.get(`/v1/events?job_id=${ownersJob.id}`)).body.data).toEqual([]);
    // The owner sees all three jobs' events.
    expect(new Set((await readAll(w.api)).map((e) => e.job_id))).toEqual(
      new Set([ownersJob.id, handedOver.id, theirOwn.id]),
    );
  });

  it('a key without read_jobs gets 403; no key gets 401', async () => {
    const w = await t.workspace();
    await job(w, { name: 'Guarded' });
    const writeOnly = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    const res = await t.as(writeOnly).get('/v1/events');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks job read permission');
    expect((await t.anon.get('/v1/events')).status).toBe(401);
    const readOnly = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    expect((await t.as(readOnly).get('/v1/events')).status).toBe(200);
  });
});
