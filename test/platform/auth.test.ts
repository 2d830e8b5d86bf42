// Document 1, Authentication: keys, partner keys, billing, plan, permissions and acting user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const INVALID = { error: 'Invalid API key', message: 'The API key is not recognized or has been revoked' };

async function newKey(firmId: number, userId: number, permissions: string[] = ALL_PERMISSIONS) {
  const res = await t.admin.post(`/admin/v1/workspaces/${firmId}/api-keys`, { user_id: userId, permissions });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; prefix: string; key: string };
}

async function partnerKey(grants: { firm_id: number; user_id: number }[], permissions: string[] = ALL_PERMISSIONS) {
  const res = await t.admin.post('/admin/v1/partner-keys', { grants, permissions });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; prefix: string; key: string };
}

describe('missing and invalid keys', () => {
  it('answers 401 Missing API key with the spec body when no key is sent', async () => {
    const res = await t.anon.get('/v1/jobs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing API key', message: 'Provide API key in X-API-Key header' });
  });

  it('answers 401 Missing API key before validating a bad body', async () => {
    const res = await t.anon.raw.post('/v1/jobs', { nonsense: 1 });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Missing API key');
  });

  it('answers 401 Missing API key for an empty header', async () => {
    const res = await t.anon.get('/v1/jobs', { 'x-api-key': '' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Missing API key');
  });

  it('answers 401 Invalid API key for a malformed key', async () => {
    for (const bad of ['abc', 'gw_short', 'Bearer something', 'xx_' + 'a'.repeat(48)]) {
      const res = await t.as(bad).get('/v1/jobs');
      expect(res.status, bad).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });

  it('answers 401 Invalid API key for a well-formed unknown key', async () => {
    const res = await t.as('gw_' + 'A'.repeat(48)).get('/v1/jobs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('answers 401 Invalid API key for a known prefix with a wrong secret', async () => {
    const w = await t.workspace();
    const forged = w.key.slice(0, 11) + (w.key[11] === 'a' ? 'b' : 'a') + w.key.slice(12);
    const res = await t.as(forged).get('/v1/jobs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('answers 401 Invalid API key for a revoked key, the same body as an unknown one', async () => {
    const w = await t.workspace();
    const k = await newKey(w.firmId, w.ownerId);
    expect((await t.as(k.key).get('/v1/jobs')).status).toBe(200);
    const revoked = await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/api-keys/${k.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toMatch(/Z$/);
    const res = await t.as(k.key).get('/v1/jobs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    // The workspace's other key still works.
    expect((await w.api.get('/v1/jobs')).status).toBe(200);
  });
});

describe('billing and plan', () => {
  for (const status of ['past_due', 'canceled', 'trial_ended']) {
    it(`answers 402 when the subscription is ${status}`, async () => {
      const w = await t.workspace();
      const patched = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: status });
      expect(patched.status).toBe(200);
      const res = await w.api.get('/v1/jobs');
      expect(res.status).toBe(402);
      expect(res.body.error).toBe('Payment required');
      expect(res.body.subscription_status).toBe(status);
      const write = await w.api.post('/v1/jobs', { name: 'Blocked' });
      expect(write.status).toBe(402);
      // Restoring the subscription restores access.
      await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'active' });
      expect((await w.api.get('/v1/jobs')).status).toBe(200);
    });
  }

  it('allows trialing subscriptions', async () => {
    const w = await t.workspace({ subscription_status: 'trialing', plan: 'trial' });
    expect((await w.api.get('/v1/jobs')).status).toBe(200);
  });

  for (const plan of ['bronze', 'silver']) {
    it(`answers 403 plan_upgrade_required on the ${plan} plan`, async () => {
      const w = await t.workspace({ plan });
      const res = await w.api.get('/v1/jobs');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        error: 'Plan does not include API access',
        code: 'plan_upgrade_required',
        plan,
      });
    });
  }

  it('allows gold, platinum and trial plans', async () => {
    for (const plan of ['gold', 'platinum', 'trial']) {
      const w = await t.workspace({ plan });
      const res = await w.api.get('/v1/jobs');
      expect(res.status, plan).toBe(200);
    }
  });

  it('checks billing before the plan (402 before 403)', async () => {
    const w = await t.workspace({ plan: 'bronze', subscription_status: 'past_due' });
    const res = await w.api.get('/v1/jobs');
    expect(res.status).toBe(402);
  });

  it('a plan downgrade takes effect on the next call', async () => {
    const w = await t.workspace();
    expect((await w.api.get('/v1/jobs')).status).toBe(200);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { plan: 'silver' });
    expect((await w.api.get('/v1/jobs')).status).toBe(403);
  });
});

