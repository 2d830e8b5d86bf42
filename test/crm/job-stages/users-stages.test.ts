// GET /v1/users, GET /v1/job-stages, GET /v1/job-types (document 2, Jobs; docs/api-decisions.md,
// Job details, site, tags).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const USER_KEYS = [
  'id',
  'name',
  'username',
  'email',
  'role',
  'job_title',
  'phone_number',
  'headshot_url',
  'is_firm_owner',
  'created_at',
];

describe('GET /v1/users', () => {
  it("lists the workspace's active users with the user object shape", async () => {
    const w = await t.workspace({
      owner: {
        name: 'Olive Owner',
        email: 'olive@example.com',
        job_title: 'President',
        phone_number: '(555) 555-0001',
      },
    });
    const member = await t.user(w.firmId, {
      name: 'Mia Member',
      email: 'mia@example.com',
      username: 'mia',
      role: 'member',
      job_title: 'Estimator',
      phone_number: '(555) 555-0002',
      headshot_url: 'https://img.example.com/mia.png',
    });
    const res = await w.api.get('/v1/users');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
    const [owner, mia] = res.body.data;
    // The owner may see pay, so each user carries pay_rate (docs/decisions: absent for others).
    for (const u of res.body.data) {
      expect(Object.keys(u).sort()).toEqual([...USER_KEYS, 'pay_rate'].sort());
      expect(u.created_at).toMatch(MICRO);
    }
    expect(owner).toMatchObject({
      id: w.ownerId,
      name: 'Olive Owner',
      email: 'olive@example.com',
      role: 'owner',
      job_title: 'President',
      phone_number: '(555) 555-0001',
      headshot_url: null,
      is_firm_owner: true,
    });
    expect(mia).toEqual({
      id: member.id,
      name: 'Mia Member',
      username: 'mia',
      email: 'mia@example.com',
      role: 'member',
      job_title: 'Estimator',
      phone_number: '(555) 555-0002',
      headshot_url: 'https://img.example.com/mia.png',
      is_firm_owner: false,
      created_at: expect.stringMatching(MICRO),
      pay_rate: null,
    });
    const asMember = await member.api.get('/v1/users');
    for (const u of asMember.body.data) expect(Object.keys(u).sort()).toEqual([...USER_KEYS].sort());
  });

  it("leaves out removed users and other workspaces' users", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const stay = await t.user(w.firmId, { name: 'Stays', role: 'member' });
    const leave = await t.user(w.firmId, { name: 'Leaves', role: 'member' });
    const viewer = await t.user(w.firmId, { name: 'Looks', role: 'viewer' });
    await t.user(other.firmId, { name: 'Elsewhere', role: 'member' });
    const removed = await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${leave.id}`);
    expect(removed.status).toBe(200);
    const res = await w.api.get('/v1/users');
    expect(res.body.data.map((u: any) => u.id)).toEqual([w.ownerId, stay.id, viewer.id]);
    expect(res.body.pagination.total).toBe(3);
    const names = res.body.data.map((u: any) => u.name);
    expect(names).not.toContain('Leaves');
    expect(names).not.toContain('Elsewhere');
  });

  it('pages with limit and offset', async () => {
    const w = await t.workspace();
    const a = await t.user(w.firmId, { name: 'A', role: 'member' });
    await t.user(w.firmId, { name: 'B', role: 'member' });
    const res = await w.api.get('/v1/users?limit=1&offset=1');
    expect(res.body.data.map((u: any) => u.id)).toEqual([a.id]);
    expect(res.body.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
  });
});

describe('GET /v1/job-stages', () => {
  it('built-in lead, active, won, lost in order', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/job-stages');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { key: 'lead', label: 'Lead', type: 'open', position: 1, is_completed: false },
      { key: 'active', label: 'Active', type: 'open', position: 2, is_completed: false },
      { key: 'won', label: 'Won', type: 'won', position: 3, is_completed: false },
      { key: 'lost', label: 'Lost', type: 'lost', position: 4, is_completed: false },
    ]);
    expect(res.body.pagination).toEqual({ total: 4, limit: 4, offset: 0 });
  });

  it('workspace stages follow the built-ins with their type and completed flag', async () => {
    const w = await t.workspace({
      job_stages: [
        { key: 'scheduled', label: 'Scheduled', type: 'won' },
        { key: 'completed', label: 'Completed', type: 'won', completed: true },
      ],
    });
    const added = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
      key: 'no_bid',
      label: 'No Bid',
      type: 'excluded',
    });
    expect(added.status).toBe(201);
    const res = await w.api.get('/v1/job-stages');
    expect(res.body.data.map((s: any) => s.key)).toEqual([
      'lead',
      'active',
      'won',
      'lost',
      'scheduled',
      'completed',
      'no_bid',
    ]);
    expect(res.body.data.slice(4)).toEqual([
      { key: 'scheduled', label: 'Scheduled', type: 'won', position: 5, is_completed: false },
      { key: 'completed', label: 'Completed', type: 'won', position: 6, is_completed: true },
      { key: 'no_bid', label: 'No Bid', type: 'excluded', position: 7, is_completed: false },
    ]);
    // Other workspaces keep their own pipeline.
    const other = await t.workspace();
    expect((await other.api.get('/v1/job-stages')).body.data.map((s: any) => s.key)).toEqual([
      'lead',
      'active',
      'won',
      'lost',
    ]);
  });

  it('a workspace stage key is accepted as a job status', async () => {
    const w = await t.workspace({ job_stages: [{ key: 'bidding', label: 'Bidding', type: 'open' }] });
    const job = await w.api.post('/v1/jobs', { name: 'Stage job', status: 'bidding' });
    expect(job.status).toBe(201);
    expect(job.body.data.status).toBe('bidding');
    expect(job.body.data.status_label).toBe('Bidding');
  });
});

describe('GET /v1/job-types', () => {
  it('the default job types', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/job-types');
    expect(res.status).toBe(200);
    const values = res.body.data.map((r: any) => r.value);
    expect(values).toEqual([
      'Asphalt Paving',
      'Sealcoating',
      'Crack Filling',
      'Line Striping',
      'Patching',
      'Concrete',
      'Landscaping',
      'Snow Removal',
    ]);
    for (const row of res.body.data) expect(Object.keys(row)).toEqual(['value']);
    expect(res.body.pagination).toEqual({ total: values.length, limit: values.length, offset: 0 });
  });

  it("the workspace's configured types after PATCH /admin/v1/workspaces/{id}", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const patched = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
      job_types: ['Mowing', 'Mulching', 'Irrigation'],
    });
    expect(patched.status).toBe(200);
    const res = await w.api.get('/v1/job-types');
    expect(res.body.data).toEqual([{ value: 'Mowing' }, { value: 'Mulching' }, { value: 'Irrigation' }]);
    expect(res.body.pagination.total).toBe(3);
    // The configured values are the ones jobs take.
    const ok = await w.api.post('/v1/jobs', { name: 'Yard', job_type: 'mowing' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.job_type).toBe('Mowing');
    const bad = await w.api.post('/v1/jobs', { name: 'Lot', job_type: 'Sealcoating' });
    expect(bad.status).toBe(400);
    // Another workspace still has the defaults.
    expect((await other.api.get('/v1/job-types')).body.data.map((r: any) => r.value)).toContain('Sealcoating');
  });

  it('types set when the workspace is created', async () => {
    const w = await t.workspace({ job_types: ['Striping Only'] });
    expect((await w.api.get('/v1/job-types')).body.data).toEqual([{ value: 'Striping Only' }]);
  });
});
