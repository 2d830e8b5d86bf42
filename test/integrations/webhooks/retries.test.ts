// Retries (document 1, Retries; Receiving a delivery rule 1): 7 attempts on the documented
// schedule, walked with a manual clock; what counts as a failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import {
  HOUR,
  MINUTE,
  UUID,
  Z,
  deliveryDetail,
  deliveriesOf,
  feedOf,
  move,
  subscribe,
  verifyDelivery,
  perTest,
} from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker, afterTest } = perTest(() => t);

const WAITS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 24 * HOUR];

/** A workspace whose job_won subscription points at `url`, and one job_won event queued. */
async function wonEvent(url: string, secret?: string): Promise<{ w: Workspace; subscription: any; job: any }> {
  const w = await t.workspace();
  const subscription = await subscribe(w, { target_url: url, event_type: 'job_won', ...(secret ? { secret } : {}) });
  const job = await makeJob(w, { name: 'Retry Job' });
  await move(w, job.id, 'won');
  return { w, subscription, job };
}

async function onlyDelivery(w: Workspace): Promise<any> {
  const list = await deliveriesOf(w);
  expect(list).toHaveLength(1);
  return deliveryDetail(w, list[0].id);
}

describe('the retry schedule', () => {
  it('a receiver answering 500 gets exactly 7 attempts, each no sooner than the documented wait; then failed', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const { w, subscription } = await wonEvent(r.url, 'retry-secret');
    const wk = worker();
    await wk.drain();
    expect(r.received).toHaveLength(1);

    for (const [i, wait] of WAITS.entries()) {
      const before = await onlyDelivery(w);
      expect(before).toMatchObject({
        status: 'pending',
        attempts: i + 1,
        last_response_status: 500,
        delivered_at: null,
      });
      expect(before.last_error).toMatch(/500/);
      expect(before.next_attempt_at).toMatch(Z);
      // The next attempt is due exactly one documented wait after the failure.
      expect(Date.parse(before.next_attempt_at) - Date.parse(before.last_attempt_at)).toBe(wait);

      wk.clock.advance(wait - 1000);
      await wk.drain(false);
      expect(r.received, `before wait ${i + 1}`).toHaveLength(i + 1);
      wk.clock.advance(999);
      await wk.drain(false);
      expect(r.received, `1 ms before wait ${i + 1}`).toHaveLength(i + 1);
      wk.clock.advance(1);
      await wk.drain(false);
      expect(r.received, `at wait ${i + 1}`).toHaveLength(i + 2);
    }

    const failed = await onlyDelivery(w);
    expect(failed).toMatchObject({
      webhook_id: subscription.id,
      event_type: 'job_won',
      status: 'failed',
      attempts: 7,
      max_attempts: 7,
      last_response_status: 500,
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(failed.attempt_log).toHaveLength(7);
    expect(failed.attempt_log.map((a: any) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const a of failed.attempt_log) {
      expect(a).toEqual({
        number: expect.any(Number),
        delivery_uuid: expect.stringMatching(UUID),
        target_url: expect.any(String),
        attempted_at: expect.stringMatching(Z),
        duration_ms: expect.any(Number),
        response_status: 500,
        error: expect.stringMatching(/500/),
      });
    }
    const uuids = failed.attempt_log.map((a: any) => a.delivery_uuid);
    expect(new Set(uuids).size).toBe(7);
    // The log's uuids are the X-Service-Delivery headers the receiver saw, in order.
    expect(r.received.map((x) => x.headers['x-service-delivery'])).toEqual(uuids);
    // The attempts' spacing in the log follows the schedule.
    const times = failed.attempt_log.map((a: any) => Date.parse(a.attempted_at));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(WAITS[i - 1]);

    // Nothing after the 7th, however long we wait.
    wk.clock.advance(7 * 24 * HOUR);
    await wk.drain(false);
    expect(r.received).toHaveLength(7);
    expect((await onlyDelivery(w)).status).toBe('failed');

    // At least once with a stable event_id: the same bytes every time, each validly signed.
    expect(new Set(r.received.map((x) => x.raw)).size).toBe(1);
    expect(new Set(r.received.map((x) => x.body.event_id)).size).toBe(1);
    for (const x of r.received) {
      expect(x.headers['x-service-event']).toBe('job_won');
      expect(verifyDelivery('retry-secret', x.headers, x.raw)).toBe(true);
    }
    expect(failed.payload).toEqual(r.received[0]!.body);
    expect(failed.event_id).toBe(r.received[0]!.body.event_id);

    // The event is still in the feed.
    const feed = await feedOf(w, '&event_type=job_won');
    expect(feed.map((e) => e.event_id)).toEqual([failed.event_id]);
    // And the log filters see it as failed.
    expect((await deliveriesOf(w, '&status=failed')).map((d) => d.id)).toEqual([failed.id]);
    expect(await deliveriesOf(w, '&status=pending')).toEqual([]);
  });

  it('success after a few failures stops retrying and marks the delivery succeeded', async () => {
    const r = await receiver();
    r.respond = () => (r.received.length <= 3 ? 500 : 200);
    const { w } = await wonEvent(r.url);
    const wk = worker();
    await wk.drain();
    for (const wait of WAITS.slice(0, 3)) {
      wk.clock.advance(wait);
      await wk.drain(false);
    }
    expect(r.received).toHaveLength(4);
    const d = await onlyDelivery(w);
    expect(d).toMatchObject({
      status: 'succeeded',
      attempts: 4,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(d.delivered_at).toMatch(Z);
    expect(d.attempt_log.map((a: any) => [a.number, a.response_status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 200],
    ]);
    expect(d.attempt_log[3].error).toBeNull();
    wk.clock.advance(48 * HOUR);
    await wk.drain(false);
    expect(r.received).toHaveLength(4);
    expect((await onlyDelivery(w)).status).toBe('succeeded');
  });

  it('deactivating the subscription between retries abandons the delivery; no further attempt', async () => {
    const r = await receiver();
    r.respond = () => 500;
    const { w, subscription } = await wonEvent(r.url);
    const wk = worker();
    await wk.drain();
    wk.clock.advance(WAITS[0]!);
    await wk.drain(false);
    expect(r.received).toHaveLength(2);
    expect((await w.api.delete(`/v1/webhooks/${subscription.id}`)).status).toBe(200);
    wk.clock.advance(48 * HOUR);
    await wk.drain(false);
    expect(r.received).toHaveLength(2);
    const d = await onlyDelivery(w);
    expect(d).toMatchObject({ status: 'abandoned', attempts: 2, next_attempt_at: null });
    expect(d.attempt_log).toHaveLength(2);
  });

  it("a retry goes to the subscription's current target_url", async () => {
    const broken = await receiver('/broken');
    broken.respond = () => 500;
    const fixed = await receiver('/fixed');
    const { w, subscription } = await wonEvent(broken.url);
    const wk = worker();
    await wk.drain();
    expect(broken.received).toHaveLength(1);
    expect((await w.api.patch(`/v1/webhooks/${subscription.id}`, { target_url: fixed.url })).status).toBe(200);
    wk.clock.advance(WAITS[0]!);
    await wk.drain(false);
    expect(broken.received).toHaveLength(1);
    expect(fixed.received).toHaveLength(1);
    expect(fixed.received[0]!.raw).toBe(broken.received[0]!.raw);
    expect(await onlyDelivery(w)).toMatchObject({ status: 'succeeded', attempts: 2, target_url: fixed.url });
  });

  it("one failing receiver does not hold back another subscription's deliveries", async () => {
    const bad = await receiver('/bad');
    bad.respond = () => 500;
    const good = await receiver('/good');
    const w = await t.workspace();
    await subscribe(w, { target_url: bad.url, event_type: 'job_created' });
    await subscribe(w, { target_url: good.url, event_type: 'job_created' });
    for (let i = 0; i < 5; i++) await makeJob(w, { name: `Parallel ${i}` });
    const wk = worker();
    await wk.drain();
    expect(bad.received).toHaveLength(5);
    expect(good.received).toHaveLength(5);
    const statuses = (await deliveriesOf(w))
      .map((d) => `${d.target_url === good.url ? 'good' : 'bad'}:${d.status}`)
      .sort();
    expect(statuses).toEqual([...Array(5).fill('bad:pending'), ...Array(5).fill('good:succeeded')]);
  });
});

describe('what counts as a failure', () => {
  async function expectFailure(w: Workspace, r: Receiver | null, check: (d: any) => void) {
    const d = await onlyDelivery(w);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, delivered_at: null });
    expect(d.next_attempt_at).toMatch(Z);
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at)).toBe(MINUTE);
    expect(d.attempt_log).toHaveLength(1);
    expect(d.last_error).toEqual(expect.any(String));
    expect(d.attempt_log[0].error).toBe(d.last_error);
    check(d);
    if (r) expect(r.received).toHaveLength(1);
  }

  for (const code of [301, 302, 303, 307, 308]) {
    it(`a ${code} is a failure and its Location is not followed`, async () => {
      const target = await receiver('/redirected');
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(code, { location: target.url });
          res.end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      afterTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const hits: number[] = [];
      server.on('request', () => hits.push(1));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const { w } = await wonEvent(url);
      const wk = worker();
      await wk.drain();
      expect(hits).toHaveLength(1);
      expect(target.received).toEqual([]);
      await expectFailure(w, null, (d) => {
        expect(d.last_response_status).toBe(code);
        expect(d.attempt_log[0].response_status).toBe(code);
      });
    });
  }

  for (const code of [400, 401, 404, 410, 429, 500, 502, 503]) {
    it(`a ${code} is a failure`, async () => {
      const r = await receiver();
      r.respond = () => code;
      const { w } = await wonEvent(r.url);
      const wk = worker();
      await wk.drain();
      await expectFailure(w, r, (d) => {
        expect(d.last_response_status).toBe(code);
        expect(d.last_error).toContain(String(code));
      });
    });
  }

  it('a 304 is a failure', async () => {
    const r = await receiver();
    r.respond = () => 304;
    const { w } = await wonEvent(r.url);
    const wk = worker();
    await wk.drain();
    await expectFailure(w, r, (d) => expect(d.last_response_status).toBe(304));
  });

  it('no reply within the time limit is a failure (timeout), and the retry can then succeed', async () => {
    const r = await receiver();
    r.respond = () => (r.received.length === 1 ? 'hang' : 200);
    const { w } = await wonEvent(r.url);
    const wk = worker({ timeoutMs: 300 });
    await wk.drain();
    await expectFailure(w, r, (d) => {
      expect(d.last_response_status).toBeNull();
      expect(d.attempt_log[0].response_status).toBeNull();
    });
    wk.clock.advance(MINUTE);
    await wk.drain(false);
    expect(r.received).toHaveLength(2);
    expect(await onlyDelivery(w)).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_response_status: 200,
      last_error: null,
    });
  });

  it('a connection refused (nothing listening) is a failure', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const { w } = await wonEvent(url);
    const wk = worker();
    await wk.drain();
    await expectFailure(w, null, (d) => {
      expect(d.last_response_status).toBeNull();
      expect(d.last_error).toMatch(/ECONNREFUSED|refused/i);
    });
  });

  it('a connection closed without a reply is a failure', async () => {
    const server = http.createServer((req) => {
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { w } = await wonEvent(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    const wk = worker();
    await wk.drain();
    await expectFailure(w, null, (d) => expect(d.last_response_status).toBeNull());
  });

  it('a name that does not resolve is a failure', async () => {
    const { w } = await wonEvent('http://no-such-host.invalid/hook');
    const wk = worker({ timeoutMs: 2000 });
    await wk.drain();
    await expectFailure(w, null, (d) => expect(d.last_response_status).toBeNull());
  });
});
