// Edge cases across notes, activities and follow-ups: filters, clearing, deletes, time zones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import { account, contact, job, logOf } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('notes', () => {
  it('pinned filter; email and meeting notes log "Email logged" / "Meeting logged"', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const pinned = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'Gate 4411', pinned: true })).body.data;
    await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'Sent the plan', type: 'email' });
    await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'Walked the site', type: 'meeting' });
    const res = await w.api.get(`/v1/jobs/${j.id}/notes?pinned=true`);
    expect(res.body.data.map((n: any) => n.id)).toEqual([pinned.id]);
    expect((await w.api.get(`/v1/jobs/${j.id}/notes?pinned=false`)).body.pagination.total).toBe(2);
    expect((await logOf(w, j.id)).map((e) => e.summary)).toEqual([
      'Meeting logged: Walked the site',
      'Email logged: Sent the plan',
      'Note added: Gate 4411',
    ]);
  });

  it('a long note is shortened in the log summary, whole in the note', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const content = 'word '.repeat(100).trim();
    const note = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content })).body.data;
    expect(note.content).toBe(content);
    const [entry] = await logOf(w, j.id);
    expect(entry.summary.length).toBeLessThan(100);
    expect(entry.summary.endsWith('…')).toBe(true);
  });
});

describe('activities', () => {
  it('a repeat can detach a job with job_id null, keeping the customer', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const ca = await account(w);
    await w.api.post('/v1/activities', {
      type: 'email',
      body: 'x',
      source: 'g',
      external_id: '1',
      associations: { job_id: j.id, client_account_id: ca.id },
    });
    const res = await w.api.post('/v1/activities', {
      type: 'email',
      source: 'g',
      external_id: '1',
      associations: { job_id: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.associations).toMatchObject({ job_id: null, client_account_id: ca.id });
    expect((await w.api.get(`/v1/activities?job_id=${j.id}`)).body.pagination.total).toBe(0);
  });

  it('negative or fractional duration_seconds and over-long source are 400', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const a = { type: 'call', outcome: 'x', associations: { client_account_id: ca.id } };
    expect((await w.api.raw.post('/v1/activities', { ...a, duration_seconds: -1 })).body.field).toBe(
      'duration_seconds',
    );
    expect((await w.api.raw.post('/v1/activities', { ...a, duration_seconds: 1.5 })).body.field).toBe(
      'duration_seconds',
    );
    expect((await w.api.raw.post('/v1/activities', { ...a, source: 's'.repeat(51) })).body.field).toBe('source');
    expect((await w.api.raw.post('/v1/activities', { ...a, external_id: '' })).body.field).toBe('external_id');
  });

  it("a deleted job's activities stay, without the job; its notes and follow-ups go with it", async () => {
    const w = await t.workspace();
    const j = await job(w);
    const c = await contact(t, w);
    const act = (
      await w.api.post('/v1/activities', { type: 'text', body: 'x', associations: { job_id: j.id, contact_id: c } })
    ).body.data;
    const note = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'x' })).body.data;
    const task = (await w.api.post('/v1/tasks', { job_id: j.id, title: 'x' })).body.data;
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/activities/${act.id}`)).body.data.associations).toMatchObject({
      job_id: null,
      contact_id: c,
    });
    expect((await w.api.get(`/v1/notes/${note.id}`)).status).toBe(404);
    expect((await w.api.get(`/v1/tasks/${task.id}`)).status).toBe(404);
  });
});

describe('follow-ups', () => {
  it("default assignee is the job's owner, or the key's user when that owner was removed", async () => {
    const w = await t.workspace();
    const rep = await t.user(w.firmId, { role: 'member' });
    const j = await job(w, { assigned_to_user_id: rep.id });
    await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${rep.id}`);
    const res = await w.api.post('/v1/tasks', { job_id: j.id, title: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.data.assigned_to_user_id).toBe(w.ownerId);
  });

  it('a local time skipped by the spring-forward change moves forward an hour', async () => {
    const w = await t.workspace({ timezone: 'America/Chicago' });
    const ca = await account(w);
    const res = await w.api.post('/v1/account-tasks', {
      client_account_id: ca.id,
      due_date: '2026-03-08',
      due_time: '02:30',
    });
    expect(res.body.data).toMatchObject({ due_at: '2026-03-08T08:30:00Z', due_date: '2026-03-08', due_time: '03:30' });
  });

  it('updated_after on both lists: oldest updated first', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const ca = await account(w);
    const t1 = (await w.api.post('/v1/tasks', { job_id: j.id, title: 'first' })).body.data;
    await w.api.post('/v1/tasks', { job_id: j.id, title: 'second' });
    const a1 = (await w.api.post('/v1/account-tasks', { client_account_id: ca.id })).body.data;
    await new Promise((r) => setTimeout(r, 20));
    const cutoff = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await w.api.patch(`/v1/tasks/${t1.id}`, { status: 'done' });
    await w.api.patch(`/v1/account-tasks/${a1.id}`, { notes: 'later' });
    // Rows of the running second are held back from updated_after lists until it ends (platform/sync.ts).
    advanceClock(1000);
    const tasks = await w.api.get(`/v1/tasks?status=all&updated_after=${encodeURIComponent(cutoff)}`);
    expect(tasks.body.data.map((x: any) => x.id)).toEqual([t1.id]);
    const acct = await w.api.get(`/v1/account-tasks?updated_after=${encodeURIComponent(cutoff)}`);
    expect(acct.body.data.map((x: any) => x.id)).toEqual([a1.id]);
    expect((await w.api.get('/v1/tasks?updated_after=x')).status).toBe(400);
  });
});
