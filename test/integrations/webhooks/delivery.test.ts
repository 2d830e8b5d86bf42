// What a receiver sees (document 1, Receiving a delivery and Signature), and which subscription
// receives which event (Subscription names; Job and proposal events).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { Receiver } from '#test/helpers/receiver.ts';
import { recordBusinessEvent } from '#events/record.ts';
import {
  UUID,
  addStages,
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

const eventsOf = (r: Receiver) => sorted(r.received.map((x) => x.body.event_type));

describe('headers', () => {
  it('a signed delivery: exactly the documented headers and values', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'header-secret' });
    await makeJob(w, { name: 'Header Check' });
    const before = Math.floor(Date.now() / 1000);
    await wk.drain();
    const after = Math.floor(Date.now() / 1000);
    expect(r.received).toHaveLength(1);
    const { headers, raw, body } = r.received[0]!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Service-Webhooks/1.0');
    expect(headers['x-service-event']).toBe('job_created');
    expect(headers['x-service-delivery']).toMatch(UUID);
    expect(headers['x-service-timestamp']).toMatch(/^\d{10}$/);
    const ts = Number(headers['x-service-timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(after);
    expect(headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(Number(headers['content-length'])).toBe(Buffer.byteLength(raw, 'utf8'));
    // Only the service's own X- headers.
    expect(
      Object.keys(headers)
        .filter((h) => h.startsWith('x-'))
        .sort(),
    ).toEqual(['x-service-delivery', 'x-service-event', 'x-service-signature', 'x-service-timestamp']);
    // X-Service-Delivery is the attempt's uuid in the log, not the event_id.
    expect(headers['x-service-delivery']).not.toBe(body.event_id);
    const [d] = await deliveriesOf(w);
    const detail = await deliveryDetail(w, d.id);
    expect(detail.attempt_log.map((a: any) => a.delivery_uuid)).toEqual([headers['x-service-delivery']]);
  });

  it('without a secret: no X-Service-Signature, the other headers as usual', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Unsigned Headers' });
    await wk.drain();
    const { headers } = r.received[0]!;
    expect(headers['x-service-signature']).toBeUndefined();
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Service-Webhooks/1.0');
    expect(headers['x-service-event']).toBe('job_created');
    expect(headers['x-service-delivery']).toMatch(UUID);
    expect(headers['x-service-timestamp']).toMatch(/^\d+$/);
  });

  it('X-Service-Delivery is new on every attempt; the body and event_id stay', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    r.respond = () => (r.received.length < 3 ? 503 : 204);
    await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 's' });
    await makeJob(w, { name: 'Three Tries' });
    await wk.drain();
    wk.clock.advance(60_000);
    await wk.drain(false);
    wk.clock.advance(5 * 60_000);
    await wk.drain(false);
    expect(r.received).toHaveLength(3);
    const uuids = r.received.map((x) => x.headers['x-service-delivery']);
    expect(new Set(uuids).size).toBe(3);
    for (const u of uuids) expect(u).toMatch(UUID);
    expect(new Set(r.received.map((x) => x.raw)).size).toBe(1);
    expect(new Set(r.received.map((x) => x.body.event_id)).size).toBe(1);
    const [d] = await deliveriesOf(w);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 3, last_response_status: 204 });
    expect((await deliveryDetail(w, d.id)).attempt_log.map((a: any) => a.delivery_uuid)).toEqual(uuids);
  });
});

