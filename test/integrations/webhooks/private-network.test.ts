// Webhook targets on private, loopback and link-local addresses are refused unless the operator
// allows them (src/platform/outbound.ts): at subscription time for addresses and loopback names,
// and at connect time for names that resolve to such an address.
import dns from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { deliveryDetail, deliveriesOf, perTest, subscribe } from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ allowPrivateNetwork: false });
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

const PRIVATE_TARGETS = [
  'http://127.0.0.1/hook',
  'http://127.0.0.1:8080/hook',
  'https://127.1.2.3/hook',
  'http://localhost/hook',
  'http://localhost:3000/hook',
  'http://LOCALHOST/hook',
  'http://api.localhost/hook',
  'http://10.0.0.1/hook',
  'http://10.255.255.254/x',
  'http://172.16.0.1/x',
  'http://172.31.255.255/x',
  'http://192.168.1.1/x',
  'http://169.254.169.254/latest/meta-data/',
  'http://0.0.0.0/x',
  'http://100.64.0.1/x',
  'http://[::1]/hook',
  'http://[::1]:9000/hook',
  'http://[::]/x',
  'http://[fe80::1]/x',
  'http://[fc00::1]/x',
  'http://[fd12:3456::1]/x',
  'http://[::ffff:127.0.0.1]/x',
  'http://[::ffff:10.0.0.1]/x',
  // Every IPv6 form of a private or loopback IPv4 address: IPv4-compatible, mapped in hex,
  // translated, NAT64 (and its local-use prefix), 6to4 and Teredo's inverted client.
  'http://[::127.0.0.1]/x',
  'http://[::7f00:1]/x',
  'http://[::10.0.0.1]/x',
  'http://[::ffff:7f00:1]/x',
  'http://[::ffff:0:7f00:1]/x',
  'http://[64:ff9b::127.0.0.1]/x',
  'http://[64:ff9b::a00:1]/x',
  'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'http://[64:ff9b:1::a00:1]/x',
  'http://[2002:7f00:1::1]/x',
  'http://[2002:c0a8:101::1]/x',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
  'http://[fec0::1]/x',
  'http://2130706433/x',
  'http://0x7f.0.0.1/x',
  'http://127.1/x',
];

function expectPrivateTarget(res: { status: number; body: any }, label: string) {
  expect(res.status, label).toBe(400);
  expect(res.body, label).toMatchObject({
    error: 'target_url must be a public address',
    code: 'private_target',
    field: 'target_url',
  });
  expect(String(res.body.message), label).toMatch(/private|loopback/i);
}

