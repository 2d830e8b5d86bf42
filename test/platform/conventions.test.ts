// Document 1, Basics, Conventions, Errors, Limits and the changelog's OpenAPI/docs promise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;
const ZULU = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('health', () => {
  it('GET /v1/health needs no key and answers {status: ok, version: v1}', async () => {
    const res = await t.anon.get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: 'v1' });
  });

  it('also answers with a key, even an invalid one', async () => {
    expect((await w.api.get('/v1/health')).body).toEqual({ status: 'ok', version: 'v1' });
    expect((await t.as('garbage').get('/v1/health')).status).toBe(200);
  });
});

describe('unmatched paths', () => {
  it('answer 404 {error: Resource not found} without a key', async () => {
    for (const path of ['/v1/nothing-here', '/nothing', '/v2/jobs', '/v1/jobs/1/unknown-child']) {
      const res = await t.anon.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ error: 'Resource not found' });
    }
  });

  it('answer 404 {error: Resource not found} with a key, for any method', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/nothing-here'],
      ['DELETE', '/v1/job-stages'],
      ['PUT', '/v1/jobs'],
    ]) {
      const res = await w.api.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual({ error: 'Resource not found' });
    }
  });
});

describe('unknown body fields', () => {
  it('POST /v1/jobs names every unknown field at once', async () => {
    const res = await w.api.raw.post('/v1/jobs', { name: 'Unknowns', colour: 'red', size: 3 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_fields');
    expect([...res.body.fields].sort()).toEqual(['colour', 'size']);
    expect(res.body.error).toMatch(/^Unknown fields: /);
    expect(res.body.error).toContain('colour');
    expect(res.body.error).toContain('size');
    expect((await w.api.get('/v1/jobs?q=Unknowns')).body.pagination.total).toBe(0);
  });

  it('a single unknown field is named', async () => {
    const res = await w.api.raw.post('/v1/jobs', { name: 'One unknown', nme: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_fields', fields: ['nme'] });
    expect(res.body.error).toContain('nme');
  });

  it('PATCH /v1/client-accounts/{id} names every unknown field and changes nothing', async () => {
    const acct = await w.api.post('/v1/client-accounts', { name: 'Strict Co' });
    expect(acct.status).toBe(201);
    const res = await w.api.raw.patch(`/v1/client-accounts/${acct.body.data.id}`, {
      name: 'Renamed Co',
      fax: '1',
      website: 'x',
      tier: 2,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_fields');
    expect([...res.body.fields].sort()).toEqual(['fax', 'tier', 'website']);
    expect((await w.api.get(`/v1/client-accounts/${acct.body.data.id}`)).body.data.name).toBe('Strict Co');
  });

  it('unknown query parameters are ignored', async () => {
    const res = await w.api.get('/v1/jobs?utm_source=newsletter');
    expect(res.status).toBe(200);
  });
});

describe('malformed requests', () => {
  it('invalid JSON is a 400', async () => {
    const res = await w.api.raw.post('/v1/jobs', '{"name": "broken",');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Request body is not valid JSON');
  });

  it('invalid JSON on PATCH is a 400 too', async () => {
    const job = await w.api.post('/v1/jobs', { name: 'Patch target' });
    const res = await w.api.raw.patch(`/v1/jobs/${job.body.data.id}`, 'not json');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Request body is not valid JSON');
  });

  it('a body that is JSON but not an object is a 400', async () => {
    for (const body of ['[]', 'null', '"text"', '42']) {
      const res = await w.api.raw.post('/v1/jobs', body);
      expect(res.status, body).toBe(400);
      expect(res.body.error, body).toBeTypeOf('string');
    }
  });

  it('a body over the size limit is 413 Request too large', async () => {
    const res = await w.api.post('/v1/jobs', { name: 'x'.repeat(2_000_000) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Request too large');
  });

  it('without a key, even malformed JSON hears 401, never a 400 (api-decisions: Checks run in this order)', async () => {
    const anon = await t.anon.raw.post('/v1/jobs', '{"name":');
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe('Missing API key');
    const unknownKey = await t.as('gw_' + 'B'.repeat(48)).raw.post('/v1/jobs', '{"name":');
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.body.error).toBe('Invalid API key');
  });

  it('a wrongly typed field is a 400 naming the field', async () => {
    const res = await w.api.raw.post('/v1/jobs', { name: 42 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });

  it('a path id that is not a positive 32-bit integer is a 404', async () => {
    for (const id of ['abc', '1.5', '0', '-1', '99999999999', '2147483648', '12abc']) {
      const res = await w.api.get(`/v1/jobs/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ error: 'Resource not found' });
    }
    const patch = await w.api.patch('/v1/client-accounts/abc', { name: 'x' });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ error: 'Resource not found' });
  });

  it('a path id is plain decimal: hex, octal, binary, signs, fractions, exponents and leading zeros are 404', async () => {
    const job = (await w.api.post('/v1/jobs', { name: 'Fourteen' })).body.data;
    const id: number = job.id;
    expect((await w.api.get(`/v1/jobs/${id}`)).status).toBe(200);
    const spellings = [
      `0x${id.toString(16)}`,
      `0o${id.toString(8)}`,
      `0b${id.toString(2)}`,
      `${id}.0`,
      `+${id}`,
      `0${id}`,
      `00${id}`,
      `${id}e0`,
      ` ${id}`,
      `${id}%20`,
    ];
    for (const spelled of spellings) {
      for (const [method, path] of [
        ['GET', `/v1/jobs/${spelled}`],
        ['PATCH', `/v1/jobs/${spelled}`],
        ['GET', `/v1/jobs/${spelled}/details`],
      ]) {
        const res = await w.api.request(method, path, method === 'GET' ? undefined : { notes: 'x' });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body, `${method} ${path}`).toEqual({ error: 'Resource not found' });
      }
    }
    expect((await w.api.get(`/v1/jobs/${id}`)).body.data.notes).toBeNull();
  });

  it('an integer in a query string is plain decimal too (400 naming it)', async () => {
    for (const q of ['limit=0x10', 'limit=1e1', 'offset=+1', 'offset=01', 'limit=10.0']) {
      const res = await w.api.get(`/v1/jobs?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.field, q).toBe(q.split('=')[0]);
    }
    expect((await w.api.get('/v1/jobs?limit=10&offset=0')).status).toBe(200);
  });

  it('admin path ids follow the same rule', async () => {
    const firm = String(w.firmId);
    expect((await t.admin.get(`/admin/v1/workspaces/${firm}`)).status).toBe(200);
    for (const spelled of [
      `0x${w.firmId.toString(16)}`,
      `${firm}.0`,
      `+${firm}`,
      `0${firm}`,
      `${firm}e0`,
      '2147483648',
      '1e308',
    ]) {
      const res = await t.admin.get(`/admin/v1/workspaces/${spelled}`);
      expect(res.status, spelled).toBe(404);
      expect(res.body, spelled).toEqual({ error: 'Resource not found' });
    }
  });

  it('an absent record is 404', async () => {
    const res = await w.api.get('/v1/jobs/2147483647');
    expect(res.status).toBe(404);
  });
});

describe('paging', () => {
  it('limit above the endpoint maximum is a 400, never silently lowered', async () => {
    const jobs = await w.api.get('/v1/jobs?limit=101');
    expect(jobs.status).toBe(400);
    expect(jobs.body.error).toContain('limit');
    const accounts = await w.api.get('/v1/client-accounts?limit=201');
    expect(accounts.status).toBe(400);
    expect(accounts.body.error).toContain('limit');
    const locations = await w.api.get('/v1/locations?limit=201');
    expect(locations.status).toBe(400);
  });

  it('the maximum itself is accepted and echoed', async () => {
    const jobs = await w.api.get('/v1/jobs?limit=100');
    expect(jobs.status).toBe(200);
    expect(jobs.body.pagination.limit).toBe(100);
    const accounts = await w.api.get('/v1/client-accounts?limit=200');
    expect(accounts.status).toBe(200);
    expect(accounts.body.pagination.limit).toBe(200);
  });

  it('bad limit or offset values are 400', async () => {
    for (const q of ['limit=0', 'limit=-5', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=xyz']) {
      const res = await w.api.get(`/v1/jobs?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('lists use {data, pagination: {total, limit, offset}} with default limit 50', async () => {
    const ws = await t.workspace();
    for (const name of ['First', 'Second', 'Third']) {
      expect((await ws.api.post('/v1/jobs', { name })).status).toBe(201);
    }
    const all = await ws.api.get('/v1/jobs');
    expect(Object.keys(all.body).sort()).toEqual(['data', 'pagination']);
    expect(all.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    // Jobs list newest first.
    expect(all.body.data.map((j: { name: string }) => j.name)).toEqual(['Third', 'Second', 'First']);
    const page1 = await ws.api.get('/v1/jobs?limit=2');
    expect(page1.body.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await ws.api.get('/v1/jobs?limit=2&offset=2');
    expect(page2.body.pagination).toEqual({ total: 3, limit: 2, offset: 2 });
    expect(page2.body.data.map((j: { name: string }) => j.name)).toEqual(['First']);
    const beyond = await ws.api.get('/v1/jobs?offset=10');
    expect(beyond.body).toEqual({ data: [], pagination: { total: 3, limit: 50, offset: 10 } });
  });

  it('single records are wrapped in {data}', async () => {
    const job = await w.api.post('/v1/jobs', { name: 'Wrapped' });
    const res = await w.api.get(`/v1/jobs/${job.body.data.id}`);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.id).toBe(job.body.data.id);
  });
});

describe('updated_after', () => {
  it('an invalid value is a 400 with the documented error', async () => {
    for (const v of ['yesterday', '2026-13-01', '2026-02-30', '12/01/2026', '2026-01-01T25:00:00']) {
      const res = await w.api.get(`/v1/jobs?updated_after=${encodeURIComponent(v)}`);
      expect(res.status, v).toBe(400);
      expect(res.body, v).toMatchObject({ error: 'updated_after must be an ISO 8601 timestamp' });
    }
  });

  it('accepts dates and date-times with or without zone, and sorts oldest updated first', async () => {
    const ws = await t.workspace();
    const a = await ws.api.post('/v1/jobs', { name: 'Sync A' });
    const b = await ws.api.post('/v1/jobs', { name: 'Sync B' });
    await ws.api.patch(`/v1/jobs/${a.body.data.id}`, { notes: 'touched' });
    for (const v of ['2000-01-01', '2000-01-01T00:00:00', '2000-01-01T00:00:00Z', '2000-01-01T00:00:00.123456+02:00']) {
      const res = await ws.api.get(`/v1/jobs?updated_after=${encodeURIComponent(v)}`);
      expect(res.status, v).toBe(200);
      expect(
        res.body.data.map((j: { id: number }) => j.id),
        v,
      ).toEqual([b.body.data.id, a.body.data.id]);
    }
    const after = await ws.api.get(`/v1/jobs?updated_after=${encodeURIComponent(b.body.data.updated_at)}`);
    expect(after.body.data.map((j: { id: number }) => j.id)).toEqual([a.body.data.id]);
    const future = await ws.api.get('/v1/jobs?updated_after=2999-01-01');
    expect(future.body.data).toEqual([]);
  });
});

describe('timestamps', () => {
  it('jobs carry microseconds and no suffix', async () => {
    const job = await w.api.post('/v1/jobs', { name: 'Timestamped' });
    expect(job.body.data.created_at).toMatch(MICRO);
    expect(job.body.data.updated_at).toMatch(MICRO);
    const read = await w.api.get(`/v1/jobs/${job.body.data.id}`);
    expect(read.body.data.created_at).toBe(job.body.data.created_at);
    // UTC: close to the test's own clock.
    const ms = Date.parse(job.body.data.created_at + 'Z');
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });

  it('users carry microseconds and no suffix', async () => {
    const res = await w.api.get('/v1/users');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const u of res.body.data) expect(u.created_at).toMatch(MICRO);
  });

  it('customers and sites end in Z, to the second', async () => {
    const acct = await w.api.post('/v1/client-accounts', { name: 'Zulu Co' });
    expect(acct.body.data.created_at).toMatch(ZULU);
    expect(acct.body.data.updated_at).toMatch(ZULU);
    const site = await w.api.post('/v1/locations', { address: '9 Zulu Way' });
    expect(site.status).toBe(201);
    expect(site.body.data.created_at).toMatch(ZULU);
    expect(site.body.data.updated_at).toMatch(ZULU);
    const ms = Date.parse(acct.body.data.created_at);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});

describe('money', () => {
  async function centsOf(jobId: number) {
    const row = await t.database.db
      .selectFrom('jobs')
      .select('estimated_value_cents')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    return row.estimated_value_cents === null ? null : Number(row.estimated_value_cents);
  }

  it('estimated_value 1234.56 round-trips exactly and is stored as integer cents', async () => {
    const job = await w.api.post('/v1/jobs', { name: 'Money 1', estimated_value: 1234.56 });
    expect(job.status).toBe(201);
    expect(job.body.data.estimated_value).toBe(1234.56);
    expect((await w.api.get(`/v1/jobs/${job.body.data.id}`)).body.data.estimated_value).toBe(1234.56);
    expect(await centsOf(job.body.data.id)).toBe(123456);
  });

  it('binary-float values are read from their decimal text', async () => {
    const cases: [number, number, number][] = [
      [0.1, 10, 0.1],
      [0.2, 20, 0.2],
      [0.1 + 0.2, 30, 0.3],
      [0.3, 30, 0.3],
      [19.99, 1999, 19.99],
      [1.005, 101, 1.01],
      [2.675, 268, 2.68],
      [100, 10000, 100],
      [0, 0, 0],
      [999999.99, 99999999, 999999.99],
    ];
    for (const [sent, cents, back] of cases) {
      const job = await w.api.post('/v1/jobs', { name: `Money ${sent}`, estimated_value: sent });
      expect(job.status, String(sent)).toBe(201);
      expect(job.body.data.estimated_value, String(sent)).toBe(back);
      expect(await centsOf(job.body.data.id), String(sent)).toBe(cents);
    }
  });

  it('raw JSON text with many decimals rounds half up at the cent', async () => {
    const job = await w.api.raw.post('/v1/jobs', '{"name":"Money text","estimated_value":10.125}');
    expect(job.status).toBe(201);
    expect(await centsOf(job.body.data.id)).toBe(1013);
    expect(job.body.data.estimated_value).toBe(10.13);
  });

  it('null clears the value', async () => {
    const job = await w.api.post('/v1/jobs', { name: 'Money null', estimated_value: 5 });
    const res = await w.api.patch(`/v1/jobs/${job.body.data.id}`, { estimated_value: null });
    expect(res.body.data.estimated_value).toBeNull();
    expect(await centsOf(job.body.data.id)).toBeNull();
  });

  it('a negative or non-numeric value is a 400', async () => {
    expect((await w.api.post('/v1/jobs', { name: 'Money neg', estimated_value: -1 })).status).toBe(400);
    expect((await w.api.raw.post('/v1/jobs', { name: 'Money str', estimated_value: '12.00' })).status).toBe(400);
  });
});

describe('rate limits', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await startApp({ rateLimit: { max: 5, windowMs: 60_000 } });
  });
  afterAll(() => r.close());

  it('the call over the limit answers 429 with Retry-After and a usage object', async () => {
    const ws = await r.workspace();
    for (let i = 0; i < 5; i++) {
      const ok = await ws.api.get('/v1/jobs');
      expect(ok.status, `call ${i + 1}`).toBe(200);
    }
    const res = await ws.api.get('/v1/jobs');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: 'Too many requests', code: 'rate_limited' });
    expect(res.body.usage).toMatchObject({ limit: 5, remaining: 0 });
    expect((res.body.usage as { reset_seconds: number }).reset_seconds).toBeGreaterThan(0);
    expect((res.body.usage as { reset_seconds: number }).reset_seconds).toBeLessThanOrEqual(60);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Writes are limited by the same bucket, and nothing is written.
    const write = await ws.api.post('/v1/jobs', { name: 'Throttled' });
    expect(write.status).toBe(429);
  });

  it('each key has its own bucket', async () => {
    const ws = await r.workspace();
    for (let i = 0; i < 6; i++) await ws.api.get('/v1/jobs');
    expect((await ws.api.get('/v1/jobs')).status).toBe(429);
    const other = await r.key(ws.firmId, ws.ownerId);
    expect((await r.as(other).get('/v1/jobs')).status).toBe(200);
    const ws2 = await r.workspace();
    expect((await ws2.api.get('/v1/jobs')).status).toBe(200);
  });

  it("calls with a forged key sharing a real key's public prefix do not use up that key's bucket", async () => {
    const ws = await r.workspace();
    // The prefix is public (shown for support); the secret part is wrong.
    const forged = ws.key.slice(0, 11) + 'Z'.repeat(40);
    expect(forged).not.toBe(ws.key);
    for (let i = 0; i < 6; i++) {
      const res = await r.as(forged).get('/v1/jobs');
      expect([401, 429]).toContain(res.status);
    }
    const real = await ws.api.get('/v1/jobs');
    expect(real.status).toBe(200);
  });

  it('successful calls report x-ratelimit headers', async () => {
    const ws = await r.workspace();
    const res = await ws.api.get('/v1/jobs');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('health and the OpenAPI document are not limited', async () => {
    const ws = await r.workspace();
    for (let i = 0; i < 12; i++) {
      expect((await r.anon.get('/v1/health')).status).toBe(200);
      expect((await ws.api.get('/v1/health')).status).toBe(200);
      expect((await r.anon.get('/v1/openapi.json')).status).toBe(200);
    }
    // And those calls did not use the key's bucket.
    expect((await ws.api.get('/v1/jobs')).status).toBe(200);
  });
});

describe('CORS is off', () => {
  it('a request with an Origin header gets no Access-Control-* headers', async () => {
    const res = await w.api.get('/v1/jobs', { origin: 'https://evil.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual([]);
    const health = await t.anon.get('/v1/health', { origin: 'https://evil.example' });
    expect(health.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an OPTIONS preflight is not answered with CORS headers', async () => {
    const res = await t.anon.request('OPTIONS', '/v1/jobs', undefined, {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });
});

describe('OpenAPI and docs', () => {
  it('GET /v1/openapi.json is OpenAPI 3.1 with the v1 paths and no admin paths', async () => {
    const res = await t.anon.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/v1/jobs',
      '/v1/jobs/{id}',
      '/v1/client-accounts',
      '/v1/locations',
      '/v1/job-tags',
      '/v1/health',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(paths.filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(res.body.paths['/v1/jobs'].get).toBeDefined();
    expect(res.body.paths['/v1/jobs'].post).toBeDefined();
    expect(res.body.paths['/v1/jobs/{id}'].patch).toBeDefined();
  });

  it('every id a request takes (body, query or path) is bounded to a positive 32-bit integer', async () => {
    const doc = (await t.anon.get('/v1/openapi.json')).body;
    const idLike = (name: string) => name === 'id' || /_ids?$/.test(name);
    const offenders: string[] = [];
    const check = (where: string, name: string, schema: any) => {
      // Ids of records; event and delivery ids (UUID text) and external ids are strings by design.
      const text = JSON.stringify(schema);
      if (!/"integer"/.test(text)) return;
      if (!text.includes('"minimum":1') || !text.includes('"maximum":2147483647')) offenders.push(`${where} ${name}`);
    };
    const walk = (where: string, schema: any) => {
      if (!schema || typeof schema !== 'object') return;
      for (const [name, sub] of Object.entries<any>(schema.properties ?? {})) {
        if (idLike(name)) check(where, name, sub);
        walk(`${where}.${name}`, sub);
      }
      for (const k of ['items', 'additionalProperties']) walk(where, schema[k]);
      for (const k of ['anyOf', 'oneOf', 'allOf']) for (const sub of schema[k] ?? []) walk(where, sub);
    };
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        for (const p of op.parameters ?? []) if (idLike(p.name)) check(`${method} ${path} ${p.in}`, p.name, p.schema);
        walk(`${method} ${path} body`, op.requestBody?.content?.['application/json']?.schema);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('GET /v1/docs serves an HTML reference', async () => {
    let res = await t.anon.get('/v1/docs');
    for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) {
      const location = String(res.headers.location);
      res = await t.anon.get(
        location.startsWith('/') ? location : new URL(location, 'http://localhost/v1/docs').pathname,
      );
    }
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(String(res.body)).toMatch(/<html/i);
  });
});
