// Security headers on every answer (the constant set of platform/security-headers.ts), framework errors in the API's error body,
// and the reference UI still loading under its own Content-Security-Policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Reply, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

const API_CSP = "default-src 'none';frame-ancestors 'none'";

function expectSecurityHeaders(res: Reply, what: string, csp: string | RegExp = API_CSP) {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(res.headers['x-powered-by'], what).toBeUndefined();
  expect(res.headers['strict-transport-security'], what).toBeUndefined();
  if (typeof csp === 'string') expect(res.headers['content-security-policy'], what).toBe(csp);
  else expect(String(res.headers['content-security-policy']), what).toMatch(csp);
}

describe('security headers', () => {
  it('every kind of API answer carries them: success, 4xx of each origin, admin, public routes', async () => {
    const job = (await w.api.post('/v1/jobs', { name: 'Headers' })).body.data;
    const reader = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const answers: Array<[string, Reply]> = [
      ['200', await w.api.get(`/v1/jobs/${job.id}`)],
      ['201', await w.api.post('/v1/jobs', { name: 'Headers 2' })],
      ['204', await w.api.delete(`/v1/jobs/${job.id}`)],
      ['401', await t.anon.get('/v1/jobs')],
      ['403', await reader.post('/v1/jobs', { name: 'No' })],
      ['404 path', await w.api.get('/v1/no-such-thing')],
      ['404 record', await w.api.get('/v1/jobs/2147483647')],
      ['400 validation', await w.api.raw.post('/v1/jobs', { name: 42 })],
      ['400 json', await w.api.raw.post('/v1/jobs', '{"name":')],
      ['413', await w.api.post('/v1/jobs', { name: 'x'.repeat(2_000_000) })],
      ['health', await t.anon.get('/v1/health')],
      ['openapi', await t.anon.get('/v1/openapi.json')],
      ['admin 200', await t.admin.get(`/admin/v1/workspaces/${w.firmId}`)],
      ['admin 401', await t.anon.get('/admin/v1/workspaces')],
    ];
    for (const [what, res] of answers) expectSecurityHeaders(res, what);
    expect(answers.map(([what, res]) => `${what} ${res.status}`)).toContain('204 204');
  });

  it('a path segment over the limit is 414 in the API error body, with the same headers', async () => {
    const normal = await w.api.get('/v1/jobs');
    for (const path of [
      `/v1/jobs/${'1'.repeat(3000)}`,
      `/v1/exports/${'a'.repeat(101)}`,
      `/admin/v1/workspaces/${'9'.repeat(500)}`,
    ]) {
      const res = await w.api.get(path);
      expect(res.status, path).toBe(414);
      expect(res.body, path).toEqual({
        error: 'URI too long',
        code: 'uri_too_long',
        message: 'A path segment may be at most 100 characters',
      });
      expectSecurityHeaders(res, path);
      // The fallback set matches helmet's on every security header it sends.
      for (const [name, value] of Object.entries(normal.headers)) {
        if (/^(x-(?!ratelimit)|content-security|cross-origin|origin-agent|referrer)/.test(name))
          expect(res.headers[name], name).toBe(value);
      }
    }
  });

  it('a path that is not valid percent-encoding is a 400 in the API error body', async () => {
    const res = await w.api.get('/v1/jobs/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Malformed URL', code: 'invalid_request' });
    expectSecurityHeaders(res, 'bad url');
  });
});

describe('the reference UI at /v1/docs', () => {
  it('serves its page and every script and stylesheet it names from this server, allowed by its policy', async () => {
    const page = await t.anon.get('/v1/docs');
    expect(page.status).toBe(200);
    const html = String(page.body);
    expectSecurityHeaders(page, 'docs', /script-src 'self'/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    // No inline script: the policy allows scripts from this server only.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('swagger-ui-bundle.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('swagger-initializer.js'))).toBe(true);
    for (const asset of assets) {
      expect(asset.startsWith('/v1/docs/'), asset).toBe(true);
      const res = await t.anon.get(asset);
      expect(res.status, asset).toBe(200);
      expect(String(res.headers['x-content-type-options'])).toBe('nosniff');
      if (asset.endsWith('.js')) expect(String(res.headers['content-type']), asset).toMatch(/javascript/);
      if (asset.endsWith('.css')) expect(String(res.headers['content-type']), asset).toMatch(/text\/css/);
    }
    // The initializer loads the API's own document, same origin (default-src 'self' allows it).
    const init = String((await t.anon.get('/v1/docs/static/swagger-initializer.js')).body);
    expect(init).toContain('/v1/openapi.json');
  });
});