describe('signature, checked the way a receiver would', () => {
  it('verifies over the exact received bytes (non-ASCII included) with the subscription secret', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const secret = 'whsec_ü✓ long secret with spaces';
    await subscribe(w, { target_url: r.url, event_type: 'job_created', secret });
    await makeJob(w, { name: 'Café Ünïcode ✓ 舗装 "quoted" \\ back', notes: 'line1\nline2' });
    await wk.drain();
    const got = r.received[0]!;
    expect(got.body.job.name).toBe('Café Ünïcode ✓ 舗装 "quoted" \\ back');
    expect(verifyDelivery(secret, got.headers, got.raw)).toBe(true);
    expect(verifyDelivery(secret, got.headers, Buffer.from(got.raw, 'utf8'))).toBe(true);
  });

  it('a tampered body, a wrong secret, a changed timestamp or a stale one fail verification', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'right-secret' });
    await makeJob(w, { name: 'Tamper Target' });
    await wk.drain();
    const { headers, raw } = r.received[0]!;
    const now = Math.floor(Date.now() / 1000);
    expect(verifyDelivery('right-secret', headers, raw, now)).toBe(true);
    // Body changes: one character, re-serialisation with other spacing, a trailing newline.
    expect(verifyDelivery('right-secret', headers, raw.replace('Tamper Target', 'Tamper Targex'))).toBe(false);
    expect(verifyDelivery('right-secret', headers, JSON.stringify(JSON.parse(raw), null, 1))).toBe(false);
    expect(verifyDelivery('right-secret', headers, raw + '\n')).toBe(false);
    // Wrong secrets.
    expect(verifyDelivery('wrong-secret', headers, raw)).toBe(false);
    expect(verifyDelivery('', headers, raw)).toBe(false);
    expect(verifyDelivery('right-secret ', headers, raw)).toBe(false);
    // The timestamp is part of what is signed.
    const ts = Number(headers['x-service-timestamp']);
    expect(verifyDelivery('right-secret', { ...headers, 'x-service-timestamp': String(ts + 1) }, raw)).toBe(false);
    // Replayed long after: outside the 300 s tolerance (either direction), inside it still fine.
    expect(verifyDelivery('right-secret', headers, raw, ts + 301)).toBe(false);
    expect(verifyDelivery('right-secret', headers, raw, ts - 301)).toBe(false);
    expect(verifyDelivery('right-secret', headers, raw, ts + 300)).toBe(true);
    // A signature header in another form is refused.
    const sig = String(headers['x-service-signature']);
    expect(verifyDelivery('right-secret', { ...headers, 'x-service-signature': sig.toUpperCase() }, raw)).toBe(false);
    expect(
      verifyDelivery('right-secret', { ...headers, 'x-service-signature': sig.slice('sha256='.length) }, raw),
    ).toBe(false);
  });

  it('each subscription signs with its own secret', async () => {
    const w = await t.workspace();
    const a = await receiver('/a');
    const b = await receiver('/b');
    const wk = worker();
    await subscribe(w, { target_url: a.url, event_type: 'job_created', secret: 'secret-a' });
    await subscribe(w, { target_url: b.url, event_type: 'job_created', secret: 'secret-b' });
    await makeJob(w, { name: 'Two Secrets' });
    await wk.drain();
    expect(verifyDelivery('secret-a', a.received[0]!.headers, a.received[0]!.raw)).toBe(true);
    expect(verifyDelivery('secret-b', a.received[0]!.headers, a.received[0]!.raw)).toBe(false);
    expect(verifyDelivery('secret-b', b.received[0]!.headers, b.received[0]!.raw)).toBe(true);
    // Same event, same event_id in both.
    expect(a.received[0]!.body.event_id).toBe(b.received[0]!.body.event_id);
  });
});

