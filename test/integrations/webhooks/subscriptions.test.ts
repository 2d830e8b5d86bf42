// /v1/webhooks: subscription endpoints (document 1, Subscription endpoints and Subscription names).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import {
  BUSINESS_EVENTS,
  DOTTED_ALIASES,
  JOB_PROPOSAL_EVENTS,
  SUBSCRIPTION_KEYS,
  Z,
  deliveryDetail,
  deliveriesOf,
  move,
  sorted,
  startWorker,
  subscribe,
  verifyDelivery,
  type TestWorker,
} from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}
function worker(): TestWorker {
  const w = startWorker(t);
  cleanups.push(() => w.settle());
  return w;
}

const TARGET = 'https://hooks.example.com/groundwork';

describe('POST /v1/webhooks', () => {
  it('201 with the subscription: id, event_type, target_url, active, has_secret, created_at; never the secret', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/webhooks', {
      target_url: TARGET,
      event_type: 'job_won',
      secret: 'whsec-top-secret-1',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      event_type: 'job_won',
      target_url: TARGET,
      active: true,
      has_secret: true,
      created_at: expect.stringMatching(Z),
    });
    expect(Number.isInteger(res.body.data.id)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('whsec-top-secret-1');
    const list = await w.api.get('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [res.body.data] });
    expect(JSON.stringify(list.body)).not.toContain('whsec-top-secret-1');
    const patched = await w.api.patch(`/v1/webhooks/${res.body.data.id}`, { target_url: `${TARGET}/2` });
    expect(JSON.stringify(patched.body)).not.toContain('whsec-top-secret-1');
    expect(Object.keys(patched.body.data).sort()).toEqual(SUBSCRIPTION_KEYS);
    const deleted = await w.api.delete(`/v1/webhooks/${res.body.data.id}`);
    expect(JSON.stringify(deleted.body)).not.toContain('whsec-top-secret-1');
    expect(Object.keys(deleted.body.data).sort()).toEqual(SUBSCRIPTION_KEYS);
  });

  it('without a secret: has_secret false', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/webhooks', { target_url: TARGET, event_type: 'job_lost' });
    expect(res.status).toBe(201);
    expect(res.body.data.has_secret).toBe(false);
  });

  it('event_type defaults to job_status_changed', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/webhooks', { target_url: TARGET });
    expect(res.status).toBe(201);
    expect(res.body.data.event_type).toBe('job_status_changed');
  });

  it('a dotted alias is accepted and stored as the underscore name', async () => {
    const w = await t.workspace();
    for (const [alias, name] of [
      ['estimate.revised', 'estimate_revised'],
      ['job.won', 'job_won'],
      ['work_order.completed', 'work_order_completed'],
      ['payment.received', 'payment_received'],
      ['change_order.approved', 'change_order_approved'],
    ]) {
      const res = await w.api.post('/v1/webhooks', { target_url: TARGET, event_type: alias });
      expect(res.status, alias).toBe(201);
      expect(res.body.data.event_type, alias).toBe(name);
    }
    const list = await w.api.get('/v1/webhooks');
    expect(list.body.data.map((s: any) => s.event_type)).toEqual([
      'change_order_approved',
      'payment_received',
      'work_order_completed',
      'job_won',
      'estimate_revised',
    ]);
  });

  it('every accepted name subscribes: each business event, each alias, each job and proposal event, all and *', async () => {
    const w = await t.workspace();
    for (const name of [...BUSINESS_EVENTS, ...JOB_PROPOSAL_EVENTS, 'all', '*']) {
      const res = await w.api.post('/v1/webhooks', { target_url: TARGET, event_type: name });
      expect(res.status, name).toBe(201);
      expect(res.body.data.event_type, name).toBe(name);
    }
    for (const alias of DOTTED_ALIASES) {
      const res = await w.api.post('/v1/webhooks', { target_url: TARGET, event_type: alias });
      expect(res.status, alias).toBe(201);
      expect(res.body.data.event_type, alias).toBe(alias.replace('.', '_'));
    }
  });

  it('the OpenAPI document says which events `all` and `*` receive, by name, and that all has no proposal events', async () => {
    const doc = (await t.anon.get('/v1/openapi.json')).body;
    const op = doc.paths['/v1/webhooks'].post;
    const field = op.requestBody.content['application/json'].schema.properties.event_type;
    const patchField =
      doc.paths['/v1/webhooks/{id}'].patch.requestBody.content['application/json'].schema.properties.event_type;
    for (const text of [op.description as string, field.description as string, patchField.description as string]) {
      const all = /`all` receives every business event, exactly ([^;]+);/.exec(text)?.[1]?.split(', ');
      expect(all).toEqual(BUSINESS_EVENTS);
      const star = /`\*` receives every job and proposal event, exactly ([^.]+)\./.exec(text)?.[1]?.split(', ');
      expect(star).toEqual(JOB_PROPOSAL_EVENTS);
      expect(text).toContain('`all` never sends a job or proposal event (so no proposal_accepted)');
      expect(text).toContain('create two subscriptions');
    }
  });

  it('400 event_type must be one of ... listing every accepted name', async () => {
    const w = await t.workspace();
    const prefix = 'event_type must be one of ';
    for (const bad of ['bogus', '', 'job.created', 'JOB_WON', 'job_won ', 'estimate-revised', 'everything', 'job_*']) {
      const res = await w.api.post('/v1/webhooks', { target_url: TARGET, event_type: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error!.startsWith(prefix), res.body.error).toBe(true);
      const listed = res.body.error!.slice(prefix.length).split(', ');
      expect(sorted(listed)).toEqual(
        sorted([...BUSINESS_EVENTS, ...DOTTED_ALIASES, ...JOB_PROPOSAL_EVENTS, 'all', '*']),
      );
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed).toHaveLength(14 + 14 + 7 + 2);
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('400 target_url is required: missing, null, empty or blank', async () => {
    const w = await t.workspace();
    for (const body of [
      {},
      { event_type: 'job_won' },
      { target_url: null },
      { target_url: '' },
      { target_url: '   ' },
    ]) {
      const res = await w.api.post('/v1/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe('target_url is required');
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('400 target_url must start with http:// or https://', async () => {
    const w = await t.workspace();
    for (const url of [
      'ftp://x',
      'example.com',
      'example.com/hooks',
      '//example.com/x',
      'mailto:a@example.com',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'httpx://example.com',
    ]) {
      const res = await w.api.post('/v1/webhooks', { target_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe('target_url must start with http:// or https://');
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('a URL with the right scheme but no valid host is a 400 naming target_url', async () => {
    const w = await t.workspace();
    for (const url of ['http://', 'https://', 'http://exa mple.com/x', 'http://[::1/x']) {
      const res = await w.api.post('/v1/webhooks', { target_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(/target_url/);
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('http:// and https:// are both accepted', async () => {
    const w = await t.workspace();
    expect((await w.api.post('/v1/webhooks', { target_url: 'http://hooks.example.com/a' })).status).toBe(201);
    expect((await w.api.post('/v1/webhooks', { target_url: 'https://hooks.example.com/a' })).status).toBe(201);
  });

  it('target_url: 500 characters is accepted, 501 is a 400', async () => {
    const w = await t.workspace();
    const base = 'https://hooks.example.com/';
    const ok = base + 'a'.repeat(500 - base.length);
    expect(ok).toHaveLength(500);
    const created = await w.api.post('/v1/webhooks', { target_url: ok });
    expect(created.status).toBe(201);
    expect(created.body.data.target_url).toBe(ok);
    const res = await w.api.post('/v1/webhooks', { target_url: ok + 'a' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/target_url/);
    expect(res.body.error).toMatch(/500/);
    expect((await w.api.get('/v1/webhooks')).body.data).toHaveLength(1);
  });

  it('secret: 128 characters is accepted, 129 is a 400', async () => {
    const w = await t.workspace();
    const created = await w.api.post('/v1/webhooks', { target_url: TARGET, secret: 's'.repeat(128) });
    expect(created.status).toBe(201);
    expect(created.body.data.has_secret).toBe(true);
    const res = await w.api.post('/v1/webhooks', { target_url: TARGET, secret: 's'.repeat(129) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/secret/);
    expect(res.body.error).toMatch(/128/);
    expect(JSON.stringify(res.body)).not.toContain('s'.repeat(129));
    expect((await w.api.get('/v1/webhooks')).body.data).toHaveLength(1);
  });

  it('an empty secret means unsigned deliveries (has_secret false)', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/webhooks', { target_url: TARGET, secret: '' });
    expect(res.status).toBe(201);
    expect(res.body.data.has_secret).toBe(false);
  });

  it('400 for an unknown field, naming it; wrong types are 400', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/webhooks', { target_url: TARGET, events: ['job_won'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Unknown fields: events', fields: ['events'] });
    for (const body of [
      { target_url: 42 },
      { target_url: TARGET, event_type: 7 },
      { target_url: TARGET, secret: true },
      { target_url: TARGET, event_type: ['job_won'] },
    ]) {
      const bad = await w.api.raw.post('/v1/webhooks', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });
});

describe('GET /v1/webhooks', () => {
  it('newest first, deactivated ones included with active false, only this workspace', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const a = await subscribe(w, { target_url: `${TARGET}/a`, event_type: 'all' });
    const b = await subscribe(w, { target_url: `${TARGET}/b`, event_type: '*' });
    const c = await subscribe(w, { target_url: `${TARGET}/c` });
    await subscribe(other, { target_url: `${TARGET}/other` });
    expect((await w.api.delete(`/v1/webhooks/${b.id}`)).status).toBe(200);
    const res = await w.api.get('/v1/webhooks');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual([c, { ...b, active: false }, a]);
  });

  it('an empty list is {data: []}', async () => {
    const w = await t.workspace();
    expect((await w.api.get('/v1/webhooks')).body).toEqual({ data: [] });
  });

  it('401 without a key', async () => {
    const res = await t.anon.get('/v1/webhooks');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'Missing API key', message: 'Provide API key in X-API-Key header' });
  });
});

describe('PATCH /v1/webhooks/{id}', () => {
  it('changes event_type (alias stored as the underscore name) and target_url; other fields stay', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, secret: 'k1' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { event_type: 'job.completed' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual({ ...s, event_type: 'job_completed' });
    const res2 = await w.api.patch(`/v1/webhooks/${s.id}`, { target_url: 'http://elsewhere.example.com/h' });
    expect(res2.status).toBe(200);
    expect(res2.body.data).toEqual({ ...s, event_type: 'job_completed', target_url: 'http://elsewhere.example.com/h' });
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([res2.body.data]);
  });

  it('an empty body changes nothing', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won', secret: 'k' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(s);
  });

  it('validation matches POST: event_type list, URL scheme, lengths, unknown fields', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    const badType = await w.api.patch(`/v1/webhooks/${s.id}`, { event_type: 'nope' });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/^event_type must be one of /);
    const scheme = await w.api.patch(`/v1/webhooks/${s.id}`, { target_url: 'ftp://x' });
    expect(scheme.status).toBe(400);
    expect(scheme.body.error).toBe('target_url must start with http:// or https://');
    const long = await w.api.patch(`/v1/webhooks/${s.id}`, { target_url: 'https://x.example.com/' + 'a'.repeat(500) });
    expect(long.status).toBe(400);
    const secret = await w.api.patch(`/v1/webhooks/${s.id}`, { secret: 'x'.repeat(129) });
    expect(secret.status).toBe(400);
    const unknown = await w.api.raw.patch(`/v1/webhooks/${s.id}`, { url: TARGET });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: url', fields: ['url'] });
    const active = await w.api.raw.patch(`/v1/webhooks/${s.id}`, { active: 'yes' });
    expect(active.status).toBe(400);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('400 target_url cannot be empty (empty, blank or null); nothing changes', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET });
    for (const target_url of ['', '  ', null]) {
      const res = await w.api.patch(`/v1/webhooks/${s.id}`, { target_url });
      expect(res.status, JSON.stringify(target_url)).toBe(400);
      expect(res.body.error).toBe('target_url cannot be empty');
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('PATCH event_type null is a 400 listing the accepted names (not a silent reset to the default)', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { event_type: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^event_type must be one of all, \*, job_won, /);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('a failed PATCH changes nothing, even the fields that were valid', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, {
      target_url: 'https://new.example.com/x',
      event_type: 'bad',
    });
    expect(res.status).toBe(400);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('a new secret rotates it: deliveries afterwards are signed with the new secret only', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'old-secret' });
    await makeJob(w, { name: 'Before Rotation' });
    await wk.drain();
    expect(r.received).toHaveLength(1);
    expect(verifyDelivery('old-secret', r.received[0]!.headers, r.received[0]!.raw)).toBe(true);

    // One delivery queued before the rotation and sent after it, one queued after it.
    await makeJob(w, { name: 'Queued Before' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { secret: 'new-secret' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...s, has_secret: true });
    expect(JSON.stringify(res.body)).not.toContain('new-secret');
    await makeJob(w, { name: 'Queued After' });
    await wk.drain();
    expect(r.received).toHaveLength(3);
    for (const got of r.received.slice(1)) {
      expect(verifyDelivery('new-secret', got.headers, got.raw)).toBe(true);
      expect(verifyDelivery('old-secret', got.headers, got.raw)).toBe(false);
    }
    expect(sorted(r.received.slice(1).map((x) => x.body.job.name))).toEqual(['Queued After', 'Queued Before']);
  });

  it('a secret added to an unsigned subscription signs from then on', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    expect(s.has_secret).toBe(false);
    await makeJob(w, { name: 'Unsigned' });
    await wk.drain();
    expect(r.received[0]!.headers['x-service-signature']).toBeUndefined();
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { secret: 'added' });
    expect(res.body.data.has_secret).toBe(true);
    await makeJob(w, { name: 'Signed' });
    await wk.drain();
    expect(r.received).toHaveLength(2);
    expect(verifyDelivery('added', r.received[1]!.headers, r.received[1]!.raw)).toBe(true);
  });

  it('secret null or "" removes signing: has_secret false and no X-Service-Signature', async () => {
    for (const secret of [null, '']) {
      const w = await t.workspace();
      const r = await receiver();
      const wk = worker();
      const s = await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'to-remove' });
      const res = await w.api.patch(`/v1/webhooks/${s.id}`, { secret });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...s, has_secret: false });
      await makeJob(w, { name: 'No Signature' });
      await wk.drain();
      expect(r.received).toHaveLength(1);
      expect(r.received[0]!.headers['x-service-signature']).toBeUndefined();
      expect(r.received[0]!.headers['x-service-timestamp']).toMatch(/^\d+$/);
    }
  });

  it('active true reactivates a deleted subscription; events after it are delivered again', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    expect((await w.api.delete(`/v1/webhooks/${s.id}`)).body.data.active).toBe(false);
    await makeJob(w, { name: 'While Inactive' });
    expect(await deliveriesOf(w)).toEqual([]);
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { active: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(s);
    await makeJob(w, { name: 'After Reactivation' });
    await wk.drain();
    expect(r.received.map((x) => x.body.job.name)).toEqual(['After Reactivation']);
  });

  it('active false deactivates like DELETE (pending deliveries abandoned)', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Pending' });
    const res = await w.api.patch(`/v1/webhooks/${s.id}`, { active: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...s, active: false });
    await wk.drain();
    expect(r.received).toEqual([]);
    const [d] = await deliveriesOf(w);
    expect(d).toMatchObject({ status: 'abandoned', attempts: 0, next_attempt_at: null });
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('200 with the subscription, active false; history kept and still listed', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'k' });
    await makeJob(w, { name: 'Delivered' });
    await wk.drain();
    const before = await deliveriesOf(w);
    expect(before).toHaveLength(1);
    expect(before[0].status).toBe('succeeded');

    const res = await w.api.delete(`/v1/webhooks/${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ...s, active: false } });
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([{ ...s, active: false }]);
    // The delivery log keeps what was sent.
    expect(await deliveriesOf(w)).toEqual(before);
    expect((await deliveryDetail(w, before[0].id)).attempt_log).toHaveLength(1);
    // Deleting again is harmless.
    const again = await w.api.delete(`/v1/webhooks/${s.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...s, active: false });
  });

  it('pending deliveries become abandoned and are never sent; later events queue nothing for it', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const s = await subscribe(w, { target_url: r.url, event_type: '*' });
    const keep = await subscribe(w, { target_url: r.url.replace('/hooks', '/keep'), event_type: '*' });
    const job = await makeJob(w, { name: 'Abandon Me' });
    await move(w, job.id, 'active');
    const pending = await deliveriesOf(w, `&webhook_id=${s.id}`);
    expect(pending.map((d) => d.status)).toEqual(['pending', 'pending']);

    expect((await w.api.delete(`/v1/webhooks/${s.id}`)).status).toBe(200);
    const abandoned = await deliveriesOf(w, `&webhook_id=${s.id}`);
    expect(abandoned).toHaveLength(2);
    for (const d of abandoned)
      expect(d).toMatchObject({ status: 'abandoned', attempts: 0, next_attempt_at: null, delivered_at: null });

    await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'after delete' });
    await wk.drain();
    // Only the other subscription's three deliveries went out.
    expect(r.received.every((x) => x.headers['x-service-event'] !== undefined)).toBe(true);
    expect(sorted(r.received.map((x) => x.body.event_type))).toEqual([
      'job_created',
      'job_status_changed',
      'job_updated',
    ]);
    expect(await deliveriesOf(w, `&webhook_id=${s.id}`)).toEqual(abandoned);
    expect((await deliveriesOf(w, `&webhook_id=${keep.id}`)).map((d) => d.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    for (const d of abandoned) expect((await deliveryDetail(w, d.id)).attempt_log).toEqual([]);
  });
});

describe('not found, permissions and roles', () => {
  it("404 Webhook subscription not found for an unknown id and for another workspace's id (PATCH, DELETE)", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await subscribe(other, { target_url: TARGET, event_type: 'job_won', secret: 'theirs' });
    for (const id of [999_999, theirs.id]) {
      const patch = await w.api.patch(`/v1/webhooks/${id}`, { target_url: 'https://attacker.example.com/' });
      expect(patch.status).toBe(404);
      expect(patch.body).toEqual({ error: 'Webhook subscription not found' });
      const del = await w.api.delete(`/v1/webhooks/${id}`);
      expect(del.status).toBe(404);
      expect(del.body).toEqual({ error: 'Webhook subscription not found' });
    }
    expect((await other.api.get('/v1/webhooks')).body.data).toEqual([theirs]);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('a path id that is not a positive integer is 404', async () => {
    const w = await t.workspace();
    for (const id of ['abc', '0', '-1']) {
      expect((await w.api.patch(`/v1/webhooks/${id}`, { active: true })).status).toBe(404);
      expect((await w.api.delete(`/v1/webhooks/${id}`)).status).toBe(404);
    }
  });

  it('403 API key lacks job write permission for a read-only key on POST, PATCH and DELETE', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const expected = {
      error: 'API key lacks job write permission',
      code: 'missing_permission',
      permission: 'write_jobs',
    };
    const post = await ro.post('/v1/webhooks', { target_url: TARGET });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject(expected);
    const patch = await ro.patch(`/v1/webhooks/${s.id}`, { event_type: 'all' });
    expect(patch.status).toBe(403);
    expect(patch.body).toMatchObject(expected);
    const del = await ro.delete(`/v1/webhooks/${s.id}`);
    expect(del.status).toBe(403);
    expect(del.body).toMatchObject(expected);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('GET /v1/webhooks works with any valid key (even one without read_jobs)', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    for (const perms of [['read_jobs'], ['read_measurements'], ['write_measurements']]) {
      const res = await t.as(await t.key(w.firmId, w.ownerId, perms)).get('/v1/webhooks');
      expect(res.status, perms.join()).toBe(200);
      expect(res.body.data).toEqual([s]);
    }
  });

  it('a viewer-role user is refused writes (403) but can list', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_won' });
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    const post = await viewer.api.post('/v1/webhooks', { target_url: TARGET });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject({ error: 'Viewer cannot make changes', code: 'viewer_read_only' });
    expect((await viewer.api.patch(`/v1/webhooks/${s.id}`, { event_type: 'all' })).status).toBe(403);
    expect((await viewer.api.delete(`/v1/webhooks/${s.id}`)).status).toBe(403);
    const list = await viewer.api.get('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([s]);
  });

  it('a member with write_jobs can manage subscriptions', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const res = await member.api.post('/v1/webhooks', { target_url: TARGET, event_type: 'all' });
    expect(res.status).toBe(201);
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([res.body.data]);
  });
});

describe('delivery detail of a deactivated subscription', () => {
  it('GET /v1/webhooks/deliveries/{id} still answers for an abandoned delivery', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: TARGET, event_type: 'job_created' });
    await makeJob(w, { name: 'Abandoned Detail' });
    await w.api.delete(`/v1/webhooks/${s.id}`);
    const [d] = await deliveriesOf(w);
    const detail = await deliveryDetail(w, d.id);
    expect(detail).toMatchObject({ id: d.id, webhook_id: s.id, status: 'abandoned', attempts: 0, attempt_log: [] });
    expect(detail.payload.job.name).toBe('Abandoned Detail');
  });
});
