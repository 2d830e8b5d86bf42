// Redeliver and replay (document 1: "a failed event can be sent again by redeliver or replay";
// endpoints and bodies are ours): POST /v1/webhooks/deliveries/{id}/redeliver and POST /v1/webhooks/replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { Receiver } from '#test/helpers/receiver.ts';
import {
  DELIVERY_KEYS,
  HOUR,
  UUID,
  Z,
  deliveryDetail,
  deliveriesOf,
  feedOf,
  move,
  sorted,
  subscribe,
  verifyDelivery,
  type TestWorker,
  perTest,
} from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

/** Runs a delivery through all 7 attempts against a receiver answering 500. */
async function exhaust(wk: TestWorker): Promise<void> {
  await wk.drain();
  for (const wait of [1, 5, 30, 120, 360, 1440]) {
    wk.clock.advance(wait * 60_000);
    await wk.drain(false);
  }
}

async function wonSetup(
  r: Receiver,
  secret?: string,
): Promise<{ w: Workspace; sub: any; job: any; wonEventId: string }> {
  const w = await t.workspace();
  const sub = await subscribe(w, { target_url: r.url, event_type: 'job_won', ...(secret ? { secret } : {}) });
  const job = await makeJob(w, { name: 'Original Name' });
  await move(w, job.id, 'won');
  const [won] = await feedOf(w, '&event_type=job_won');
  return { w, sub, job, wonEventId: won.event_id };
}

