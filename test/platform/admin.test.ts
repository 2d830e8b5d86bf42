// The operator's admin API (/admin/v1), as written down in docs/api-decisions.md (Operator).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS as SOURCE_DEFAULTS } from '#platform/workspace.ts';
import { ADMIN_TOKEN, startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

/** Every settings key of src/platform/workspace.ts, with its default (later areas may add keys). */
const KNOWN_DEFAULTS = {
  deletion_locked: false,
  operations_enabled: false,
  crew_scheduling_enabled: false,
  daily_log_signoff: false,
  payroll_signoff: false,
  required_job_fields: [],
  require_company_on_sites: false,
  leads_pipeline: false,
  jobs_from_connected_system: false,
  capital_planning_enabled: false,
  customer_portal_enabled: false,
  online_payments_connected: false,
  stripe_account: null,
  remit_to: null,
  photo_limit: null,
  photo_default_visibility: 'external',
  photo_include_in_report_default: true,
  takeoff_credits: 0,
  profit_floor_margin: null,
};
const DEFAULT_SETTINGS: Record<string, unknown> = { ...SOURCE_DEFAULTS };

const FLAGS = [
  'office_user',
  'schedule_editor',
  'payroll_approver',
  'sees_own_jobs_only',
  'can_delete_jobs',
  'can_view_reports',
  'can_see_pay',
  'can_see_job_costs',
  'pricing_access',
  'ai_auto_measure',
] as const;

let seq = 0;
async function createWorkspace(extra: Record<string, unknown> = {}) {
  seq++;
  const res = await t.admin.post('/admin/v1/workspaces', {
    name: `Admin WS ${seq}`,
    owner: { name: `Admin Owner ${seq}`, email: `admin-owner${seq}@example.com` },
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { firm_id: number; owner_user_id: number };
}

describe('access', () => {
  it('is disabled (404 Resource not found) when no admin token is configured', async () => {
    const off = await startApp({ adminToken: null });
    try {
      for (const [method, path] of [
        ['GET', '/admin/v1/workspaces'],
        ['POST', '/admin/v1/workspaces'],
        ['GET', '/admin/v1/workspaces/1'],
      ]) {
        const res = await off.admin.request(method, path, method === 'POST' ? { name: 'x' } : undefined);
        expect(res.status, path).toBe(404);
        expect(res.body, path).toEqual({ error: 'Resource not found' });
      }
      // The public API still runs.
      expect((await off.anon.get('/v1/health')).status).toBe(200);
    } finally {
      await off.close();
    }
  });

  it('a missing or wrong bearer token is 401', async () => {
    const missing = await t.anon.get('/admin/v1/workspaces');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('Invalid admin token');
    for (const authorization of [
      'Bearer wrong',
      `Basic ${ADMIN_TOKEN}`,
      ADMIN_TOKEN,
      'Bearer ',
      `Bearer ${ADMIN_TOKEN}x`,
    ]) {
      const res = await t.anon.get('/admin/v1/workspaces', { authorization });
      expect(res.status, authorization).toBe(401);
      expect(res.body.error).toBe('Invalid admin token');
    }
    const post = await t.anon.post(
      '/admin/v1/workspaces',
      { name: 'x', owner: { name: 'a', email: 'a@example.com' } },
      { authorization: 'Bearer wrong' },
    );
    expect(post.status).toBe(401);
    expect((await t.admin.get('/admin/v1/workspaces')).body.data.some((w: { name: string }) => w.name === 'x')).toBe(
      false,
    );
  });

  it('an API key is not an admin credential', async () => {
    const w = await t.workspace();
    const res = await t.as(w.key).get('/admin/v1/workspaces');
    expect(res.status).toBe(401);
  });
});

describe('workspaces', () => {
  it('POST answers 201 {data: {firm_id, owner_user_id}}', async () => {
    const res = await t.admin.post('/admin/v1/workspaces', {
      name: 'Fresh Paving',
      owner: { name: 'Olive Owner', email: 'olive@example.com' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(res.body.data).sort()).toEqual(['firm_id', 'owner_user_id']);
    expect(res.body.data.firm_id).toBeTypeOf('number');
    expect(res.body.data.owner_user_id).toBeTypeOf('number');
    const ws = await t.admin.get(`/admin/v1/workspaces/${res.body.data.firm_id}`);
    expect(ws.status).toBe(200);
    expect(ws.body.data).toMatchObject({
      firm_id: res.body.data.firm_id,
      name: 'Fresh Paving',
      plan: 'gold',
      subscription_status: 'active',
      timezone: 'UTC',
      owner_user_id: res.body.data.owner_user_id,
      divisions: [],
    });
    expect(ws.body.data.job_types.length).toBeGreaterThan(0);
    expect(ws.body.data.job_stages.map((s: { key: string }) => s.key)).toEqual(['lead', 'active', 'won', 'lost']);
    const users = await t.admin.get(`/admin/v1/workspaces/${res.body.data.firm_id}/users`);
    expect(users.body.data).toHaveLength(1);
    expect(users.body.data[0]).toMatchObject({
      id: res.body.data.owner_user_id,
      role: 'owner',
      is_firm_owner: true,
      email: 'olive@example.com',
    });
  });

  it('GET shows the default of every settings key', async () => {
    const { firm_id } = await createWorkspace();
    const res = await t.admin.get(`/admin/v1/workspaces/${firm_id}`);
    expect(res.body.data.settings).toEqual(DEFAULT_SETTINGS);
    expect(res.body.data.settings).toMatchObject(KNOWN_DEFAULTS);
    expect(Object.keys(res.body.data.settings).sort()).toEqual(Object.keys(SOURCE_DEFAULTS).sort());
  });

  it('create accepts a partial settings object and fills the rest with defaults', async () => {
    const { firm_id } = await createWorkspace({
      settings: { deletion_locked: true },
      timezone: 'America/Chicago',
      plan: 'platinum',
    });
    const res = await t.admin.get(`/admin/v1/workspaces/${firm_id}`);
    expect(res.body.data.settings).toEqual({ ...DEFAULT_SETTINGS, deletion_locked: true });
    expect(res.body.data.timezone).toBe('America/Chicago');
    expect(res.body.data.plan).toBe('platinum');
  });

  it('validation failures are 400 and create nothing', async () => {
    const before = (await t.admin.get('/admin/v1/workspaces')).body.data.length;
    const owner = { name: 'V', email: 'v@example.com' };
    const cases: [string, Record<string, unknown>][] = [
      ['bad plan', { name: 'Bad', owner, plan: 'diamond' }],
      ['bad status', { name: 'Bad', owner, subscription_status: 'sleeping' }],
      ['bad timezone', { name: 'Bad', owner, timezone: 'Mars/Olympus' }],
      ['unknown settings key', { name: 'Bad', owner, settings: { dark_mode: true } }],
      ['bad settings value', { name: 'Bad', owner, settings: { deletion_locked: 'yes' } }],
      ['unknown field', { name: 'Bad', owner, colour: 'blue' }],
      ['missing name', { owner }],
      ['missing owner', { name: 'Bad' }],
      ['bad owner email', { name: 'Bad', owner: { name: 'V', email: 'not-an-email' } }],
      [
        'repeated built-in stage',
        { name: 'Bad', owner, job_stages: [{ key: 'won', label: 'Won again', type: 'won' }] },
      ],
    ];
    for (const [label, body] of cases) {
      const res = await t.admin.post('/admin/v1/workspaces', body);
      expect(res.status, label).toBe(400);
      expect(res.body.error, label).toBeTypeOf('string');
    }
    const unknown = await t.admin.post('/admin/v1/workspaces', { name: 'Bad', owner, colour: 'blue', size: 1 });
    expect(unknown.body).toMatchObject({ code: 'unknown_fields' });
    expect([...unknown.body.fields].sort()).toEqual(['colour', 'size']);
    const settingsKey = await t.admin.post('/admin/v1/workspaces', {
      name: 'Bad',
      owner,
      settings: { dark_mode: true },
    });
    expect(settingsKey.body.code).toBe('unknown_fields');
    expect(settingsKey.body.error).toContain('dark_mode');
    const tz = await t.admin.post('/admin/v1/workspaces', { name: 'Bad', owner, timezone: 'Mars/Olympus' });
    expect(tz.body.error).toContain('timezone');
    expect((await t.admin.get('/admin/v1/workspaces')).body.data.length).toBe(before);
  });

  it('PATCH changes plan and subscription status', async () => {
    const { firm_id } = await createWorkspace();
    const res = await t.admin.patch(`/admin/v1/workspaces/${firm_id}`, {
      plan: 'silver',
      subscription_status: 'past_due',
      name: 'Renamed WS',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      firm_id,
      plan: 'silver',
      subscription_status: 'past_due',
      name: 'Renamed WS',
    });
    const read = await t.admin.get(`/admin/v1/workspaces/${firm_id}`);
    expect(read.body.data).toMatchObject({ plan: 'silver', subscription_status: 'past_due', name: 'Renamed WS' });
  });

  it('PATCH merges settings: keys not sent keep their values', async () => {
    const { firm_id } = await createWorkspace();
    await t.admin.patch(`/admin/v1/workspaces/${firm_id}`, { settings: { deletion_locked: true, takeoff_credits: 5 } });
    const res = await t.admin.patch(`/admin/v1/workspaces/${firm_id}`, {
      settings: { operations_enabled: true, takeoff_credits: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settings).toEqual({
      ...DEFAULT_SETTINGS,
      deletion_locked: true,
      operations_enabled: true,
      takeoff_credits: 7,
    });
    const noSettings = await t.admin.patch(`/admin/v1/workspaces/${firm_id}`, { plan: 'platinum' });
    expect(noSettings.body.data.settings).toEqual({
      ...DEFAULT_SETTINGS,
      deletion_locked: true,
      operations_enabled: true,
      takeoff_credits: 7,
    });
  });

  it('settings take effect on the API (deletion_locked refuses deletes)', async () => {
    const w = await t.workspace();
    const job = await w.api.post('/v1/jobs', { name: 'Locked job' });
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { deletion_locked: true } });
    const del = await w.api.delete(`/v1/jobs/${job.body.data.id}`);
    expect(del.status).toBe(403);
    expect(del.body.deletion_locked).toBe(true);
  });

  it('PATCH validation: bad plan, bad timezone, unknown settings key, unknown field are 400 and change nothing', async () => {
    const { firm_id } = await createWorkspace();
    for (const body of [
      { plan: 'diamond' },
      { timezone: 'Nowhere/Special' },
      { settings: { dark_mode: true } },
      { colour: 'red' },
      { subscription_status: 'x' },
    ]) {
      const res = await t.admin.patch(`/admin/v1/workspaces/${firm_id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const read = await t.admin.get(`/admin/v1/workspaces/${firm_id}`);
    expect(read.body.data).toMatchObject({ plan: 'gold', timezone: 'UTC', settings: DEFAULT_SETTINGS });
  });

  it('an unknown or malformed workspace id is 404', async () => {
    expect((await t.admin.get('/admin/v1/workspaces/999999')).status).toBe(404);
    expect((await t.admin.get('/admin/v1/workspaces/999999')).body.error).toBe('Workspace not found');
    expect((await t.admin.patch('/admin/v1/workspaces/999999', { plan: 'gold' })).status).toBe(404);
    expect((await t.admin.get('/admin/v1/workspaces/abc')).status).toBe(404);
    expect((await t.admin.get('/admin/v1/workspaces/999999/users')).status).toBe(404);
    expect(
      (await t.admin.post('/admin/v1/workspaces/999999/users', { name: 'N', email: 'n@example.com' })).status,
    ).toBe(404);
  });

  it('GET /admin/v1/workspaces lists workspaces', async () => {
    const { firm_id } = await createWorkspace();
    const res = await t.admin.get('/admin/v1/workspaces');
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: { firm_id: number }) => w.firm_id)).toContain(firm_id);
  });

  it('invalid JSON is a 400', async () => {
    const res = await t.admin.post('/admin/v1/workspaces', '{"name":');
    expect(res.status).toBe(400);
  });
});

describe('users', () => {
  it('member defaults: office user with pricing access, estimator, nothing else', async () => {
    const { firm_id } = await createWorkspace();
    const res = await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
      name: 'Mia Member',
      email: 'Mia@Example.com',
    });
    expect(res.status).toBe(201);
    const u = res.body.data;
    expect(u).toMatchObject({
      firm_id,
      name: 'Mia Member',
      email: 'mia@example.com',
      role: 'member',
      estimating_role: 'estimator',
      is_firm_owner: false,
      office_user: true,
      pricing_access: true,
      schedule_editor: false,
      payroll_approver: false,
      sees_own_jobs_only: false,
      can_delete_jobs: false,
      can_view_reports: false,
      can_see_pay: false,
      can_see_job_costs: false,
      ai_auto_measure: true,
      removed_at: null,
    });
    expect(u.created_at).toMatch(MICRO);
  });

  it('the owner gets everything', async () => {
    const { firm_id, owner_user_id } = await createWorkspace();
    const users = await t.admin.get(`/admin/v1/workspaces/${firm_id}/users`);
    const owner = users.body.data.find((u: { id: number }) => u.id === owner_user_id);
    expect(owner).toMatchObject({
      role: 'owner',
      estimating_role: 'admin',
      is_firm_owner: true,
      sees_own_jobs_only: false,
    });
    for (const f of FLAGS.filter((f) => f !== 'sees_own_jobs_only')) expect(owner[f], f).toBe(true);
  });

  it('viewer and crew defaults', async () => {
    const { firm_id } = await createWorkspace();
    const viewer = (
      await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
        name: 'Vic',
        email: 'vic@example.com',
        role: 'viewer',
      })
    ).body.data;
    expect(viewer).toMatchObject({ role: 'viewer', estimating_role: 'none' });
    // ai_auto_measure is a preference, on for every new user.
    for (const f of FLAGS) expect(viewer[f], `viewer ${f}`).toBe(f === 'ai_auto_measure');
    const crew = (
      await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
        name: 'Cal',
        email: 'cal@example.com',
        role: 'crew',
      })
    ).body.data;
    expect(crew).toMatchObject({ role: 'crew', estimating_role: 'none', sees_own_jobs_only: true, office_user: false });
    for (const f of FLAGS.filter((f) => f !== 'sees_own_jobs_only'))
      expect(crew[f], `crew ${f}`).toBe(f === 'ai_auto_measure');
  });

  it('explicit flags override the defaults', async () => {
    const { firm_id } = await createWorkspace();
    const res = await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
      name: 'Flagged',
      email: 'flagged@example.com',
      office_user: false,
      schedule_editor: true,
      estimating_role: 'sales',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ office_user: false, schedule_editor: true, estimating_role: 'sales' });
  });

  it('PATCH changes flags and profile fields', async () => {
    const { firm_id } = await createWorkspace();
    const u = (await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Pat', email: 'pat@example.com' }))
      .body.data;
    const res = await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${u.id}`, {
      can_delete_jobs: true,
      sees_own_jobs_only: true,
      office_user: false,
      job_title: 'Estimator',
      role: 'viewer',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      can_delete_jobs: true,
      sees_own_jobs_only: true,
      office_user: false,
      job_title: 'Estimator',
      role: 'viewer',
      pricing_access: true,
    });
    const list = await t.admin.get(`/admin/v1/workspaces/${firm_id}/users`);
    expect(list.body.data.find((x: { id: number }) => x.id === u.id)).toMatchObject({
      can_delete_jobs: true,
      role: 'viewer',
    });
  });

  it('PATCH validation and lookups', async () => {
    const { firm_id, owner_user_id } = await createWorkspace();
    const other = await createWorkspace();
    const u = (await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Quin', email: 'quin@example.com' }))
      .body.data;
    expect((await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${u.id}`, { role: 'king' })).status).toBe(400);
    expect((await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${u.id}`, { shoe_size: 9 })).status).toBe(400);
    expect((await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${u.id}`, { office_user: 'yes' })).status).toBe(
      400,
    );
    expect((await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/999999`, { name: 'x' })).status).toBe(404);
    // A user of another workspace is not found through this one.
    expect((await t.admin.patch(`/admin/v1/workspaces/${other.firm_id}/users/${u.id}`, { name: 'x' })).status).toBe(
      404,
    );
    // The owner cannot be demoted.
    const demote = await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${owner_user_id}`, { role: 'member' });
    expect(demote.status).toBe(409);
  });

  it('validation: missing name or email, bad email, bad role, unknown field are 400', async () => {
    const { firm_id } = await createWorkspace();
    for (const body of [
      { email: 'a@example.com' },
      { name: 'A' },
      { name: 'A', email: 'nope' },
      { name: 'A', email: 'a@example.com', role: 'king' },
      { name: 'A', email: 'a@example.com', hobby: 'golf' },
    ]) {
      const res = await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin.get(`/admin/v1/workspaces/${firm_id}/users`)).body.data).toHaveLength(1);
  });

  it('a duplicate email (any case) is 409', async () => {
    const { firm_id } = await createWorkspace();
    const first = await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
      name: 'Dee',
      email: 'dee@example.com',
    });
    expect(first.status).toBe(201);
    const dup = await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, {
      name: 'Dee 2',
      email: 'DEE@example.com',
    });
    expect(dup.status).toBe(409);
    const other = (
      await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Eve', email: 'eve@example.com' })
    ).body.data;
    const patched = await t.admin.patch(`/admin/v1/workspaces/${firm_id}/users/${other.id}`, {
      email: 'dee@example.com',
    });
    expect(patched.status).toBe(409);
    // The same email in another workspace is fine.
    const elsewhere = await createWorkspace();
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${elsewhere.firm_id}/users`, { name: 'Dee', email: 'dee@example.com' }))
        .status,
    ).toBe(201);
  });

  it('DELETE sets removed_at and keeps the user as history; the owner cannot be removed', async () => {
    const { firm_id, owner_user_id } = await createWorkspace();
    const u = (
      await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Leaving', email: 'leaving@example.com' })
    ).body.data;
    const res = await t.admin.delete(`/admin/v1/workspaces/${firm_id}/users/${u.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(u.id);
    expect(res.body.data.removed_at).toMatch(MICRO);
    const list = await t.admin.get(`/admin/v1/workspaces/${firm_id}/users`);
    expect(list.body.data.find((x: { id: number }) => x.id === u.id).removed_at).toBe(res.body.data.removed_at);
    // Removing twice is harmless.
    const again = await t.admin.delete(`/admin/v1/workspaces/${firm_id}/users/${u.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.removed_at).toBe(res.body.data.removed_at);
    const owner = await t.admin.delete(`/admin/v1/workspaces/${firm_id}/users/${owner_user_id}`);
    expect(owner.status).toBe(409);
    expect(
      (await t.admin.get(`/admin/v1/workspaces/${firm_id}/users`)).body.data.find(
        (x: { id: number }) => x.id === owner_user_id,
      ).removed_at,
    ).toBeNull();
    expect((await t.admin.delete(`/admin/v1/workspaces/${firm_id}/users/999999`)).status).toBe(404);
    // The email is free again for a new user.
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Returning', email: 'leaving@example.com' }))
        .status,
    ).toBe(201);
  });

  it('a removed user drops out of GET /v1/users', async () => {
    const w = await t.workspace();
    const member = await t.user(w.firmId, { name: 'Soon Gone' });
    expect((await w.api.get('/v1/users')).body.data.map((u: { id: number }) => u.id)).toContain(member.id);
    await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${member.id}`);
    expect((await w.api.get('/v1/users')).body.data.map((u: { id: number }) => u.id)).not.toContain(member.id);
  });
});

describe('API keys', () => {
  it('POST returns {id, prefix, key}; the key is shown only there', async () => {
    const { firm_id, owner_user_id } = await createWorkspace();
    const res = await t.admin.post(`/admin/v1/workspaces/${firm_id}/api-keys`, {
      user_id: owner_user_id,
      permissions: ['read_jobs'],
      name: 'Sync',
    });
    expect(res.status).toBe(201);
    const k = res.body.data;
    expect(k).toMatchObject({
      kind: 'workspace',
      name: 'Sync',
      firm_id,
      user_id: owner_user_id,
      permissions: ['read_jobs'],
      revoked_at: null,
    });
    expect(k.id).toBeTypeOf('number');
    expect(k.key).toMatch(/^gw_[A-Za-z0-9]{48}$/);
    expect(k.prefix).toBe(k.key.slice(0, 11));
    const list = await t.admin.get(`/admin/v1/workspaces/${firm_id}/api-keys`);
    expect(list.status).toBe(200);
    const row = list.body.data.find((x: { id: number }) => x.id === k.id);
    expect(row).toMatchObject({ id: k.id, prefix: k.prefix, permissions: ['read_jobs'] });
    for (const item of list.body.data) {
      expect(item).not.toHaveProperty('key');
      expect(item).not.toHaveProperty('key_hash');
      expect(JSON.stringify(item)).not.toContain(k.key.slice(11));
    }
    // The key works with exactly its permissions.
    expect((await t.as(k.key).get('/v1/jobs')).status).toBe(200);
    expect((await t.as(k.key).post('/v1/jobs', { name: 'x' })).status).toBe(403);
  });

  it('bad permission names, empty permissions and unknown fields are 400', async () => {
    const { firm_id, owner_user_id } = await createWorkspace();
    for (const body of [
      { user_id: owner_user_id, permissions: ['read_everything'] },
      { user_id: owner_user_id, permissions: [] },
      { user_id: owner_user_id },
      { permissions: ['read_jobs'] },
      { user_id: owner_user_id, permissions: ['read_jobs'], expires: 'never' },
    ]) {
      const res = await t.admin.post(`/admin/v1/workspaces/${firm_id}/api-keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin.get(`/admin/v1/workspaces/${firm_id}/api-keys`)).body.data).toEqual([]);
  });

  it('a key for an unknown user, or a user of another workspace, is 404; for a removed user 409', async () => {
    const { firm_id } = await createWorkspace();
    const other = await createWorkspace();
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/api-keys`, { user_id: 999999, permissions: ['read_jobs'] }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.admin.post(`/admin/v1/workspaces/${firm_id}/api-keys`, {
          user_id: other.owner_user_id,
          permissions: ['read_jobs'],
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.admin.post('/admin/v1/workspaces/999999/api-keys', {
          user_id: other.owner_user_id,
          permissions: ['read_jobs'],
        })
      ).status,
    ).toBe(404);
    const u = (await t.admin.post(`/admin/v1/workspaces/${firm_id}/users`, { name: 'Gone', email: 'gone@example.com' }))
      .body.data;
    await t.admin.delete(`/admin/v1/workspaces/${firm_id}/users/${u.id}`);
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/api-keys`, { user_id: u.id, permissions: ['read_jobs'] }))
        .status,
    ).toBe(409);
  });

  it("revoking: DELETE marks revoked_at; another workspace's key is 404", async () => {
    const w = await t.workspace();
    const other = await createWorkspace();
    const k = (
      await t.admin.post(`/admin/v1/workspaces/${w.firmId}/api-keys`, {
        user_id: w.ownerId,
        permissions: ['read_jobs'],
      })
    ).body.data;
    expect((await t.admin.delete(`/admin/v1/workspaces/${other.firm_id}/api-keys/${k.id}`)).status).toBe(404);
    expect((await t.as(k.key).get('/v1/jobs')).status).toBe(200);
    const res = await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/api-keys/${k.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.body.data).not.toHaveProperty('key');
    expect((await t.as(k.key).get('/v1/jobs')).status).toBe(401);
    const list = await t.admin.get(`/admin/v1/workspaces/${w.firmId}/api-keys`);
    expect(list.body.data.find((x: { id: number }) => x.id === k.id).revoked_at).toBe(res.body.data.revoked_at);
    expect((await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/api-keys/999999`)).status).toBe(404);
  });
});

describe('job stages', () => {
  it('POST adds a stage visible in GET /v1/job-stages', async () => {
    const w = await t.workspace();
    const res = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
      key: 'done',
      label: 'Done',
      type: 'won',
      completed: true,
    });
    expect(res.status).toBe(201);
    const stages = await w.api.get('/v1/job-stages');
    expect(stages.status).toBe(200);
    expect(stages.body.data.map((s: { key: string }) => s.key)).toEqual(['lead', 'active', 'won', 'lost', 'done']);
    expect(stages.body.data[4]).toEqual({ key: 'done', label: 'Done', type: 'won', position: 5, is_completed: true });
    // Jobs can now enter the stage.
    const job = await w.api.post('/v1/jobs', { name: 'Finished lot', status: 'done' });
    expect(job.status).toBe(201);
    expect(job.body.data.status).toBe('done');
  });

  it('a taken key is 409; bad type or key is 400', async () => {
    const { firm_id } = await createWorkspace();
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/job-stages`, { key: 'won', label: 'Again', type: 'won' }))
        .status,
    ).toBe(409);
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/job-stages`, { key: 'x', label: 'X', type: 'maybe' }))
        .status,
    ).toBe(400);
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/job-stages`, { key: 'Has Space', label: 'X', type: 'open' }))
        .status,
    ).toBe(400);
    expect(
      (await t.admin.post(`/admin/v1/workspaces/${firm_id}/job-stages`, { label: 'X', type: 'open' })).status,
    ).toBe(400);
    expect(
      (await t.admin.post('/admin/v1/workspaces/999999/job-stages', { key: 'x', label: 'X', type: 'open' })).status,
    ).toBe(404);
  });
});