describe('which subscription receives what', () => {
  async function setup(): Promise<{ w: Workspace; wk: TestWorker }> {
    const w = await t.workspace();
    await addStages(t, w);
    return { w, wk: worker() };
  }

  it('job_status_changed receives the status change (PATCH status and move) and never job_updated for it', async () => {
    const { w, wk } = await setup();
    const status = await receiver('/status');
    const updated = await receiver('/updated');
    await subscribe(w, { target_url: status.url });
    await subscribe(w, { target_url: updated.url, event_type: 'job_updated' });
    const job = await makeJob(w, { name: 'Status Path' });
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { status: 'active' })).status).toBe(200);
    // Status and other fields in one PATCH: still only job_status_changed.
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { status: 'lead', notes: 'and a note' })).status).toBe(200);
    await move(w, job.id, 'active');
    await wk.drain();
    expect(status.received.map((x) => x.body.event_type)).toEqual([
      'job_status_changed',
      'job_status_changed',
      'job_status_changed',
    ]);
    expect(status.received.map((x) => x.headers['x-service-event'])).toEqual([
      'job_status_changed',
      'job_status_changed',
      'job_status_changed',
    ]);
    expect(sorted(status.received.map((x) => `${x.body.previous_status}>${x.body.current_status}`))).toEqual([
      'active>lead',
      'lead>active',
      'lead>active',
    ]);
    for (const x of status.received) expect(x.body.status_changed).toBe(true);
    expect(updated.received).toEqual([]);
  });

  it('job_updated receives a name change with changed_fields; the status subscription gets nothing', async () => {
    const { w, wk } = await setup();
    const status = await receiver('/status');
    const updated = await receiver('/updated');
    await subscribe(w, { target_url: status.url, event_type: 'job_status_changed' });
    await subscribe(w, { target_url: updated.url, event_type: 'job_updated' });
    const job = await makeJob(w, { name: 'Old Name' });
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { name: 'New Name' })).status).toBe(200);
    await wk.drain();
    expect(status.received).toEqual([]);
    expect(updated.received).toHaveLength(1);
    const body = updated.received[0]!.body;
    expect(body).toMatchObject({
      event_type: 'job_updated',
      status_changed: false,
      previous_status: 'lead',
      current_status: 'lead',
      changed_fields: ['name'],
    });
    expect(body.job.name).toBe('New Name');
    expect(updated.received[0]!.headers['x-service-event']).toBe('job_updated');
  });

  it('a PATCH that changes nothing sends nothing', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    const job = await makeJob(w, { name: 'Same', notes: 'n' });
    await wk.drain();
    r.received.length = 0;
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { name: 'Same', notes: 'n' })).status).toBe(200);
    await move(w, job.id, 'lead');
    await wk.drain();
    expect(r.received).toEqual([]);
  });

  it('* receives job_created, job_updated and job_status_changed, never business events', async () => {
    const { w, wk } = await setup();
    const star = await receiver();
    await subscribe(w, { target_url: star.url, event_type: '*' });
    const job = await makeJob(w, { name: 'Star' });
    await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'changed' });
    await move(w, job.id, 'won');
    await move(w, job.id, 'lost');
    await move(w, job.id, 'done');
    const lostJob = await makeJob(w, { name: 'Star Lost' });
    await move(w, lostJob.id, 'dead');
    await t.database.db.transaction().execute((trx) =>
      recordBusinessEvent(trx, {
        firmId: w.firmId,
        type: 'invoice_created',
        entity: { type: 'invoice', id: 7 },
        data: { invoice_id: 7, doc_number: 'INV-7', amount_cents: 1000, status: 'open' },
      }),
    );
    await wk.drain();
    expect(eventsOf(star)).toEqual(
      sorted([
        'job_created',
        'job_updated',
        'job_status_changed',
        'job_status_changed',
        'job_status_changed',
        'job_created',
        'job_status_changed',
      ]),
    );
    for (const x of star.received) expect(x.body.api_version).toBeUndefined();
  });

  it("all receives job_won, job_lost, job_cancelled, job_completed; never job or proposal events, never the feed's raw job events", async () => {
    const { w, wk } = await setup();
    const all = await receiver();
    await subscribe(w, { target_url: all.url, event_type: 'all' });
    const a = await makeJob(w, { name: 'All A' });
    await w.api.patch(`/v1/jobs/${a.id}`, { notes: 'details' });
    await move(w, a.id, 'won'); // job_won
    await move(w, a.id, 'lost'); // job_cancelled
    const b = await makeJob(w, { name: 'All B', status: 'active' });
    await move(w, b.id, 'dead'); // job_lost
    const c = await makeJob(w, { name: 'All C' });
    await move(w, c.id, 'done'); // job_won + job_completed
    await wk.drain();
    expect(eventsOf(all)).toEqual(sorted(['job_won', 'job_cancelled', 'job_lost', 'job_won', 'job_completed']));
    for (const x of all.received) {
      expect(x.body.api_version).toMatch(/^\d{4}-\d{2}$/);
      expect(x.headers['x-service-event']).toBe(x.body.event_type);
    }
    // The feed holds raw job_created / job_status_changed too; none of those went out.
    const feed = await feedOf(w);
    const rawIds = new Set(
      feed
        .filter((e) => e.event_type === 'job_created' || e.event_type === 'job_status_changed')
        .map((e) => e.event_id),
    );
    expect(rawIds.size).toBeGreaterThan(0);
    for (const x of all.received) expect(rawIds.has(x.body.event_id)).toBe(false);
    // Every business event of the feed went out exactly once.
    const business = feed.filter((e) => !rawIds.has(e.event_id)).map((e) => e.event_id);
    expect(sorted(all.received.map((x) => x.body.event_id))).toEqual(sorted(business));
  });

  it('all receives business events that belong to no job (recorded by other areas)', async () => {
    const { w, wk } = await setup();
    const all = await receiver('/all');
    const star = await receiver('/star');
    await subscribe(w, { target_url: all.url, event_type: 'all' });
    await subscribe(w, { target_url: star.url, event_type: '*' });
    for (const [type, entity] of [
      ['estimate_created', 'estimate'],
      ['invoice_created', 'invoice'],
      ['payment_received', 'invoice'],
    ] as const) {
      await t.database.db.transaction().execute((trx) =>
        recordBusinessEvent(trx, {
          firmId: w.firmId,
          type,
          entity: { type: entity, id: 3 },
          data: { n: 1 },
        }),
      );
    }
    await wk.drain();
    expect(eventsOf(all)).toEqual(['estimate_created', 'invoice_created', 'payment_received']);
    expect(star.received).toEqual([]);
  });

  it('a specific business name or its dotted alias receives only that event', async () => {
    const { w, wk } = await setup();
    const won = await receiver('/won');
    const lost = await receiver('/lost');
    const cancelled = await receiver('/cancelled');
    const completed = await receiver('/completed');
    const invoice = await receiver('/invoice');
    await subscribe(w, { target_url: won.url, event_type: 'job_won' });
    await subscribe(w, { target_url: lost.url, event_type: 'job.lost' });
    await subscribe(w, { target_url: cancelled.url, event_type: 'job.cancelled' });
    await subscribe(w, { target_url: completed.url, event_type: 'job_completed' });
    await subscribe(w, { target_url: invoice.url, event_type: 'invoice.created' });
    const a = await makeJob(w, { name: 'Specific A' });
    await move(w, a.id, 'won');
    await move(w, a.id, 'lost');
    const b = await makeJob(w, { name: 'Specific B' });
    await move(w, b.id, 'lost');
    const c = await makeJob(w, { name: 'Specific C', status: 'won' });
    await move(w, c.id, 'done');
    await t.database.db.transaction().execute((trx) =>
      recordBusinessEvent(trx, {
        firmId: w.firmId,
        type: 'invoice_created',
        entity: { type: 'invoice', id: 11 },
        data: { invoice_id: 11 },
      }),
    );
    await t.database.db.transaction().execute((trx) =>
      recordBusinessEvent(trx, {
        firmId: w.firmId,
        type: 'payment_received',
        entity: { type: 'invoice', id: 11 },
        data: { invoice_id: 11 },
      }),
    );
    await wk.drain();
    // a: won, cancelled; b: lost; c: won (created in won), completed (into done; already won, so no second job_won).
    expect(won.received.map((x) => x.body.event_type)).toEqual(['job_won', 'job_won']);
    expect(sorted(won.received.map((x) => x.body.job.name))).toEqual(['Specific A', 'Specific C']);
    expect(lost.received.map((x) => [x.body.event_type, x.body.job.name])).toEqual([['job_lost', 'Specific B']]);
    expect(cancelled.received.map((x) => [x.body.event_type, x.body.job.name])).toEqual([
      ['job_cancelled', 'Specific A'],
    ]);
    expect(completed.received.map((x) => [x.body.event_type, x.body.job.name])).toEqual([
      ['job_completed', 'Specific C'],
    ]);
    expect(invoice.received.map((x) => x.body.event_type)).toEqual(['invoice_created']);
  });

  it('a specific job or proposal event name receives only that event', async () => {
    const { w, wk } = await setup();
    const created = await receiver('/created');
    await subscribe(w, { target_url: created.url, event_type: 'job_created' });
    const job = await makeJob(w, { name: 'Only Created' });
    await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'x' });
    await move(w, job.id, 'won');
    await wk.drain();
    expect(created.received.map((x) => x.body.event_type)).toEqual(['job_created']);
    expect(created.received[0]!.body).toMatchObject({
      status_changed: false,
      previous_status: null,
      current_status: 'lead',
    });
  });

  it('one subscription of each family receives everything between them, once', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    await subscribe(w, { target_url: r.url, event_type: '*' });
    const job = await makeJob(w, { name: 'Both Families' });
    await move(w, job.id, 'won');
    await wk.drain();
    expect(eventsOf(r)).toEqual(sorted(['job_created', 'job_status_changed', 'job_won']));
    expect(new Set(r.received.map((x) => x.body.event_id)).size).toBe(3);
  });

  it('an upsert by external_ref (created false) is job_updated, or job_status_changed with a new status; never job_created', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    await makeJob(w, { name: 'Upserted', external_ref: 'UP-1' });
    await subscribe(w, { target_url: r.url, event_type: '*' });
    const fill = await w.api.post('/v1/jobs', { name: 'Upserted', external_ref: 'UP-1', notes: 'filled by upsert' });
    expect(fill.status).toBe(200);
    expect(fill.body.created).toBe(false);
    await wk.drain();
    expect(r.received.map((x) => x.body.event_type)).toEqual(['job_updated']);
    expect(r.received[0]!.body.changed_fields).toEqual(['notes']);
    expect(r.received[0]!.body.job.notes).toBe('filled by upsert');
    const moved = await w.api.post('/v1/jobs', {
      name: 'Upserted',
      external_ref: 'UP-1',
      status: 'active',
      description: 'd',
    });
    expect(moved.status).toBe(200);
    await wk.drain();
    expect(r.received.map((x) => x.body.event_type)).toEqual(['job_updated', 'job_status_changed']);
    expect(r.received[1]!.body).toMatchObject({
      status_changed: true,
      previous_status: 'lead',
      current_status: 'active',
    });
    expect(r.received[1]!.body.job.description).toBe('d');
  });

  it('linking the job to a site (PUT /v1/jobs/{id}/location) is job_updated listing location_id', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    const job = await makeJob(w, { name: 'Gets A Site' });
    const site = await w.api.post('/v1/locations', { address: '5 Site St', external_ref: 'S-5' });
    expect(site.status).toBe(201);
    await subscribe(w, { target_url: r.url, event_type: 'job_updated' });
    const res = await w.api.put(`/v1/jobs/${job.id}/location`, { location_id: site.body.data.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await wk.drain();
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.body.changed_fields).toContain('location_id');
    expect(r.received[0]!.body.job).toMatchObject({ location_id: site.body.data.id, location_external_ref: 'S-5' });
  });

  it('a write that fails queues no delivery (deliveries commit with their event)', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    await makeJob(w, { name: 'Only Once' });
    const duplicate = await w.api.post('/v1/jobs', { name: 'Only Once' });
    expect(duplicate.status).toBe(409);
    const badStage = await w.api.post('/v1/jobs', { name: 'Bad Stage', status: 'no-such-stage' });
    expect(badStage.status).toBeGreaterThanOrEqual(400);
    expect(badStage.status).toBeLessThan(500);
    await wk.drain();
    expect(r.received.map((x) => [x.body.event_type, x.body.job.name])).toEqual([['job_created', 'Only Once']]);
    expect(await deliveriesOf(w)).toHaveLength(1);
  });

  it("another workspace's events never reach this workspace's subscriptions", async () => {
    const { w, wk } = await setup();
    const other = await t.workspace();
    const r = await receiver();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    const theirs = await makeJob(other, { name: 'Not Yours' });
    await move(other, theirs.id, 'won');
    await wk.drain();
    expect(r.received).toEqual([]);
    expect(await deliveriesOf(w)).toEqual([]);
  });

  it('two subscriptions to the same URL each get their own delivery', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    const s1 = await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    const s2 = await subscribe(w, { target_url: r.url, event_type: '*' });
    await makeJob(w, { name: 'Twice' });
    await wk.drain();
    expect(r.received).toHaveLength(2);
    expect(r.received[0]!.raw).toBe(r.received[1]!.raw);
    expect(sorted((await deliveriesOf(w)).map((d) => String(d.webhook_id)))).toEqual(
      sorted([String(s1.id), String(s2.id)]),
    );
  });

  it('any 2xx is success', async () => {
    const { w, wk } = await setup();
    const r = await receiver();
    const codes = [200, 201, 202, 204, 299];
    r.respond = () => codes[r.received.length - 1]!;
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    for (let i = 0; i < codes.length; i++) await makeJob(w, { name: `Two Hundred ${i}` });
    await wk.drain();
    expect(r.received).toHaveLength(5);
    const ds = await deliveriesOf(w);
    expect(ds.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(sorted(ds.map((d) => String(d.last_response_status)))).toEqual(sorted(codes.map(String)));
  });
});
