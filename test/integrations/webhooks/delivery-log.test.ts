// GET /v1/webhooks/deliveries and /v1/webhooks/deliveries/{id} (document 1, Delivery log: one row
// per delivery, newest first, business and job/proposal events; filters and row fields are ours).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { Receiver } from '#test/helpers/receiver.ts';
import {
  DELIVERY_KEYS,
  UUID,
  Z,
  deliveryDetail,
  deliveriesOf,
  feedOf,
  move,
  sorted,
  subscribe,
  perTest,
} from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

/** A workspace with an `all` and a `*` subscription and a job moved to won: 3 deliveries. */
async function populated(r: Receiver): Promise<{ w: Workspace; all: any; star: any; job: any }> {
  const w = await t.workspace();
  const all = await subscribe(w, { target_url: r.url, event_type: 'all', secret: 'never-shown' });
  const star = await subscribe(w, { target_url: r.url.replace('/hooks', '/star'), event_type: '*' });
  const job = await makeJob(w, { name: 'Logged Job' });
  await move(w, job.id, 'won');
  return { w, all, star, job };
}

describe('GET /v1/webhooks/deliveries', () => {
  it('one row per delivery, newest first, business and job events; pending rows before any attempt', async () => {
    const r = await receiver();
    const { w, all, star, job } = await populated(r);
    const res = await w.api.get('/v1/webhooks/deliveries');
    expect(res.status).toBe(200);
    // retention_days: how far back the log reaches (settled deliveries are pruned after it).
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'retention_days']);
    expect(res.body.retention_days).toBe(30);
    expect(res.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    const rows = res.body.data;
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(DELIVERY_KEYS);
    const ids = rows.map((d: any) => d.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    // Recording order: job_created (webhook), job_status_changed (webhook), job_won (business).
    expect(rows.map((d: any) => d.event_type)).toEqual(['job_won', 'job_status_changed', 'job_created']);
    expect(rows.map((d: any) => d.webhook_id)).toEqual([all.id, star.id, star.id]);
    const won = rows[0];
    expect(won).toEqual({
      id: expect.any(Number),
      webhook_id: all.id,
      event_id: expect.stringMatching(UUID),
      event_type: 'job_won',
      status: 'pending',
      attempts: 0,
      max_attempts: 7,
      last_response_status: null,
      last_error: null,
      last_attempt_at: null,
      next_attempt_at: expect.stringMatching(Z),
      delivered_at: null,
      redelivery_of: null,
      target_url: all.target_url,
      created_at: expect.stringMatching(Z),
      updated_at: expect.stringMatching(Z),
    });
    const feed = await feedOf(w, `&job_id=${job.id}&event_type=job_won`);
    expect(won.event_id).toBe(feed[0].event_id);
    expect(JSON.stringify(res.body)).not.toContain('never-shown');
  });

  it('after a successful attempt: succeeded, attempts 1, last_response_status, delivered_at', async () => {
    const r = await receiver();
    r.respond = () => 202;
    const { w, all } = await populated(r);
    const wk = worker();
    await wk.drain();
    const [won] = await deliveriesOf(w, `&webhook_id=${all.id}`);
    expect(won).toEqual({
      id: expect.any(Number),
      webhook_id: all.id,
      event_id: expect.stringMatching(UUID),
      event_type: 'job_won',
      status: 'succeeded',
      attempts: 1,
      max_attempts: 7,
      last_response_status: 202,
      last_error: null,
      last_attempt_at: expect.stringMatching(Z),
      next_attempt_at: null,
      delivered_at: expect.stringMatching(Z),
      redelivery_of: null,
      target_url: all.target_url,
      created_at: expect.stringMatching(Z),
      updated_at: expect.stringMatching(Z),
    });
  });

  it('filters: webhook_id, event_id, event_type, status; combined', async () => {
    const r = await receiver();
    const { w, all, star } = await populated(r);
    const other = await makeJob(w, { name: 'Second' });
    await move(w, other.id, 'lost');
    const wk = worker();
    r.respond = (req) => (req.body.event_type === 'job_lost' ? 500 : 200);
    await wk.drain();

    const everything = await deliveriesOf(w);
    expect(everything).toHaveLength(6);
    expect((await deliveriesOf(w, `&webhook_id=${all.id}`)).map((d) => d.event_type)).toEqual(['job_lost', 'job_won']);
    expect((await deliveriesOf(w, `&webhook_id=${star.id}`)).map((d) => d.event_type)).toEqual([
      'job_status_changed',
      'job_created',
      'job_status_changed',
      'job_created',
    ]);
    const won = everything.find((d) => d.event_type === 'job_won');
    expect((await deliveriesOf(w, `&event_id=${won.event_id}`)).map((d) => d.id)).toEqual([won.id]);
    expect((await deliveriesOf(w, '&event_type=job_created')).map((d) => d.event_type)).toEqual([
      'job_created',
      'job_created',
    ]);
    expect((await deliveriesOf(w, '&event_type=job_lost')).map((d) => d.status)).toEqual(['pending']);
    // A dotted alias names the same event.
    expect((await deliveriesOf(w, '&event_type=job.lost')).map((d) => d.event_type)).toEqual(['job_lost']);
    expect((await deliveriesOf(w, '&status=pending')).map((d) => d.event_type)).toEqual(['job_lost']);
    expect(await deliveriesOf(w, '&status=succeeded')).toHaveLength(5);
    expect(await deliveriesOf(w, '&status=failed')).toEqual([]);
    expect(await deliveriesOf(w, '&status=abandoned')).toEqual([]);
    expect(await deliveriesOf(w, `&webhook_id=${star.id}&event_type=job_created&status=succeeded`)).toHaveLength(2);
    expect(await deliveriesOf(w, `&webhook_id=${all.id}&event_type=job_created`)).toEqual([]);
    expect(await deliveriesOf(w, `&event_id=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).toEqual([]);
    const filtered = await w.api.get(`/v1/webhooks/deliveries?webhook_id=${star.id}`);
    expect(filtered.body.pagination.total).toBe(4);

    await w.api.delete(`/v1/webhooks/${all.id}`);
    expect((await deliveriesOf(w, '&status=abandoned')).map((d) => d.event_type)).toEqual(['job_lost']);
  });

  it('400 for an unknown status and for malformed filters', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/webhooks/deliveries?status=done');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('status must be one of pending, succeeded, failed, abandoned');
    for (const q of ['webhook_id=abc', 'webhook_id=0', 'limit=0', 'limit=201', 'offset=-1']) {
      const bad = await w.api.get(`/v1/webhooks/deliveries?${q}`);
      expect(bad.status, q).toBe(400);
    }
  });

  it('paging with limit and offset; total counts every matching row', async () => {
    const r = await receiver();
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    for (let i = 0; i < 5; i++) await makeJob(w, { name: `Page ${i}` });
    const all = await deliveriesOf(w);
    expect(all).toHaveLength(5);
    const page = await w.api.get('/v1/webhooks/deliveries?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 1 });
    expect(page.body.data.map((d: any) => d.id)).toEqual(all.slice(1, 3).map((d) => d.id));
    const last = await w.api.get('/v1/webhooks/deliveries?limit=2&offset=4');
    expect(last.body.data.map((d: any) => d.id)).toEqual([all[4].id]);
    const past = await w.api.get('/v1/webhooks/deliveries?limit=2&offset=10');
    expect(past.body).toEqual({ data: [], pagination: { total: 5, limit: 2, offset: 10 }, retention_days: 30 });
  });

  it("another workspace's deliveries are never listed, even filtered by its webhook_id or event_id", async () => {
    const r = await receiver();
    const { w: theirs, all } = await populated(r);
    const mine = await t.workspace();
    const [theirWon] = await deliveriesOf(theirs, `&webhook_id=${all.id}`);
    expect((await mine.api.get('/v1/webhooks/deliveries')).body).toEqual({
      data: [],
      pagination: { total: 0, limit: 50, offset: 0 },
      retention_days: 30,
    });
    expect(await deliveriesOf(mine, `&webhook_id=${all.id}`)).toEqual([]);
    expect(await deliveriesOf(mine, `&event_id=${theirWon.event_id}`)).toEqual([]);
    const detail = await mine.api.get(`/v1/webhooks/deliveries/${theirWon.id}`);
    expect(detail.status).toBe(404);
    expect(detail.body).toEqual({ error: 'Webhook delivery not found' });
  });

  it('a read-only key can read the log and a delivery; a key without read_jobs is 403', async () => {
    const r = await receiver();
    const { w } = await populated(r);
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const list = await ro.get('/v1/webhooks/deliveries');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect((await ro.get(`/v1/webhooks/deliveries/${list.body.data[0].id}`)).status).toBe(200);

    const none = t.as(await t.key(w.firmId, w.ownerId, ['read_measurements']));
    const expected = {
      error: 'API key lacks job read permission',
      code: 'missing_permission',
      permission: 'read_jobs',
    };
    const l = await none.get('/v1/webhooks/deliveries');
    expect(l.status).toBe(403);
    expect(l.body).toMatchObject(expected);
    const d = await none.get(`/v1/webhooks/deliveries/${list.body.data[0].id}`);
    expect(d.status).toBe(403);
    expect(d.body).toMatchObject(expected);
  });

  it('a viewer can read the log', async () => {
    const r = await receiver();
    const { w } = await populated(r);
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    const res = await viewer.api.get('/v1/webhooks/deliveries');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
  });
});

describe('GET /v1/webhooks/deliveries/{id}', () => {
  it('the row plus attempt_log and the payload every attempt sends', async () => {
    const r = await receiver();
    r.respond = () => (r.received.length === 1 ? 503 : 200);
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Detail Job' });
    const wk = worker();
    await wk.drain();
    wk.clock.advance(60_000);
    await wk.drain(false);
    const [row] = await deliveriesOf(w);
    const res = await w.api.get(`/v1/webhooks/deliveries/${row.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...DELIVERY_KEYS, 'attempt_log', 'payload'].sort());
    const { attempt_log, payload, ...rest } = d;
    expect(rest).toEqual(row);
    expect(rest).toMatchObject({
      webhook_id: s.id,
      status: 'succeeded',
      attempts: 2,
      last_response_status: 200,
      last_error: null,
    });
    expect(attempt_log).toEqual([
      {
        number: 1,
        delivery_uuid: r.received[0]!.headers['x-service-delivery'],
        target_url: r.url,
        attempted_at: expect.stringMatching(Z),
        duration_ms: expect.any(Number),
        response_status: 503,
        error: expect.stringContaining('503'),
      },
      {
        number: 2,
        delivery_uuid: r.received[1]!.headers['x-service-delivery'],
        target_url: r.url,
        attempted_at: expect.stringMatching(Z),
        duration_ms: expect.any(Number),
        response_status: 200,
        error: null,
      },
    ]);
    expect(payload).toEqual(r.received[0]!.body);
    expect(JSON.stringify(payload)).toBe(r.received[0]!.raw);
  });

  it('404 Webhook delivery not found for an unknown id; a non-integer id is 404', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/webhooks/deliveries/999999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Webhook delivery not found' });
    expect((await w.api.get('/v1/webhooks/deliveries/abc')).status).toBe(404);
  });

  it("a user who sees only their own jobs sees only those jobs' deliveries", async () => {
    const r = await receiver();
    const w = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true }, ['read_jobs']);
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Theirs', assigned_to_user_id: crew.id });
    await makeJob(w, { name: 'Not Theirs' });
    const everything = await deliveriesOf(w);
    expect(everything).toHaveLength(2);
    const seen = await crew.api.get('/v1/webhooks/deliveries');
    expect(seen.status).toBe(200);
    expect(seen.body.pagination.total).toBe(1);
    const detail = await deliveryDetail(w, seen.body.data[0].id);
    expect(detail.payload.job.name).toBe('Theirs');
    const hidden = everything.find((d) => d.id !== seen.body.data[0].id)!;
    expect((await crew.api.get(`/v1/webhooks/deliveries/${hidden.id}`)).status).toBe(404);
    expect(sorted(everything.map((d) => String(d.id)))).toContain(String(seen.body.data[0].id));
  });
});
