// Rate limits are counted once the caller is known (docs/api-decisions.md, Rate limits): a known key
// by its id, a call without a usable key (missing, made up, revoked) by the client's address, and
// the admin API by address. A flood of made-up keys is limited like one caller, and neither it nor
// callers from many addresses can push a real key's counter out of the store.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '#test/helpers/harness.ts';

const MAX = 5;
let t: TestApp;
// The admin limit stays generous here (the tests provision through it); its own test has its own app.
beforeAll(async () => {
  t = await startApp({ rateLimit: { max: MAX, windowMs: 60_000 } });
});
afterAll(() => t.close());

/** A well-formed key no workspace has: `gw_` + 8 + 40 base62 characters. */
const madeUpKey = () =>
  `gw_${randomBytes(40)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 48)
    .padEnd(48, 'x')}`;

let addresses = 0;
/** A client address of its own (the test's proxy is loopback, whose X-Forwarded-For is believed). */
const fromNewAddress = () => ({
  'x-forwarded-for': `198.51.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`,
});

/** A GET through Fastify's inject from a given peer address. */
async function get(url: string, headers: Record<string, string>, remoteAddress = '127.0.0.1', app = t.app) {
  const res = await app.inject({ method: 'GET', url, headers, remoteAddress });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('calls without a usable key are counted by address', () => {
  it('made-up keys: 401 until the address has used its calls, then 429; a real key from that address is not touched', async () => {
    const ws = await t.workspace();
    const address = fromNewAddress();
    for (let i = 0; i < MAX; i++) {
      const res = await get('/v1/jobs', { 'x-api-key': madeUpKey(), ...address });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const over = await get('/v1/jobs', { 'x-api-key': madeUpKey(), ...address });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      error: 'Too many requests',
      code: 'rate_limited',
      usage: { limit: MAX, remaining: 0 },
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // No key at all, and a revoked-looking forgery of the real key's prefix, count in the same bucket.
    expect((await get('/v1/jobs', address)).status).toBe(429);
    expect((await get('/v1/jobs', { 'x-api-key': ws.key.slice(0, 11) + 'Z'.repeat(40), ...address })).status).toBe(429);
    // The real key, from the same address, has its own untouched bucket.
    const real = await get('/v1/jobs', { 'x-api-key': ws.key, ...address });
    expect(real.status).toBe(200);
    expect(real.headers['x-ratelimit-remaining']).toBe(String(MAX - 1));
  });

  it('a missing key is still 401 (not 400, not 429) while the address has calls left', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      payload: { bogus: true },
      headers: fromNewAddress(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Missing API key');
  });

  it("a flood of made-up keys from many addresses does not push a real key's counter out", async () => {
    const ws = await t.workspace();
    for (let i = 0; i < MAX; i++) expect((await ws.api.get('/v1/jobs')).status).toBe(200);
    expect((await ws.api.get('/v1/jobs')).status).toBe(429);
    // More distinct callers than the window store holds (5,000 entries).
    for (let i = 0; i < 5_200; i++) await get('/v1/jobs', { 'x-api-key': madeUpKey(), ...fromNewAddress() });
    expect((await ws.api.get('/v1/jobs')).status).toBe(429);
    // 5,200 key lookups one after another: on PostgreSQL under the suite's load this passed 30 s.
  }, 120_000);

  it('X-Forwarded-For from a peer that is not a trusted proxy is ignored: the peer is the address', async () => {
    const peer = '203.0.113.7';
    for (let i = 0; i < MAX; i++) {
      expect((await get('/v1/jobs', { 'x-api-key': madeUpKey(), ...fromNewAddress() }, peer)).status).toBe(401);
    }
    expect((await get('/v1/jobs', { 'x-api-key': madeUpKey(), ...fromNewAddress() }, peer)).status).toBe(429);
  });
});

describe('known keys are counted by key', () => {
  it('each key has its own bucket, whatever address it calls from', async () => {
    const ws = await t.workspace();
    for (let i = 0; i < MAX; i++)
      expect((await get('/v1/jobs', { 'x-api-key': ws.key, ...fromNewAddress() })).status).toBe(200);
    expect((await get('/v1/jobs', { 'x-api-key': ws.key, ...fromNewAddress() })).status).toBe(429);
    const second = await t.key(ws.firmId, ws.ownerId);
    expect((await t.as(second).get('/v1/jobs')).status).toBe(200);
  });
});

describe('the admin API is counted by address', () => {
  let admin: TestApp;
  beforeAll(async () => {
    admin = await startApp({ adminRateLimit: { max: MAX, windowMs: 60_000 } });
  });
  afterAll(() => admin.close());
  const call = (token: string, address: Record<string, string>) =>
    get('/admin/v1/workspaces', { authorization: `Bearer ${token}`, ...address }, '127.0.0.1', admin.app);

  it('wrong tokens count too; past the limit even the right token waits; another address does not', async () => {
    const address = fromNewAddress();
    for (let i = 0; i < MAX - 1; i++) expect((await call('guess', address)).status).toBe(401);
    expect((await call(ADMIN_TOKEN, address)).status).toBe(200);
    const over = await call(ADMIN_TOKEN, address);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited', usage: { limit: MAX } });
    expect((await call(ADMIN_TOKEN, fromNewAddress())).status).toBe(200);
  });
});
