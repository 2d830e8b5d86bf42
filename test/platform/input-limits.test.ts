// Input the databases cannot store as sent: refused or cut up front on both engines, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

describe('text with NUL characters', () => {
  it('is a 400 naming the field in a body, and nothing is written', async () => {
    const res = await w.api.post('/v1/jobs', { name: 'Lot\u0000A', company: 'Acme' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_text', field: 'name' });
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(0);
  });

  it('is a 400 in nested values and query strings', async () => {
    const job = (await w.api.post('/v1/jobs', { name: 'Nested' })).body.data;
    const nested = await w.api.post('/v1/jobs', { name: 'Other', job_type: ['Sealcoating', 'Patch\u0000ing'] });
    expect(nested.status).toBe(400);
    expect(nested.body.field).toBe('job_type[1]');
    const query = await w.api.get(`/v1/jobs?q=${encodeURIComponent('a\u0000b')}`);
    expect(query.status).toBe(400);
    expect(query.body.field).toBe('q');
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'x\u0000' })).status).toBe(400);
  });

  it('is refused on the admin API too', async () => {
    const res = await t.admin.post('/admin/v1/workspaces', { name: 'Bad\u0000Name', owner: { name: 'A', email: 'a@nul.example' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });

  it('comes after authentication: a read-only key hears 403 first', async () => {
    const reader = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    const res = await t.as(reader).post('/v1/jobs', { name: 'x\u0000' });
    expect(res.status).toBe(403);
  });
});

describe('oversized values', () => {
  it('a very long job address is cut to 500 characters and still makes its site', async () => {
    const address = '12 Long Road '.repeat(1000);
    const res = await w.api.post('/v1/jobs', { name: 'Long address', address });
    expect(res.status).toBe(201);
    expect(res.body.data.address).toHaveLength(500);
    expect(res.body.data.location_id).toBeTypeOf('number');
  });

  it('ids and offsets beyond 32 bits are a 404 or 400, never a 500', async () => {
    expect((await w.api.get('/v1/jobs/99999999999')).status).toBe(404);
    expect((await w.api.get('/v1/jobs?assigned_to_user_id=99999999999')).status).toBe(400);
    expect((await w.api.get('/v1/locations?client_account_id=99999999999')).status).toBe(400);
    expect((await w.api.get('/v1/jobs?offset=99999999999999')).status).toBe(400);
    expect((await w.api.post('/v1/jobs', { name: 'Big', client_account_id: 99999999999 })).status).toBe(400);
  });
});

describe('over-long external_ref', () => {
  // Document 2 cuts over-long text, but a reference is refused instead (cutting could make two
  // different references one; docs/api-decisions.md): the 400 names the field and its limit.
  const long = 'r'.repeat(256);
  const refused = (res: { status: number; body: any }, field: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', field, max_length: 255 });
    expect(res.body.error).toBe(`${field} must be at most 255 characters`);
    expect(res.body.message).toContain(`${field} can be at most 255 characters`);
    expect(res.body.message).toContain('refused rather than cut');
  };

  it('is a 400 stating the limit on every write that takes one, and nothing is written', async () => {
    const v = await t.workspace();
    const account = (await v.api.post('/v1/client-accounts', { name: 'Ref Paving' })).body.data;
    const site = (await v.api.post('/v1/locations', { address: '9 Ref Road' })).body.data;
    const job = (await v.api.post('/v1/jobs', { name: 'Ref job' })).body.data;
    const before = await Promise.all(['/v1/jobs', '/v1/client-accounts', '/v1/locations', '/v1/activities']
      .map(async (p) => (await v.api.get(p)).body.pagination.total));
    refused(await v.api.post('/v1/jobs', { name: 'Long', external_ref: long }), 'external_ref');
    refused(await v.api.post('/v1/jobs', { name: 'Long', client_account_external_ref: long }), 'client_account_external_ref');
    refused(await v.api.patch(`/v1/jobs/${job.id}`, { external_ref: long }), 'external_ref');
    refused(await v.api.post('/v1/client-accounts', { name: 'Long', external_ref: long }), 'external_ref');
    refused(await v.api.patch(`/v1/client-accounts/${account.id}`, { external_ref: long }), 'external_ref');
    refused(await v.api.post('/v1/locations', { address: '1 Long St', external_ref: long }), 'external_ref');
    refused(await v.api.post('/v1/locations', { address: '1 Long St', client_account_external_ref: long }), 'client_account_external_ref');
    refused(await v.api.patch(`/v1/locations/${site.id}`, { external_ref: long }), 'external_ref');
    refused(await v.api.post('/v1/activities', { type: 'note', body: 'x', associations: { job_external_ref: long } }),
      'associations.job_external_ref');
    refused(await v.api.post('/v1/activities', { type: 'note', body: 'x', associations: { client_account_external_ref: long } }),
      'associations.client_account_external_ref');
    const after = await Promise.all(['/v1/jobs', '/v1/client-accounts', '/v1/locations', '/v1/activities']
      .map(async (p) => (await v.api.get(p)).body.pagination.total));
    expect(after).toEqual(before);
    expect((await v.api.get(`/v1/jobs/${job.id}`)).body.data.external_ref).toBeNull();
  });

  it('is a 400 stating the limit on the lookups too; 255 characters are taken', async () => {
    const v = await t.workspace();
    for (const path of ['/v1/jobs', '/v1/client-accounts', '/v1/locations']) {
      const res = await v.api.get(`${path}?external_ref=${long}`);
      refused(res, 'external_ref');
      expect(res.body.in).toBe('querystring');
    }
    const ok = await v.api.post('/v1/client-accounts', { name: 'Exact', external_ref: 'r'.repeat(255) });
    expect(ok.status).toBe(201);
    expect((await v.api.get(`/v1/client-accounts?external_ref=${'r'.repeat(255)}`)).body.data.map((a: any) => a.id)).toEqual([ok.body.data.id]);
  });
});