describe('key permissions', () => {
  it('read_jobs missing: 403 API key lacks job read permission on GET /v1/jobs', async () => {
    const w = await t.workspace();
    const key = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    const res = await t.as(key).get('/v1/jobs');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: 'API key lacks job read permission',
      code: 'missing_permission',
      permission: 'read_jobs',
    });
  });

  it('write_jobs missing: 403 API key lacks job write permission on POST /v1/jobs, and nothing is written', async () => {
    const w = await t.workspace();
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    const res = await t.as(key).post('/v1/jobs', { name: 'Nope' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: 'API key lacks job write permission',
      code: 'missing_permission',
      permission: 'write_jobs',
    });
    expect((await t.as(key).get('/v1/jobs')).body.pagination.total).toBe(0);
  });

  it('delete_records missing: 403 API key lacks delete permission on DELETE /v1/jobs/{id}', async () => {
    const w = await t.workspace();
    const job = await w.api.post('/v1/jobs', { name: 'Keep me' });
    expect(job.status).toBe(201);
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']);
    const res = await t.as(key).delete(`/v1/jobs/${job.body.data.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: 'API key lacks delete permission',
      code: 'missing_permission',
      permission: 'delete_records',
    });
    expect((await w.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(200);
  });

  it('delete with delete_records but without write_jobs is refused for write permission', async () => {
    const w = await t.workspace();
    const job = await w.api.post('/v1/jobs', { name: 'Keep me too' });
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs', 'delete_records']);
    const res = await t.as(key).delete(`/v1/jobs/${job.body.data.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks job write permission');
  });

  it('a full key deletes (204)', async () => {
    const w = await t.workspace();
    const job = await w.api.post('/v1/jobs', { name: 'Delete me' });
    const res = await w.api.delete(`/v1/jobs/${job.body.data.id}`);
    expect(res.status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(404);
  });
});

describe('acting user', () => {
  it('a viewer reads but every write answers 403 Viewer cannot make changes', async () => {
    const w = await t.workspace();
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    const job = await w.api.post('/v1/jobs', { name: 'Seen by viewer' });
    expect((await viewer.api.get('/v1/jobs')).status).toBe(200);
    expect((await viewer.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(200);
    const create = await viewer.api.post('/v1/jobs', { name: 'Viewer job' });
    expect(create.status).toBe(403);
    expect(create.body.error).toBe('Viewer cannot make changes');
    const patch = await viewer.api.patch(`/v1/jobs/${job.body.data.id}`, { name: 'Renamed' });
    expect(patch.status).toBe(403);
    expect(patch.body.error).toBe('Viewer cannot make changes');
    const del = await viewer.api.delete(`/v1/jobs/${job.body.data.id}`);
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('Viewer cannot make changes');
    const after = await w.api.get(`/v1/jobs/${job.body.data.id}`);
    expect(after.body.data.name).toBe('Seen by viewer');
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(1);
  });

  it("a removed user's key still reads but writes answer 403 Key owner unavailable", async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const job = await member.api.post('/v1/jobs', { name: 'Before removal' });
    expect(job.status).toBe(201);
    const removed = await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${member.id}`);
    expect(removed.status).toBe(200);
    expect((await member.api.get('/v1/jobs')).status).toBe(200);
    expect((await member.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(200);
    const create = await member.api.post('/v1/jobs', { name: 'After removal' });
    expect(create.status).toBe(403);
    expect(create.body.error).toBe('Key owner unavailable');
    const patch = await member.api.patch(`/v1/jobs/${job.body.data.id}`, { name: 'Changed' });
    expect(patch.status).toBe(403);
    expect(patch.body.error).toBe('Key owner unavailable');
    expect((await w.api.get(`/v1/jobs/${job.body.data.id}`)).body.data.name).toBe('Before removal');
  });

  it("writes run as the key's user: a new job is assigned to them", async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const job = await member.api.post('/v1/jobs', { name: 'Member job' });
    expect(job.status).toBe(201);
    expect(job.body.data.assigned_to_user_id).toBe(member.id);
  });
});

describe('workspace scoping and firm_id on workspace keys', () => {
  it('a record of another workspace is 404', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const job = await a.api.post('/v1/jobs', { name: 'A only' });
    const res = await b.api.get(`/v1/jobs/${job.body.data.id}`);
    expect(res.status).toBe(404);
  });

  it("accepts firm_id naming the key's own workspace", async () => {
    const w = await t.workspace();
    expect((await w.api.get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(200);
    const created = await w.api.raw.post('/v1/jobs', { name: 'With own firm', firm_id: w.firmId });
    expect(created.status).toBe(201);
  });

  it('firm_id of its own workspace in a PATCH body is not an unknown field', async () => {
    const w = await t.workspace();
    const acct = await w.api.post('/v1/client-accounts', { name: 'Firm id customer' });
    expect(acct.status).toBe(201);
    const res = await w.api.raw.patch(`/v1/client-accounts/${acct.body.data.id}`, {
      notes: 'hello',
      firm_id: w.firmId,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.notes).toBe('hello');
  });

  it("refuses another workspace's firm_id with 403 (query and body)", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const get = await a.api.get(`/v1/jobs?firm_id=${b.firmId}`);
    expect(get.status).toBe(403);
    const post = await a.api.raw.post('/v1/jobs', { name: 'Cross', firm_id: b.firmId });
    expect(post.status).toBe(403);
    expect((await b.api.get('/v1/jobs')).body.pagination.total).toBe(0);
    expect((await a.api.get('/v1/jobs')).body.pagination.total).toBe(0);
    const job = await a.api.post('/v1/jobs', { name: 'Mine' });
    expect((await a.api.delete(`/v1/jobs/${job.body.data.id}?firm_id=${b.firmId}`)).status).toBe(403);
    expect((await a.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(200);
  });
});

describe('partner keys', () => {
  it('without firm_id answers 400 firm_id is required', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    expect(p.key).toMatch(/^gp_[A-Za-z0-9]{48}$/);
    const get = await t.as(p.key).get('/v1/jobs');
    expect(get.status).toBe(400);
    expect(get.body.error).toBe('firm_id is required');
    const post = await t.as(p.key).post('/v1/jobs', { name: 'No firm' });
    expect(post.status).toBe(400);
    expect(post.body.error).toBe('firm_id is required');
  });

  it('works with firm_id in the query string (GET) and in the JSON body (POST), acting as the granted user', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const p = await partnerKey([{ firm_id: w.firmId, user_id: member.id }]);
    const api = t.as(p.key);
    const created = await api.raw.post('/v1/jobs', { name: 'Partner job', firm_id: w.firmId });
    expect(created.status).toBe(201);
    expect(created.body.data.firm_id).toBe(w.firmId);
    expect(created.body.data.assigned_to_user_id).toBe(member.id);
    const list = await api.get(`/v1/jobs?firm_id=${w.firmId}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((j: { id: number }) => j.id)).toEqual([created.body.data.id]);
    const one = await api.get(`/v1/jobs/${created.body.data.id}?firm_id=${w.firmId}`);
    expect(one.status).toBe(200);
    // The workspace's own key sees the partner's job.
    expect((await w.api.get(`/v1/jobs/${created.body.data.id}`)).status).toBe(200);
  });

  it('works with firm_id in the query string on a write too', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    const res = await t.as(p.key).post(`/v1/jobs?firm_id=${w.firmId}`, { name: 'Query firm' });
    expect(res.status).toBe(201);
  });

  it('firm_id in the body is not reported as an unknown field (but a real unknown is)', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    const res = await t.as(p.key).raw.post('/v1/jobs', { name: 'Typo', firm_id: w.firmId, colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_fields');
    expect(res.body.fields).toEqual(['colour']);
  });

  it('acts in several workspaces, each as its granted user', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const bUser = await t.user(b.firmId, { role: 'member' });
    const p = await partnerKey([
      { firm_id: a.firmId, user_id: a.ownerId },
      { firm_id: b.firmId, user_id: bUser.id },
    ]);
    const ja = await t.as(p.key).raw.post('/v1/jobs', { name: 'In A', firm_id: a.firmId });
    const jb = await t.as(p.key).raw.post('/v1/jobs', { name: 'In B', firm_id: b.firmId });
    expect(ja.status).toBe(201);
    expect(jb.status).toBe(201);
    expect(ja.body.data.assigned_to_user_id).toBe(a.ownerId);
    expect(jb.body.data.assigned_to_user_id).toBe(bUser.id);
    expect((await a.api.get('/v1/jobs')).body.data.map((j: { name: string }) => j.name)).toEqual(['In A']);
    expect((await b.api.get('/v1/jobs')).body.data.map((j: { name: string }) => j.name)).toEqual(['In B']);
    // A record of workspace A is 404 when addressed through workspace B.
    expect((await t.as(p.key).get(`/v1/jobs/${ja.body.data.id}?firm_id=${b.firmId}`)).status).toBe(404);
  });

  it('answers 403 for a workspace it has no grant for', async () => {
    const granted = await t.workspace();
    const other = await t.workspace();
    const p = await partnerKey([{ firm_id: granted.firmId, user_id: granted.ownerId }]);
    const get = await t.as(p.key).get(`/v1/jobs?firm_id=${other.firmId}`);
    expect(get.status).toBe(403);
    expect(get.body.error).toBe('Partner key has no access to this workspace');
    const post = await t.as(p.key).raw.post('/v1/jobs', { name: 'Sneaky', firm_id: other.firmId });
    expect(post.status).toBe(403);
    expect((await other.api.get('/v1/jobs')).body.pagination.total).toBe(0);
    const garbage = await t.as(p.key).get('/v1/jobs?firm_id=abc');
    expect(garbage.status).toBe(403);
  });

  it('a firm_id beyond 32 bits or spelled oddly names no workspace: 403 on both engines, never a 500', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    for (const id of [
      '2147483648',
      '9007199254740993',
      '1e308',
      `0${w.firmId}`,
      `0x${w.firmId.toString(16)}`,
      `${w.firmId}.0`,
    ]) {
      const res = await t.as(p.key).get(`/v1/jobs?firm_id=${id}`);
      expect(res.status, id).toBe(403);
      expect(res.body.error, id).toBe('Partner key has no access to this workspace');
    }
    const body = await t.as(p.key).raw.post('/v1/jobs', '{"name":"Big","firm_id":1e308}');
    expect(body.status).toBe(403);
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);
  });

  it('applies its permissions in every granted workspace', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }], ['read_jobs']);
    expect((await t.as(p.key).get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(200);
    const res = await t.as(p.key).raw.post('/v1/jobs', { name: 'Read only', firm_id: w.firmId });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks job write permission');
  });

  it('a revoked partner key is 401', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    expect((await t.admin.delete(`/admin/v1/partner-keys/${p.id}`)).status).toBe(200);
    const res = await t.as(p.key).get(`/v1/jobs?firm_id=${w.firmId}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it('DELETE and PATCH take firm_id too (query on DELETE, body on PATCH)', async () => {
    const w = await t.workspace();
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    const api = t.as(p.key);
    const job = await api.raw.post('/v1/jobs', { name: 'Partner edits', firm_id: w.firmId });
    const patched = await api.raw.patch(`/v1/jobs/${job.body.data.id}`, { name: 'Partner edited', firm_id: w.firmId });
    expect(patched.status).toBe(200);
    expect(patched.body.data.name).toBe('Partner edited');
    expect((await api.delete(`/v1/jobs/${job.body.data.id}`)).status).toBe(400);
    expect((await api.delete(`/v1/jobs/${job.body.data.id}?firm_id=${w.firmId}`)).status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${job.body.data.id}`)).status).toBe(404);
  });

  it('when the granted user is removed, reads work and writes answer 403 Key owner unavailable', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const p = await partnerKey([{ firm_id: w.firmId, user_id: member.id }]);
    await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${member.id}`);
    expect((await t.as(p.key).get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(200);
    const res = await t.as(p.key).raw.post('/v1/jobs', { name: 'Orphan', firm_id: w.firmId });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Key owner unavailable');
  });

  it('a grant to a viewer reads but cannot write', async () => {
    const w = await t.workspace();
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    const p = await partnerKey([{ firm_id: w.firmId, user_id: viewer.id }]);
    expect((await t.as(p.key).get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(200);
    const res = await t.as(p.key).raw.post('/v1/jobs', { name: 'Viewer partner', firm_id: w.firmId });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Viewer cannot make changes');
  });

  it('billing of the named workspace applies (402)', async () => {
    const w = await t.workspace({ subscription_status: 'past_due' });
    const p = await partnerKey([{ firm_id: w.firmId, user_id: w.ownerId }]);
    expect((await t.as(p.key).get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(402);
  });
});

describe('key storage and format', () => {
  it('keys are 51 characters: gw_ + 48 base62, with an 11-character prefix', async () => {
    const w = await t.workspace();
    const k = await newKey(w.firmId, w.ownerId);
    expect(k.key).toHaveLength(51);
    expect(k.key).toMatch(/^gw_[A-Za-z0-9]{48}$/);
    expect(k.prefix).toBe(k.key.slice(0, 11));
  });

  it('keys are stored hashed: the key text appears in no column', async () => {
    const w = await t.workspace();
    const k = await newKey(w.firmId, w.ownerId);
    const row = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', k.id).executeTakeFirstOrThrow();
    expect(row.prefix).toBe(k.key.slice(0, 11));
    expect(row.key_hash).not.toBe(k.key);
    expect(row.key_hash).not.toContain(k.key.slice(11));
    for (const [column, value] of Object.entries(row)) {
      expect(String(value), column).not.toContain(k.key);
      expect(String(value), column).not.toContain(k.key.slice(11));
    }
  });

  it('every issued key has a distinct prefix', async () => {
    const w = await t.workspace();
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey(w.firmId, w.ownerId)));
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(20);
    expect(new Set(keys.map((k) => k.key)).size).toBe(20);
  });

  it('a key with surrounding whitespace still authenticates', async () => {
    const w = await t.workspace();
    expect((await t.as(` ${w.key} `).get('/v1/jobs')).status).toBe(200);
  });
});

// A key resolved once is kept in a short memo (platform/auth-cache.ts); the checks after it run on
// the memo's answer without waiting on anything. This app keeps the memo for ten minutes, so every
// call after a key's first is answered from it however slow the machine.
describe('calls answered from the key memo', () => {
  let m: TestApp;
  beforeAll(async () => {
    m = await startApp({ authCacheMs: 600_000 });
  });
  afterAll(() => m.close());

  it('every check still runs on each call: role, permissions, partner firm_id', async () => {
    const w = await m.workspace();
    const other = await m.workspace();
    const viewer = await m.user(w.firmId, { role: 'viewer' });
    const readOnly = m.as(await m.key(w.firmId, w.ownerId, ['read_jobs']));
    const p = await m.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: w.firmId, user_id: w.ownerId }],
      permissions: ALL_PERMISSIONS,
    });
    const partner = m.as(p.body.data.key);
    for (let call = 0; call < 3; call++) {
      expect((await viewer.api.get('/v1/jobs')).status).toBe(200);
      const write = await viewer.api.post('/v1/jobs', { name: 'Viewer job' });
      expect([write.status, write.body.error]).toEqual([403, 'Viewer cannot make changes']);
      const denied = await readOnly.post('/v1/jobs', { name: 'Nope' });
      expect([denied.status, denied.body.code]).toEqual([403, 'missing_permission']);
      expect((await partner.get(`/v1/jobs?firm_id=${w.firmId}`)).status).toBe(200);
      expect((await partner.get(`/v1/jobs?firm_id=${other.firmId}`)).status).toBe(403);
      const unnamed = await partner.get('/v1/jobs');
      expect([unnamed.status, unnamed.body.error]).toEqual([400, 'firm_id is required']);
    }
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);
  });

  it('the memo is what answers: a revocation written behind the server is seen once an admin change clears it', async () => {
    const w = await m.workspace();
    const key = await m.key(w.firmId, w.ownerId);
    const spare = await m.admin.post(`/admin/v1/workspaces/${w.firmId}/api-keys`, {
      user_id: w.ownerId,
      permissions: ALL_PERMISSIONS,
    });
    expect((await m.as(key).get('/v1/jobs')).status).toBe(200);
    // As another process would revoke it: this server's memo does not hear of it.
    await m.database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('prefix', '=', key.slice(0, 11))
      .execute();
    expect((await m.as(key).get('/v1/jobs')).status).toBe(200);
    // A change to any key, user or workspace through this process's admin API clears the memo.
    expect((await m.admin.delete(`/admin/v1/workspaces/${w.firmId}/api-keys/${spare.body.data.id}`)).status).toBe(200);
    const after = await m.as(key).get('/v1/jobs');
    expect(after.status).toBe(401);
    expect(after.body).toEqual(INVALID);
  });
});