describe('POST /v1/webhooks/deliveries/{id}/redeliver', () => {
  it('202 with a new delivery: redelivery_of set, same event_id, the body built now (current job)', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const { w, sub, job, wonEventId } = await wonSetup(r, 'redeliver-secret');
    const wk = worker();
    await exhaust(wk);
    expect(r.received).toHaveLength(7);
    const [failed] = await deliveriesOf(w);
    expect(failed).toMatchObject({ status: 'failed', attempts: 7 });

    expect((await w.api.patch(`/v1/jobs/${job.id}`, { name: 'Current Name' })).status).toBe(200);
    r.respond = () => 200;
    const res = await w.api.post(`/v1/webhooks/deliveries/${failed.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual(['data']);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...DELIVERY_KEYS, 'attempt_log', 'payload'].sort());
    expect(d).toMatchObject({
      webhook_id: sub.id,
      event_id: wonEventId,
      event_type: 'job_won',
      status: 'pending',
      attempts: 0,
      redelivery_of: failed.id,
      last_response_status: null,
      last_error: null,
      last_attempt_at: null,
      delivered_at: null,
      attempt_log: [],
    });
    expect(d.id).not.toBe(failed.id);
    expect(d.next_attempt_at).toMatch(Z);
    expect(d.payload).toMatchObject({ event_id: wonEventId, job: { name: 'Current Name' } });

    await wk.drain();
    expect(r.received).toHaveLength(8);
    const sent = r.received[7]!;
    expect(sent.body.event_id).toBe(wonEventId);
    expect(sent.body.job.name).toBe('Current Name');
    expect(r.received[0]!.body.job.name).toBe('Original Name');
    // Apart from the job, the body is the same event.
    const { job: _a, ...first } = r.received[0]!.body;
    const { job: _b, ...again } = sent.body;
    expect(again).toEqual(first);
    expect(verifyDelivery('redeliver-secret', sent.headers, sent.raw)).toBe(true);

    expect(await deliveryDetail(w, d.id)).toMatchObject({ status: 'succeeded', attempts: 1, redelivery_of: failed.id });
    // The original keeps its history.
    expect(await deliveryDetail(w, failed.id)).toMatchObject({ status: 'failed', attempts: 7, redelivery_of: null });
    expect((await deliveriesOf(w)).map((x) => x.id)).toEqual([d.id, failed.id]);
    expect((await deliveriesOf(w, `&event_id=${wonEventId}`)).map((x) => x.id)).toEqual([d.id, failed.id]);
  });

  it('a succeeded delivery can be sent again too', async () => {
    const r = await receiver();
    const { w, wonEventId } = await wonSetup(r);
    const wk = worker();
    await wk.drain();
    const [done] = await deliveriesOf(w);
    expect(done.status).toBe('succeeded');
    const res = await w.api.post(`/v1/webhooks/deliveries/${done.id}/redeliver`);
    expect(res.status).toBe(202);
    await wk.drain();
    expect(r.received.map((x) => x.body.event_id)).toEqual([wonEventId, wonEventId]);
  });

  it('redelivers a webhook-only job event with its own stable event_id', async () => {
    const r = await receiver();
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    await makeJob(w, { name: 'Star Redeliver' });
    const wk = worker();
    await wk.drain();
    const [d] = await deliveriesOf(w);
    const res = await w.api.post(`/v1/webhooks/deliveries/${d.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ event_type: 'job_created', event_id: d.event_id, redelivery_of: d.id });
    await wk.drain();
    expect(r.received.map((x) => x.body.event_id)).toEqual([d.event_id, d.event_id]);
    expect(r.received.map((x) => x.body.event_type)).toEqual(['job_created', 'job_created']);
  });

  it('409 when the subscription is inactive; 200 again once reactivated', async () => {
    const r = await receiver();
    const { w, sub } = await wonSetup(r);
    const [d] = await deliveriesOf(w);
    await w.api.delete(`/v1/webhooks/${sub.id}`);
    const res = await w.api.post(`/v1/webhooks/deliveries/${d.id}/redeliver`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Webhook subscription is inactive', code: 'subscription_inactive' });
    expect(await deliveriesOf(w)).toHaveLength(1);
    await w.api.patch(`/v1/webhooks/${sub.id}`, { active: true });
    expect((await w.api.post(`/v1/webhooks/deliveries/${d.id}/redeliver`)).status).toBe(202);
  });

  it("404 for an unknown delivery and for another workspace's delivery", async () => {
    const r = await receiver();
    const { w: theirs } = await wonSetup(r);
    const [d] = await deliveriesOf(theirs);
    const mine = await t.workspace();
    for (const id of [999_999, d.id]) {
      const res = await mine.api.post(`/v1/webhooks/deliveries/${id}/redeliver`);
      expect(res.status, String(id)).toBe(404);
      expect(res.body).toEqual({ error: 'Webhook delivery not found' });
    }
    expect(await deliveriesOf(theirs)).toHaveLength(1);
  });

  it('403 for a read-only key and for a viewer', async () => {
    const r = await receiver();
    const { w } = await wonSetup(r);
    const [d] = await deliveriesOf(w);
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const res = await ro.post(`/v1/webhooks/deliveries/${d.id}/redeliver`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'API key lacks job write permission' });
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    expect((await viewer.api.post(`/v1/webhooks/deliveries/${d.id}/redeliver`)).status).toBe(403);
    expect(await deliveriesOf(w)).toHaveLength(1);
  });
});

