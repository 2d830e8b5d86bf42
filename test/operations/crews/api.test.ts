// Crews over HTTP (docs/api-decisions.md, "Operations: crews"): make, list, read and change them;
// crew scheduling on for every call, a schedule editor for writes, users of the workspace only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

describe('/v1/crews', () => {
  it('makes a crew: the foreman joins its members, the color defaults and is stored lower case', async () => {
    const a = await t.user(w.firmId, { name: 'Ana Field', email: 'ana@crew.test', role: 'crew' });
    const b = await t.user(w.firmId, { name: 'Bo Field', email: 'bo@crew.test', role: 'crew' });
    const res = await w.api.post('/v1/crews', { name: ' Paving A ', member_user_ids: [a.id], foreman_user_id: b.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Paving A',
      color: '#2563eb',
      active: true,
      foreman_user_id: b.id,
      members: [
        { id: a.id, name: 'Ana Field' },
        { id: b.id, name: 'Bo Field' },
      ],
      created_at: expect.stringMatching(Z_SECONDS),
      updated_at: expect.stringMatching(Z_SECONDS),
    });
    const other = (await ok(w.api.post('/v1/crews', { name: 'Sealcoat B', color: '#AABBCC' }))).data;
    expect(other.color).toBe('#aabbcc');
    const list = await ok(w.api.get('/v1/crews'));
    expect(list.data.map((c) => c.name)).toEqual(['Paving A', 'Sealcoat B']);
    expect(list.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
    expect((await ok(w.api.get(`/v1/crews/${res.body.data.id}`))).data).toEqual(res.body.data);
  });

  it('a taken name (case and spacing ignored) is 409; unknown users are 404 naming them', async () => {
    await ok(w.api.post('/v1/crews', { name: 'Striping' }));
    const dup = await w.api.post('/v1/crews', { name: 'STRIPING ' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('name_taken');
    const other = await t.workspace();
    const missing = await w.api.post('/v1/crews', { name: 'Ghosts', member_user_ids: [other.ownerId, 999999] });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'User not found', user_ids: [other.ownerId, 999999] });
    expect((await ok(w.api.get('/v1/crews'))).data.map((c) => c.name)).not.toContain('Ghosts');
  });

  it('PATCH changes only sent fields; members are replaced; inactive crews list with active=false', async () => {
    const u = await t.user(w.firmId, { name: 'Cy Field', email: 'cy@crew.test', role: 'crew' });
    const crew = (await ok(w.api.post('/v1/crews', { name: 'Patch crew', member_user_ids: [u.id] }))).data;
    const same = await ok(w.api.patch(`/v1/crews/${crew.id}`, {}));
    expect(same.data).toEqual(crew);
    const changed = (await ok(w.api.patch(`/v1/crews/${crew.id}`, { member_user_ids: [], active: false }))).data;
    expect(changed).toMatchObject({ members: [], active: false, name: 'Patch crew' });
    expect((await ok(w.api.get('/v1/crews'))).data.map((c) => c.id)).not.toContain(crew.id);
    expect((await ok(w.api.get('/v1/crews?active=false'))).data.map((c) => c.id)).toEqual([crew.id]);
  });

  it('needs crew scheduling (403) and a schedule editor for writes (403 view_only)', async () => {
    const off = await t.workspace();
    const res = await off.api.get('/v1/crews');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Crew scheduling not enabled', code: 'crew_scheduling_disabled' });
    const member = await t.user(w.firmId, { name: 'Mo Office', email: 'mo@office.test', role: 'member' });
    expect((await member.api.get('/v1/crews')).status).toBe(200);
    const write = await member.api.post('/v1/crews', { name: 'Not mine' });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('view_only');
  });
});
