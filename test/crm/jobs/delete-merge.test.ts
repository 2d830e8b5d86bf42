// DELETE /v1/jobs/{id} and POST /v1/jobs/{id}/merge: permissions, roles, the deletion lock, and what
// a merge keeps, fills and moves (document 2, Jobs; docs/api-decisions.md, Jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function make(w: { api: Workspace['api'] }, body: Record<string, unknown>): Promise<any> {
  const res = await w.api.post('/v1/jobs', body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function total(w: Workspace): Promise<number> {
  return (await w.api.get('/v1/jobs')).body.pagination.total;
}

async function lockDeletion(w: Workspace): Promise<void> {
  const res = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { deletion_locked: true } });
  expect(res.status).toBe(200);
  expect(res.body.data.settings.deletion_locked).toBe(true);
}

describe('DELETE /v1/jobs/{id}', () => {
  it('answers 204 with no body; then GET and a second DELETE are 404', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Doomed' });
    const keep = await make(w, { name: 'Survivor' });
    const res = await w.api.delete(`/v1/jobs/${job.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const read = await w.api.get(`/v1/jobs/${job.id}`);
    expect(read.status).toBe(404);
    expect(read.body.error).toBe('Job not found');
    const again = await w.api.delete(`/v1/jobs/${job.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Job not found');
    const list = await w.api.get('/v1/jobs');
    expect(list.body.data.map((j: any) => j.id)).toEqual([keep.id]);
    expect(list.body.pagination.total).toBe(1);
  });

  it('frees the external_ref and the name', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Reusable', external_ref: 'DEL-1' });
    await w.api.delete(`/v1/jobs/${job.id}`);
    expect((await w.api.get('/v1/jobs?external_ref=DEL-1')).body.data).toEqual([]);
    const again = await w.api.post('/v1/jobs', { name: 'Reusable', external_ref: 'DEL-1' });
    expect(again.status).toBe(201);
    expect(again.body.created).toBe(true);
    const sameName = await w.api.post('/v1/jobs', { name: 'Reusable Two' });
    expect(sameName.status).toBe(201);
  });

  it('a missing or foreign job is 404 and the foreign job stays', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await make(other, { name: 'Not Yours' });
    const res = await w.api.delete(`/v1/jobs/${foreign.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await w.api.delete('/v1/jobs/999999')).status).toBe(404);
    expect((await other.api.get(`/v1/jobs/${foreign.id}`)).status).toBe(200);
  });

  it('needs write_jobs and delete_records', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Guarded' });
    const readWrite = await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']);
    const res = await t.as(readWrite).delete(`/v1/jobs/${job.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks delete permission');
    const deleteOnly = await t.key(w.firmId, w.ownerId, ['read_jobs', 'delete_records']);
    const res2 = await t.as(deleteOnly).delete(`/v1/jobs/${job.id}`);
    expect(res2.status).toBe(403);
    expect(res2.body.error).toBe('API key lacks job write permission');
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
    const both = await t.key(w.firmId, w.ownerId, ['write_jobs', 'delete_records']);
    expect((await t.as(both).delete(`/v1/jobs/${job.id}`)).status).toBe(204);
  });

  it('a member without can_delete_jobs is 403; with it 204', async () => {
    const w = await t.workspace();
    const plain = await t.user(w.firmId, { role: 'member' });
    const allowed = await t.user(w.firmId, { role: 'member', can_delete_jobs: true });
    const job = await make(w, { name: 'Member Delete' });
    const own = await make(plain, { name: 'Plain Own' });
    const res = await plain.api.delete(`/v1/jobs/${job.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('User cannot delete jobs');
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
    // Owning the job does not give a member the right either.
    expect((await plain.api.delete(`/v1/jobs/${own.id}`)).status).toBe(403);
    const ok = await allowed.api.delete(`/v1/jobs/${job.id}`);
    expect(ok.status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(404);
    expect(await total(w)).toBe(1);
  });

  it('a viewer cannot delete', async () => {
    const w = await t.workspace();
    const viewer = await t.user(w.firmId, { role: 'viewer' });
    const job = await make(w, { name: 'Viewer Target' });
    expect((await viewer.api.delete(`/v1/jobs/${job.id}`)).status).toBe(403);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
  });

  it('the deletion lock is 403 with deletion_locked true, even for the owner', async () => {
    const w = await t.workspace();
    const allowed = await t.user(w.firmId, { role: 'member', can_delete_jobs: true });
    const job = await make(w, { name: 'Locked' });
    await lockDeletion(w);
    const res = await w.api.delete(`/v1/jobs/${job.id}`);
    expect(res.status).toBe(403);
    expect(res.body.deletion_locked).toBe(true);
    expect(res.body.error).toBe('Deletion locked');
    expect((await allowed.api.delete(`/v1/jobs/${job.id}`)).status).toBe(403);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
    expect(await total(w)).toBe(1);
    // The lock answers before the user's own right is checked.
    const plain = await t.user(w.firmId, { role: 'member' });
    const plainRes = await plain.api.delete(`/v1/jobs/${job.id}`);
    expect(plainRes.status).toBe(403);
    expect(plainRes.body.deletion_locked).toBe(true);
    // A job that cannot be seen is still 404 first.
    expect((await w.api.delete('/v1/jobs/999999')).status).toBe(404);
  });
});

describe('POST /v1/jobs/{id}/merge', () => {
  it('merges the URL job into into_job_id: kept fields win, blanks are filled, the duplicate is gone', async () => {
    const w = await t.workspace();
    const kept = await make(w, {
      name: 'Kept Job',
      notes: 'kept notes',
      priority: 'high',
      probability: 80,
      estimated_value: 1500,
    });
    const away = await make(w, {
      name: 'Away Job',
      notes: 'away notes',
      contact_email: 'away@example.com',
      description: 'away desc',
      company: 'Away Co',
      address: '5 Away Rd',
      start_date: '2026-06-01',
      estimated_value: 99,
      probability: 10,
      job_type: 'Patching',
      external_ref: 'AWAY-1',
    });
    const res = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'merged_job_id']);
    expect(res.body.merged_job_id).toBe(away.id);
    const job = res.body.data;
    expect(job.id).toBe(kept.id);
    expect(job.name).toBe('Kept Job');
    expect(job.notes).toBe('kept notes');
    expect(job.priority).toBe('high');
    expect(job.probability).toBe(80);
    expect(job.estimated_value).toBe(1500);
    expect(job.contact_email).toBe('away@example.com');
    expect(job.description).toBe('away desc');
    expect(job.company).toBe('Away Co');
    expect(job.client_account_id).toBe(away.client_account_id);
    expect(job.address).toBe('5 Away Rd');
    expect(job.location_id).toBe(away.location_id);
    expect(job.start_date).toBe('2026-06-01');
    expect(job.job_type).toBe('Patching');
    expect(job.external_ref).toBe('AWAY-1');

    const gone = await w.api.get(`/v1/jobs/${away.id}`);
    expect(gone.status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${kept.id}`)).body.data).toEqual(job);
    expect(await total(w)).toBe(1);
    expect((await w.api.get('/v1/jobs?external_ref=AWAY-1')).body.data.map((j: any) => j.id)).toEqual([kept.id]);
  });

  it('moves tags to the kept job without doubling shared ones', async () => {
    const w = await t.workspace();
    const kept = await make(w, { name: 'Tag Keeper' });
    const away = await make(w, { name: 'Tag Leaver' });
    const red = await w.api.post('/v1/job-tags', { name: 'Red' });
    const blue = await w.api.post('/v1/job-tags', { name: 'Blue' });
    const green = await w.api.post('/v1/job-tags', { name: 'Green' });
    expect(red.status).toBe(201);
    const tagIds = (r: any) => r.body.data.map((x: any) => x.id).sort((a: number, b: number) => a - b);
    expect(
      (await w.api.post(`/v1/jobs/${away.id}/tags`, { tag_ids: [red.body.data.id, blue.body.data.id] })).status,
    ).toBe(200);
    expect(
      (await w.api.post(`/v1/jobs/${kept.id}/tags`, { tag_ids: [blue.body.data.id, green.body.data.id] })).status,
    ).toBe(200);
    const res = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(res.status).toBe(200);
    const details = await w.api.get(`/v1/jobs/${kept.id}/details`);
    expect(details.status).toBe(200);
    expect(details.body.data.tags.map((x: any) => x.name).sort()).toEqual(['Blue', 'Green', 'Red']);
    const again = await w.api.post(`/v1/jobs/${kept.id}/tags`, { tag_ids: [red.body.data.id] });
    expect(tagIds(again)).toEqual([red.body.data.id, blue.body.data.id, green.body.data.id].sort((a, b) => a - b));
  });

  it('into itself is 400', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Narcissus' });
    const res = await w.api.post(`/v1/jobs/${job.id}/merge`, { into_job_id: job.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Cannot merge a job into itself');
    expect((await w.api.get(`/v1/jobs/${job.id}`)).status).toBe(200);
  });

  it('into a missing or foreign job is 404; a missing or foreign URL job is 404', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const mine = await make(w, { name: 'Mine To Merge' });
    const foreign = await make(other, { name: 'Foreign Target' });
    const missing = await w.api.post(`/v1/jobs/${mine.id}/merge`, { into_job_id: 999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Job not found');
    const cross = await w.api.post(`/v1/jobs/${mine.id}/merge`, { into_job_id: foreign.id });
    expect(cross.status).toBe(404);
    const crossUrl = await w.api.post(`/v1/jobs/${foreign.id}/merge`, { into_job_id: mine.id });
    expect(crossUrl.status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${mine.id}`)).status).toBe(200);
    expect((await other.api.get(`/v1/jobs/${foreign.id}`)).status).toBe(200);
  });

  it('a body without into_job_id, or with unknown fields, is 400', async () => {
    const w = await t.workspace();
    const a = await make(w, { name: 'Body A' });
    const b = await make(w, { name: 'Body B' });
    const none = await w.api.raw.post(`/v1/jobs/${a.id}/merge`, {});
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('into_job_id is required');
    const extra = await w.api.raw.post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id, choices: {} });
    expect(extra.status).toBe(400);
    expect(await total(w)).toBe(2);
  });

  it('a non-office user is 403', async () => {
    const w = await t.workspace();
    const nonOffice = await t.user(w.firmId, { role: 'member', office_user: false, can_delete_jobs: true });
    const a = await make(w, { name: 'Office A' });
    const b = await make(w, { name: 'Office B' });
    const res = await nonOffice.api.post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Office user required');
    expect(await total(w)).toBe(2);

    const crew = await t.user(w.firmId, { role: 'crew' });
    const c1 = await make(w, { name: 'Crew One', assigned_to_user_id: crew.id });
    const c2 = await make(w, { name: 'Crew Two', assigned_to_user_id: crew.id });
    const crewRes = await crew.api.post(`/v1/jobs/${c1.id}/merge`, { into_job_id: c2.id });
    expect(crewRes.status).toBe(403);
    expect(crewRes.body.error).toBe('Office user required');
    expect(await total(w)).toBe(4);

    const office = await t.user(w.firmId, { role: 'member' });
    const ok = await office.api.post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id });
    expect(ok.status).toBe(200);
  });

  it('the deletion lock is 403', async () => {
    const w = await t.workspace();
    const a = await make(w, { name: 'Lock A' });
    const b = await make(w, { name: 'Lock B' });
    await lockDeletion(w);
    const res = await w.api.post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Deletion locked');
    expect(res.body.deletion_locked).toBe(true);
    expect(await total(w)).toBe(2);
  });

  it('needs write_jobs and delete_records', async () => {
    const w = await t.workspace();
    const a = await make(w, { name: 'Perm A' });
    const b = await make(w, { name: 'Perm B' });
    const readWrite = await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']);
    const res = await t.as(readWrite).post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks delete permission');
    const readOnly = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    expect((await t.as(readOnly).post(`/v1/jobs/${a.id}/merge`, { into_job_id: b.id })).status).toBe(403);
    expect(await total(w)).toBe(2);
  });
});