describe('POST /v1/webhooks/replay', () => {
  it('{event_id}: 202 with a delivery for every active subscription that receives it', async () => {
    const r = await receiver();
    const w = await t.workspace();
    const won = await subscribe(w, { target_url: r.url.replace('/hooks', '/won'), event_type: 'job_won' });
    const all = await subscribe(w, { target_url: r.url.replace('/hooks', '/all'), event_type: 'all' });
    const star = await subscribe(w, { target_url: r.url.replace('/hooks', '/star'), event_type: '*' });
    const lost = await subscribe(w, { target_url: r.url.replace('/hooks', '/lost'), event_type: 'job_lost' });
    const gone = await subscribe(w, { target_url: r.url.replace('/hooks', '/gone'), event_type: 'job_won' });
    const job = await makeJob(w, { name: 'Replay All' });
    await move(w, job.id, 'won');
    await w.api.delete(`/v1/webhooks/${gone.id}`);
    const wk = worker();
    await wk.drain();
    const before = r.received.length;
    const [event] = await feedOf(w, '&event_type=job_won');

    const res = await w.api.post('/v1/webhooks/replay', { event_id: event.event_id });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(2);
    for (const d of res.body.data) {
      expect(Object.keys(d).sort()).toEqual(DELIVERY_KEYS);
      expect(d).toMatchObject({ event_id: event.event_id, event_type: 'job_won', status: 'pending', attempts: 0 });
    }
    expect(sorted(res.body.data.map((d: any) => String(d.webhook_id)))).toEqual(
      sorted([String(won.id), String(all.id)]),
    );
    expect(res.body.data.map((d: any) => d.webhook_id)).not.toContain(star.id);
    expect(res.body.data.map((d: any) => d.webhook_id)).not.toContain(lost.id);

    await wk.drain();
    const replayed = r.received.slice(before);
    expect(replayed).toHaveLength(2);
    expect(sorted(replayed.map((x) => x.body.event_id))).toEqual([event.event_id, event.event_id]);
    expect(replayed.map((x) => x.body.event_type)).toEqual(['job_won', 'job_won']);
    // The originals (won, all, and gone's abandoned one) and the two replays.
    const log = await deliveriesOf(w, `&event_id=${event.event_id}`);
    expect(log).toHaveLength(5);
    expect(log.filter((d) => d.webhook_id === gone.id).map((d) => d.status)).toEqual(['abandoned']);
  });

  it('{event_id, webhook_id}: one delivery to that subscription only; the body shows the current job', async () => {
    const r = await receiver();
    const { w, sub, job, wonEventId } = await wonSetup(r);
    const other = await subscribe(w, { target_url: r.url.replace('/hooks', '/other'), event_type: 'all' });
    const wk = worker();
    await wk.drain();
    await w.api.patch(`/v1/jobs/${job.id}`, { name: 'Renamed Before Replay' });
    const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId, webhook_id: sub.id });
    expect(res.status).toBe(202);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      webhook_id: sub.id,
      event_id: wonEventId,
      redelivery_of: null,
      status: 'pending',
    });
    const before = r.received.length;
    await wk.drain();
    const sent = r.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.event_id).toBe(wonEventId);
    expect(sent[0]!.body.job.name).toBe('Renamed Before Replay');
    expect(await deliveriesOf(w, `&webhook_id=${other.id}`)).toHaveLength(0);
  });

  it('replays a webhook-only job event by its event_id to *', async () => {
    const r = await receiver();
    const w = await t.workspace();
    const star = await subscribe(w, { target_url: r.url, event_type: '*' });
    const status = await subscribe(w, {
      target_url: r.url.replace('/hooks', '/status'),
      event_type: 'job_status_changed',
    });
    const job = await makeJob(w, { name: 'Replay Status' });
    await move(w, job.id, 'active');
    const wk = worker();
    await wk.drain();
    const change = r.received.find((x) => x.body.event_type === 'job_status_changed' && x.body.status_changed)!;
    const eventId = change.body.event_id;
    const res = await w.api.post('/v1/webhooks/replay', { event_id: eventId });
    expect(res.status).toBe(202);
    expect(sorted(res.body.data.map((d: any) => String(d.webhook_id)))).toEqual(
      sorted([String(star.id), String(status.id)]),
    );
    const before = r.received.length;
    await wk.drain();
    expect(r.received.slice(before).map((x) => x.body.event_id)).toEqual([eventId, eventId]);
  });

  it("404 Event not found: unknown event_id, or another workspace's", async () => {
    const r = await receiver();
    const { wonEventId } = await wonSetup(r);
    const mine = await t.workspace();
    await subscribe(mine, { target_url: r.url, event_type: 'all' });
    for (const eventId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', wonEventId]) {
      const res = await mine.api.post('/v1/webhooks/replay', { event_id: eventId });
      expect(res.status, eventId).toBe(404);
      expect(res.body.error).toBe('Event not found');
    }
    expect(await deliveriesOf(mine)).toEqual([]);
  });

  it("422 not_deliverable for a feed-only raw event (the feed's job_created and job_status_changed)", async () => {
    const r = await receiver();
    const w = await t.workspace();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    const job = await makeJob(w, { name: 'Raw Events' });
    await move(w, job.id, 'active');
    const feed = await feedOf(w);
    const raw = feed.filter((e) => e.event_type === 'job_created' || e.event_type === 'job_status_changed');
    expect(raw.map((e) => e.event_type)).toEqual(['job_created', 'job_status_changed']);
    const count = (await deliveriesOf(w)).length;
    for (const e of raw) {
      const res = await w.api.post('/v1/webhooks/replay', { event_id: e.event_id });
      expect(res.status, e.event_type).toBe(422);
      expect(res.body).toMatchObject({ error: 'Event is not delivered by webhook', code: 'not_deliverable' });
    }
    expect(await deliveriesOf(w)).toHaveLength(count);
  });

  it('422 not_subscribed when the named subscription does not receive the event', async () => {
    const r = await receiver();
    const { w, wonEventId } = await wonSetup(r);
    const lost = await subscribe(w, { target_url: r.url, event_type: 'job_lost' });
    const star = await subscribe(w, { target_url: r.url, event_type: '*' });
    for (const s of [lost, star]) {
      const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId, webhook_id: s.id });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'Subscription does not receive this event', code: 'not_subscribed' });
    }
    expect(await deliveriesOf(w)).toHaveLength(1);
  });

  it('422 no_subscription when no active subscription receives the event', async () => {
    const r = await receiver();
    const { w, sub, wonEventId } = await wonSetup(r);
    await subscribe(w, { target_url: r.url, event_type: 'job_lost' });
    await w.api.delete(`/v1/webhooks/${sub.id}`);
    const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'No active subscription receives this event', code: 'no_subscription' });
    expect(await deliveriesOf(w)).toHaveLength(1);
  });

  it('409 when the named subscription is inactive', async () => {
    const r = await receiver();
    const { w, sub, wonEventId } = await wonSetup(r);
    await w.api.delete(`/v1/webhooks/${sub.id}`);
    const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId, webhook_id: sub.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Webhook subscription is inactive', code: 'subscription_inactive' });
  });

  it("404 Webhook subscription not found for an unknown or another workspace's webhook_id", async () => {
    const r = await receiver();
    const { w, wonEventId } = await wonSetup(r);
    const other = await t.workspace();
    const theirs = await subscribe(other, { target_url: r.url, event_type: 'job_won' });
    for (const id of [999_999, theirs.id]) {
      const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId, webhook_id: id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Webhook subscription not found' });
    }
    expect(await deliveriesOf(other)).toEqual([]);
  });

  it('400 for a missing event_id or an unknown field; 403 for a read-only key', async () => {
    const r = await receiver();
    const { w, wonEventId } = await wonSetup(r);
    const missing = await w.api.raw.post('/v1/webhooks/replay', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('event_id is required');
    const unknown = await w.api.raw.post('/v1/webhooks/replay', { event_id: wonEventId, everything: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ fields: ['everything'] });
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const denied = await ro.post('/v1/webhooks/replay', { event_id: wonEventId });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'API key lacks job write permission' });
    expect(await deliveriesOf(w)).toHaveLength(1);
  });

  it('a failed event is sent again by replay with the same event_id', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const { w, wonEventId } = await wonSetup(r, 'replay-secret');
    const wk = worker();
    await exhaust(wk);
    expect(r.received).toHaveLength(7);
    r.respond = () => 200;
    wk.clock.advance(HOUR);
    const res = await w.api.post('/v1/webhooks/replay', { event_id: wonEventId });
    expect(res.status).toBe(202);
    await wk.drain(false);
    expect(r.received).toHaveLength(8);
    expect(new Set(r.received.map((x) => x.body.event_id))).toEqual(new Set([wonEventId]));
    expect(verifyDelivery('replay-secret', r.received[7]!.headers, r.received[7]!.raw)).toBe(true);
    const list = await deliveriesOf(w, `&event_id=${wonEventId}`);
    expect(list.map((d) => d.status)).toEqual(['succeeded', 'failed']);
    expect(list[0].event_id).toMatch(UUID);
  });
});