describe('subscription time (allowPrivateNetwork false)', () => {
  it('POST /v1/webhooks refuses private, loopback and link-local targets with 400 private_target', async () => {
    const w = await t.workspace();
    for (const url of PRIVATE_TARGETS) {
      expectPrivateTarget(await w.api.post('/v1/webhooks', { target_url: url, event_type: 'all' }), url);
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('PATCH /v1/webhooks/{id} refuses them too and keeps the old URL', async () => {
    const w = await t.workspace();
    const s = await subscribe(w, { target_url: 'https://hooks.example.com/ok' });
    for (const url of ['http://127.0.0.1/hook', 'http://localhost/hook', 'http://10.0.0.1/hook', 'http://[::1]/hook']) {
      expectPrivateTarget(await w.api.patch(`/v1/webhooks/${s.id}`, { target_url: url }), url);
    }
    expect((await w.api.get('/v1/webhooks')).body.data).toEqual([s]);
  });

  it('public addresses and names are accepted', async () => {
    const w = await t.workspace();
    for (const url of [
      'https://hooks.example.com/x',
      'http://93.184.216.34/x',
      'https://8.8.8.8/x',
      'http://[2606:4700::1111]/x',
      // The same forms of a public IPv4 address are public.
      'http://[64:ff9b::808:808]/x',
      'http://[2002:808:808::1]/x',
      'http://[::ffff:808:808]/x',
      'https://172.32.0.1/x',
      'https://192.169.0.1/x',
    ]) {
      const res = await w.api.post('/v1/webhooks', { target_url: url });
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
    }
  });

  it('the scheme check comes first: ftp://127.0.0.1 is the scheme error', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/webhooks', { target_url: 'ftp://127.0.0.1/x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('target_url must start with http:// or https://');
  });
});

async function insertSubscription(w: Workspace, targetUrl: string, eventType = 'job_created'): Promise<number> {
  const now = '2026-01-01T00:00:00.000000';
  const row = await t.database.db
    .insertInto('webhook_subscriptions')
    .values({
      firm_id: w.firmId,
      event_type: eventType,
      target_url: targetUrl,
      secret: null,
      active: 1,
      created_by_user_id: w.ownerId,
      deactivated_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A name other than `localhost` that this machine resolves to a loopback address, if any. */
async function loopbackName(): Promise<string | null> {
  for (const name of [os.hostname(), 'runsc', 'vm']) {
    if (!name || name.toLowerCase() === 'localhost') continue;
    try {
      const addresses = await dns.lookup(name, { all: true });
      if (addresses.length > 0 && addresses.every((a) => a.address.startsWith('127.') || a.address === '::1'))
        return name;
    } catch {
      /* not resolvable here */
    }
  }
  return null;
}

describe('send time (a worker with allowPrivateNetwork false)', () => {
  it('a stored localhost URL (bypassing the API check) fails the attempt; the receiver gets nothing', async () => {
    const r = await receiver();
    const w = await t.workspace();
    const port = new URL(r.url).port;
    const id = await insertSubscription(w, `http://localhost:${port}/hooks`);
    await makeJob(w, { name: 'Never Sent' });
    const wk = worker({ allowPrivateNetwork: false });
    await wk.drain();
    expect(r.received).toEqual([]);
    const [d] = await deliveriesOf(w);
    expect(d).toMatchObject({
      webhook_id: id,
      status: 'pending',
      attempts: 1,
      last_response_status: null,
      delivered_at: null,
    });
    expect(d.last_error).toMatch(/private/i);
    const detail = await deliveryDetail(w, d.id);
    expect(detail.attempt_log).toHaveLength(1);
    expect(detail.attempt_log[0].error).toMatch(/private/i);
  });

  it('stored IP literals (127.0.0.1, [::1], IPv4-mapped and -compatible loopback) are refused the same way', async () => {
    const r = await receiver();
    const w = await t.workspace();
    const port = new URL(r.url).port;
    await insertSubscription(w, `http://127.0.0.1:${port}/hooks`);
    await insertSubscription(w, `http://[::1]:${port}/hooks`);
    // [::ffff:127.0.0.1] reaches the receiver on this machine's dual-stack sockets.
    await insertSubscription(w, `http://[::ffff:127.0.0.1]:${port}/hooks`);
    await insertSubscription(w, `http://[::127.0.0.1]:${port}/hooks`);
    await makeJob(w, { name: 'Literal' });
    const wk = worker({ allowPrivateNetwork: false });
    await wk.drain();
    expect(r.received).toEqual([]);
    const ds = await deliveriesOf(w);
    expect(ds).toHaveLength(4);
    for (const d of ds) {
      expect(d).toMatchObject({ status: 'pending', attempts: 1 });
      expect(d.last_error).toMatch(/private/i);
    }
  });

  it('a public-looking name that resolves to loopback is refused when it resolves, then sent by a permissive worker', async () => {
    const name = await loopbackName();
    if (name === null) {
      // No such name on this machine: the localhost test above covers the name check.
      expect(name).toBeNull();
      return;
    }
    const r = await receiver();
    const w = await t.workspace();
    const port = new URL(r.url).port;
    // The name is not a loopback name, so the API accepts it; the check happens at connect time.
    const s = await subscribe(w, { target_url: `http://${name}:${port}/hooks`, event_type: 'job_created' });
    await makeJob(w, { name: 'Resolves To Loopback' });
    const strict = worker({ allowPrivateNetwork: false });
    await strict.drain();
    expect(r.received).toEqual([]);
    const [d] = await deliveriesOf(w);
    expect(d).toMatchObject({ webhook_id: s.id, status: 'pending', attempts: 1, last_response_status: null });
    expect(d.last_error).toMatch(/private/i);

    // The same URL is reachable: a worker that allows private targets delivers it on the retry.
    const permissive = worker({ allowPrivateNetwork: true });
    permissive.clock.advance(2 * 60_000);
    await permissive.drain();
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.body.job.name).toBe('Resolves To Loopback');
    expect((await deliveriesOf(w))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