describe('partner keys', () => {
  it('a grant to an unknown user, or a user of another workspace, is 404 and issues no key', async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const unknown = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: a.firm_id, user_id: 999999 }],
      permissions: ['read_jobs'],
    });
    expect(unknown.status).toBe(404);
    const crossed = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: a.firm_id, user_id: b.owner_user_id }],
      permissions: ['read_jobs'],
    });
    expect(crossed.status).toBe(404);
    const rows = await t.database.db.selectFrom('api_keys').select('id').where('kind', '=', 'partner').execute();
    const grants = await t.database.db
      .selectFrom('partner_key_grants')
      .select('id')
      .where('firm_id', '=', a.firm_id)
      .execute();
    expect(grants).toEqual([]);
    // No orphan partner key was left behind by the failed calls.
    const ok = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: a.firm_id, user_id: a.owner_user_id }],
      permissions: ['read_jobs'],
    });
    expect(ok.status).toBe(201);
    const after = await t.database.db.selectFrom('api_keys').select('id').where('kind', '=', 'partner').execute();
    expect(after.length).toBe(rows.length + 1);
  });

  it('POST returns the key once, with its grants; validation is 400', async () => {
    const a = await createWorkspace();
    const res = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: a.firm_id, user_id: a.owner_user_id }],
      permissions: ['read_jobs', 'write_jobs'],
      name: 'CRM',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: 'partner',
      name: 'CRM',
      grants: [{ firm_id: a.firm_id, user_id: a.owner_user_id }],
      permissions: ['read_jobs', 'write_jobs'],
    });
    expect(res.body.data.key).toMatch(/^gp_[A-Za-z0-9]{48}$/);
    expect(res.body.data.prefix).toBe(res.body.data.key.slice(0, 11));
    for (const body of [
      { grants: [], permissions: ['read_jobs'] },
      { grants: [{ firm_id: a.firm_id, user_id: a.owner_user_id }], permissions: ['nope'] },
      { grants: [{ firm_id: a.firm_id }], permissions: ['read_jobs'] },
      {
        grants: [
          { firm_id: a.firm_id, user_id: a.owner_user_id },
          { firm_id: a.firm_id, user_id: a.owner_user_id },
        ],
        permissions: ['read_jobs'],
      },
    ]) {
      expect((await t.admin.post('/admin/v1/partner-keys', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin.delete('/admin/v1/partner-keys/999999')).status).toBe(404);
  });
});
