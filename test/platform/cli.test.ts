// `groundwork admin …` (src/cli/admin.ts) against a SQLite file, and the server on that same file.
// The CLI is engine-agnostic service code; SQLite files keep this test about the CLI itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#src/app.ts';
import { openDatabase, type Database } from '#db/database.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { adminCli } from '#test/helpers/cli.ts';

let t: TestApp;
let dir: string;
let databaseUrl: string;

beforeAll(async () => {
  t = await startApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-cli-'));
  databaseUrl = path.join(dir, 'cli.sqlite');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const { admin, json } = adminCli(() => databaseUrl);

/** An app over the CLI's database file, as `groundwork serve` would run it. */
async function withServer<T>(fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const database: Database = openDatabase(databaseUrl);
  const app = await buildApp(database, { adminToken: null, rateLimit: { max: 1e6, windowMs: 1000 }, logLevel: false });
  await app.ready();
  try {
    return await fn(app);
  } finally {
    await app.close();
    await database.close();
  }
}

async function call(app: FastifyInstance, method: string, url: string, key: string, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

describe('groundwork admin', () => {
  it('--help prints the usage and exits 0', async () => {
    const r = await admin('--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('groundwork admin <command>');
    expect(r.out).toContain('workspace create');
    expect(r.err).toBe('');
  });

  it('no command prints the usage to stderr and exits 2', async () => {
    const r = await admin();
    expect(r.code).toBe(2);
    expect(r.err).toContain('groundwork admin <command>');
  });

  it('an unknown flag exits 2 with a message', async () => {
    const r = await admin('workspace', 'list', '--frobnicate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/frobnicate/);
  });

  it('an unknown command exits 1 with a message', async () => {
    const r = await admin('spaceship', 'launch');
    expect(r.code).toBe(1);
    expect(r.err).toContain('unknown admin command');
    expect(r.err).toContain('spaceship launch');
  });

  it('a service error exits 1 with the error (JSON with --json)', async () => {
    const r = await admin('workspace', 'create', '--name', 'No owner email', '--owner-name', 'X');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error 400: /);
    expect(r.err).toContain('email');
    const j = await admin('workspace', 'show', '999999', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.err)).toMatchObject({ error: 'Workspace not found' });
    const bad = await admin('workspace', 'show', 'abc');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('firm_id must be a positive integer');
    const badJson = await admin('workspace', 'update', '1', '--settings', '{nope');
    expect(badJson.code).toBe(1);
    expect(badJson.err).toContain('--settings must be a JSON object');
  });

  it('workspace create --json prints {data: {firm_id, owner_user_id}}', async () => {
    const r = await admin(
      'workspace',
      'create',
      '--name',
      'CLI Paving',
      '--owner-name',
      'Cleo',
      '--owner-email',
      'cleo@example.com',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const parsed = JSON.parse(r.out);
    expect(Object.keys(parsed)).toEqual(['data']);
    expect(Object.keys(parsed.data).sort()).toEqual(['firm_id', 'owner_user_id']);
    expect(parsed.data.firm_id).toBeTypeOf('number');
    expect(parsed.data.owner_user_id).toBeTypeOf('number');
    const shown = await json('workspace', 'show', String(parsed.data.firm_id));
    expect(shown).toMatchObject({
      firm_id: parsed.data.firm_id,
      name: 'CLI Paving',
      plan: 'gold',
      subscription_status: 'active',
    });
  });

  it('key create prints a key that works against the server on the same database', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Keyed',
      '--owner-name',
      'Kay',
      '--owner-email',
      'kay@example.com',
    );
    const human = await admin('key', 'create', String(ws.firm_id), '--user', String(ws.owner_user_id));
    expect(human.code, human.err).toBe(0);
    const key = /(gw_[A-Za-z0-9]{48})/.exec(human.out)?.[1];
    expect(key).toBeDefined();
    expect(human.out).toContain(key!.slice(0, 11));
    const viaJson = await json(
      'key',
      'create',
      String(ws.firm_id),
      '--user',
      String(ws.owner_user_id),
      '--permissions',
      'read_jobs',
    );
    expect(viaJson.key).toMatch(/^gw_[A-Za-z0-9]{48}$/);
    expect(viaJson.permissions).toEqual(['read_jobs']);
    await withServer(async (app) => {
      const list = await call(app, 'GET', '/v1/jobs', key!);
      expect(list.status).toBe(200);
      expect(list.body.pagination).toEqual({ total: 0, limit: 50, offset: 0 });
      const created = await call(app, 'POST', '/v1/jobs', key!, { name: 'From CLI key' });
      expect(created.status).toBe(201);
      expect(created.body.data.assigned_to_user_id).toBe(ws.owner_user_id);
      const readOnly = await call(app, 'POST', '/v1/jobs', viaJson.key, { name: 'Nope' });
      expect(readOnly.status).toBe(403);
      expect(readOnly.body.error).toBe('API key lacks job write permission');
    });
    const keys = await json('key', 'list', String(ws.firm_id));
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(k).not.toHaveProperty('key');
  });

  it('key revoke makes the key answer 401', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Revoked',
      '--owner-name',
      'Rae',
      '--owner-email',
      'rae@example.com',
    );
    const k = await json('key', 'create', String(ws.firm_id), '--user', String(ws.owner_user_id));
    await withServer(async (app) => expect((await call(app, 'GET', '/v1/jobs', k.key)).status).toBe(200));
    const revoked = await json('key', 'revoke', String(ws.firm_id), String(k.id));
    expect(revoked.revoked_at).not.toBeNull();
    await withServer(async (app) => {
      const res = await call(app, 'GET', '/v1/jobs', k.key);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Invalid API key');
    });
  });

  it('a bad permission name exits 1', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Perms',
      '--owner-name',
      'Pia',
      '--owner-email',
      'pia@example.com',
    );
    const r = await admin(
      'key',
      'create',
      String(ws.firm_id),
      '--user',
      String(ws.owner_user_id),
      '--permissions',
      'read_jobs,launch_rockets',
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error 400/);
  });

  it('user add and user remove', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Staffed',
      '--owner-name',
      'Sam',
      '--owner-email',
      'sam@example.com',
    );
    const user = await json(
      'user',
      'add',
      String(ws.firm_id),
      '--name',
      'Una',
      '--email',
      'una@example.com',
      '--role',
      'viewer',
    );
    expect(user).toMatchObject({
      firm_id: ws.firm_id,
      name: 'Una',
      email: 'una@example.com',
      role: 'viewer',
      removed_at: null,
    });
    const dup = await admin('user', 'add', String(ws.firm_id), '--name', 'Una 2', '--email', 'una@example.com');
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/^error 409/);
    const k = await json('key', 'create', String(ws.firm_id), '--user', String(user.id));
    await withServer(async (app) => {
      expect((await call(app, 'GET', '/v1/jobs', k.key)).status).toBe(200);
      const write = await call(app, 'POST', '/v1/jobs', k.key, { name: 'Viewer write' });
      expect(write.status).toBe(403);
      expect(write.body.error).toBe('Viewer cannot make changes');
    });
    const updated = await json('user', 'update', String(ws.firm_id), String(user.id), '--role', 'member');
    expect(updated.role).toBe('member');
    const removed = await json('user', 'remove', String(ws.firm_id), String(user.id));
    expect(removed.removed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    const users = await json('user', 'list', String(ws.firm_id));
    expect(users.find((u: { id: number }) => u.id === user.id).removed_at).toBe(removed.removed_at);
    await withServer(async (app) => {
      expect((await call(app, 'GET', '/v1/jobs', k.key)).status).toBe(200);
      const write = await call(app, 'POST', '/v1/jobs', k.key, { name: 'Removed write' });
      expect(write.status).toBe(403);
      expect(write.body.error).toBe('Key owner unavailable');
    });
    const owner = await admin('user', 'remove', String(ws.firm_id), String(ws.owner_user_id));
    expect(owner.code).toBe(1);
    expect(owner.err).toMatch(/^error 409/);
  });

  it('workspace update changes plan, status and settings (merged)', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Updatable',
      '--owner-name',
      'Ula',
      '--owner-email',
      'ula@example.com',
      '--settings',
      '{"deletion_locked": true}',
    );
    const k = await json('key', 'create', String(ws.firm_id), '--user', String(ws.owner_user_id));
    const updated = await json(
      'workspace',
      'update',
      String(ws.firm_id),
      '--plan',
      'silver',
      '--settings',
      '{"operations_enabled": true}',
    );
    expect(updated.plan).toBe('silver');
    expect(updated.settings).toMatchObject({ deletion_locked: true, operations_enabled: true });
    await withServer(async (app) => {
      const res = await call(app, 'GET', '/v1/jobs', k.key);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('plan_upgrade_required');
    });
    await json('workspace', 'update', String(ws.firm_id), '--plan', 'gold', '--subscription-status', 'past_due');
    await withServer(async (app) => expect((await call(app, 'GET', '/v1/jobs', k.key)).status).toBe(402));
    const bad = await admin('workspace', 'update', String(ws.firm_id), '--plan', 'diamond');
    expect(bad.code).toBe(1);
    const list = await json('workspace', 'list');
    expect(list.map((w: { firm_id: number }) => w.firm_id)).toContain(ws.firm_id);
  });

  it('stage add and partner-key create', async () => {
    const ws = await json(
      'workspace',
      'create',
      '--name',
      'Staged',
      '--owner-name',
      'Sid',
      '--owner-email',
      'sid@example.com',
    );
    const staged = await json(
      'stage',
      'add',
      String(ws.firm_id),
      '--key',
      'invoiced',
      '--label',
      'Invoiced',
      '--type',
      'won',
      '--completed',
    );
    expect(staged.job_stages.at(-1)).toEqual({
      key: 'invoiced',
      label: 'Invoiced',
      type: 'won',
      position: 5,
      completed: true,
    });
    const p = await json(
      'partner-key',
      'create',
      '--grant',
      `${ws.firm_id}:${ws.owner_user_id}`,
      '--permissions',
      'read_jobs',
    );
    expect(p.key).toMatch(/^gp_[A-Za-z0-9]{48}$/);
    await withServer(async (app) => {
      expect((await call(app, 'GET', `/v1/jobs?firm_id=${ws.firm_id}`, p.key)).status).toBe(200);
      expect((await call(app, 'GET', '/v1/jobs', p.key)).status).toBe(400);
      const stages = await call(app, 'GET', `/v1/job-stages?firm_id=${ws.firm_id}`, p.key);
      expect(stages.body.data.map((s: { key: string }) => s.key)).toContain('invoiced');
    });
    const bad = await admin('partner-key', 'create', '--grant', 'x:y');
    expect(bad.code).toBe(1);
  });
});
