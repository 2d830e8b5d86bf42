// Job follow-ups: POST/GET/PATCH/DELETE /v1/tasks (document 2: job_id and title required; each call adds one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { contact, job, logOf, Z_SECONDS } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('POST /v1/tasks', () => {
  it('adds a follow-up: call by default, open, assigned to the job owner, logged on the job', async () => {
    const w = await t.workspace();
    const rep = await t.user(w.firmId, { name: 'Sales Rep', role: 'member' });
    const j = await job(w, { assigned_to_user_id: rep.id });
    const res = await w.api.post('/v1/tasks', { job_id: j.id, title: 'Call about the estimate' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      job_id: j.id,
      contact_id: null,
      title: 'Call about the estimate',
      task_type: 'call',
      notes: null,
      due_at: null,
      due_date: null,
      due_time: null,
      status: 'open',
      assigned_to_user_id: rep.id,
      assigned_to: { id: rep.id, name: 'Sales Rep' },
      created_by_user_id: w.ownerId,
      completed_at: null,
    });
    expect(res.body.data.created_at).toMatch(Z_SECONDS);
    expect((await w.api.get(`/v1/tasks/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const log = await logOf(w, j.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      kind: 'task_added',
      summary: 'Follow-up "Call about the estimate" added',
      data: { task_id: res.body.data.id },
    });
  });

  it('each call adds one, even with the same body', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = await w.api.post('/v1/tasks', { job_id: j.id, title: 'Same' });
    const b = await w.api.post('/v1/tasks', { job_id: j.id, title: 'Same' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect((await w.api.get(`/v1/tasks?job_id=${j.id}`)).body.pagination.total).toBe(2);
  });

  it("due_date + due_time are read in the workspace's time zone (09:00 by default); due_at takes an instant", async () => {
    const w = await t.workspace({ timezone: 'America/Chicago' });
    const j = await job(w);
    const summer = await w.api.post('/v1/tasks', {
      job_id: j.id,
      title: 'A',
      due_date: '2026-07-01',
      due_time: '14:30',
    });
    expect(summer.body.data).toMatchObject({
      due_at: '2026-07-01T19:30:00Z',
      due_date: '2026-07-01',
      due_time: '14:30',
    });
    const winter = await w.api.post('/v1/tasks', { job_id: j.id, title: 'B', due_date: '2026-01-15' });
    expect(winter.body.data).toMatchObject({
      due_at: '2026-01-15T15:00:00Z',
      due_date: '2026-01-15',
      due_time: '09:00',
    });
    const instant = await w.api.post('/v1/tasks', { job_id: j.id, title: 'C', due_at: '2026-03-01T02:00:00Z' });
    expect(instant.body.data).toMatchObject({
      due_at: '2026-03-01T02:00:00Z',
      due_date: '2026-02-28',
      due_time: '20:00',
    });
  });

  it('takes task_type, notes and contact_id; refuses bad values with 400', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const c = await contact(t, w);
    const ok = await w.api.post('/v1/tasks', {
      job_id: j.id,
      title: 'Walk it',
      task_type: 'site_visit',
      notes: 'Bring wheel',
      contact_id: c,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ task_type: 'site_visit', notes: 'Bring wheel', contact_id: c });
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x' }, 'job_id'],
      [{ job_id: j.id }, 'title'],
      [{ job_id: j.id, title: '   ' }, 'title'],
      [{ job_id: j.id, title: 'x', task_type: 'fax' }, 'task_type'],
      [{ job_id: j.id, title: 'x', due_date: '2026-02-30' }, 'due_date'],
      [{ job_id: j.id, title: 'x', due_date: '2026-02-03', due_time: '24:00' }, 'due_time'],
      [{ job_id: j.id, title: 'x', due_date: '2026-02-03', due_time: '9am' }, 'due_time'],
      [{ job_id: j.id, title: 'x', due_time: '10:00' }, 'due_time'],
      [{ job_id: j.id, title: 'x', due_at: 'tomorrow' }, 'due_at'],
      [{ job_id: j.id, title: 'x', due_at: '2026-02-03T10:00:00Z', due_date: '2026-02-03' }, 'due_at'],
      [{ job_id: j.id, title: 'x', status: 'done' }, 'status'],
    ];
    for (const [body, field] of cases) {
      const res = await w.api.raw.post('/v1/tasks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (res.body.code !== 'unknown_fields') expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await w.api.get('/v1/tasks?status=all')).body.pagination.total).toBe(1);
  });

  it('job, contact and assignee lookups: 404 for missing or other-workspace ids', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w);
    const theirJob = await job(other);
    const theirContact = await contact(t, other);
    for (const job_id of [999999, theirJob.id]) {
      const res = await w.api.post('/v1/tasks', { job_id, title: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Job not found', field: 'job_id' });
    }
    const c = await w.api.post('/v1/tasks', { job_id: j.id, title: 'x', contact_id: theirContact });
    expect(c.body).toMatchObject({ error: 'Contact not found', field: 'contact_id' });
    for (const uid of [999999, other.ownerId]) {
      const res = await w.api.post('/v1/tasks', { job_id: j.id, title: 'x', assigned_to_user_id: uid });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('assigned_to_user_id does not match a user in this workspace');
    }
    const gone = await t.user(w.firmId, { role: 'member' });
    expect((await t.admin.delete(`/admin/v1/workspaces/${w.firmId}/users/${gone.id}`)).status).toBeLessThan(300);
    expect((await w.api.post('/v1/tasks', { job_id: j.id, title: 'x', assigned_to_user_id: gone.id })).status).toBe(
      404,
    );
    expect((await w.api.get('/v1/tasks')).body.pagination.total).toBe(0);
  });

  it('a read-only key is 403', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await ro.post('/v1/tasks', { job_id: j.id, title: 'x' })).status).toBe(403);
  });
});

describe('GET /v1/tasks', () => {
  it('open by default, soonest due first and undated last; status, job and assignee filters; paging', async () => {
    const w = await t.workspace();
    const rep = await t.user(w.firmId, { role: 'member' });
    const j1 = await job(w);
    const j2 = await job(w);
    const mk = async (body: BodyOf<'/v1/tasks', 'post'>) =>
      (await w.api.post('/v1/tasks', body)).body.data.id as number;
    const undated = await mk({ job_id: j1.id, title: 'undated' });
    const late = await mk({ job_id: j1.id, title: 'late', due_date: '2026-05-01' });
    const soon = await mk({ job_id: j2.id, title: 'soon', due_date: '2026-04-01', assigned_to_user_id: rep.id });
    const done = await mk({ job_id: j2.id, title: 'done', due_date: '2026-03-01' });
    expect((await w.api.patch(`/v1/tasks/${done}`, { status: 'done' })).status).toBe(200);
    const ids = async (q: string) => (await w.api.get(`/v1/tasks${q}`)).body.data.map((x: any) => x.id);
    expect(await ids('')).toEqual([soon, late, undated]);
    expect(await ids('?status=done')).toEqual([done]);
    expect(await ids('?status=all')).toEqual([done, soon, late, undated]);
    expect(await ids(`?job_id=${j1.id}`)).toEqual([late, undated]);
    expect(await ids(`?assigned_to_user_id=${rep.id}`)).toEqual([soon]);
    expect(await ids('?due_before=2026-04-15')).toEqual([soon]);
    expect(await ids('?limit=1&offset=1')).toEqual([late]);
    expect((await w.api.get('/v1/tasks?limit=1')).body.pagination).toEqual({ total: 3, limit: 1, offset: 0 });
    expect((await w.api.get('/v1/tasks?status=closed')).status).toBe(400);
    expect((await w.api.get('/v1/tasks?due_before=soon')).status).toBe(400);
  });

  it("another workspace's task is 404; a member who sees own jobs only sees tasks of their jobs only", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = (await other.api.post('/v1/tasks', { job_id: (await job(other)).id, title: 'x' })).body.data;
    expect((await w.api.get(`/v1/tasks/${theirs.id}`)).body.error).toBe('Task not found');
    expect((await w.api.patch(`/v1/tasks/${theirs.id}`, { title: 'y' })).status).toBe(404);
    expect((await w.api.delete(`/v1/tasks/${theirs.id}`)).status).toBe(404);
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const hidden = (
      await w.api.post('/v1/tasks', { job_id: (await job(w)).id, title: 'hidden', assigned_to_user_id: own.id })
    ).body.data;
    const mine = (
      await w.api.post('/v1/tasks', { job_id: (await job(w, { assigned_to_user_id: own.id })).id, title: 'mine' })
    ).body.data;
    const list = await own.api.get('/v1/tasks');
    expect(list.body.data.map((x: any) => x.id)).toEqual([mine.id]);
    expect(list.body.pagination.total).toBe(1);
    expect((await own.api.get(`/v1/tasks/${hidden.id}`)).status).toBe(404);
    expect((await own.api.patch(`/v1/tasks/${hidden.id}`, { status: 'done' })).status).toBe(404);
  });
});

describe('PATCH and DELETE /v1/tasks/{id}', () => {
  it('done sets completed_at and logs task_completed; open clears it and logs task_reopened', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const task = (await w.api.post('/v1/tasks', { job_id: j.id, title: 'Send proposal' })).body.data;
    const done = await w.api.patch(`/v1/tasks/${task.id}`, { status: 'done' });
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('done');
    expect(done.body.data.completed_at).toMatch(Z_SECONDS);
    const reopened = await w.api.patch(`/v1/tasks/${task.id}`, { status: 'open' });
    expect(reopened.body.data).toMatchObject({ status: 'open', completed_at: null });
    expect((await logOf(w, j.id)).map((e) => [e.kind, e.summary])).toEqual([
      ['task_reopened', 'Follow-up "Send proposal" reopened'],
      ['task_completed', 'Follow-up "Send proposal" completed'],
      ['task_added', 'Follow-up "Send proposal" added'],
    ]);
  });

  it('changes title, notes, type, assignee; due_time alone keeps the date; null clears the due', async () => {
    const w = await t.workspace({ timezone: 'America/New_York' });
    const rep = await t.user(w.firmId, { name: 'Rep Two', role: 'member' });
    const j = await job(w);
    const task = (
      await w.api.post('/v1/tasks', { job_id: j.id, title: 'x', due_date: '2026-06-10', due_time: '08:00' })
    ).body.data;
    const res = await w.api.patch(`/v1/tasks/${task.id}`, {
      title: 'Email the plan',
      task_type: 'email',
      notes: 'PDF',
      assigned_to_user_id: rep.id,
      due_time: '16:45',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Email the plan',
      task_type: 'email',
      notes: 'PDF',
      assigned_to: { id: rep.id, name: 'Rep Two' },
      due_date: '2026-06-10',
      due_time: '16:45',
      due_at: '2026-06-10T20:45:00Z',
    });
    const moved = await w.api.patch(`/v1/tasks/${task.id}`, { due_date: '2026-06-12' });
    expect(moved.body.data).toMatchObject({ due_date: '2026-06-12', due_time: '16:45' });
    const cleared = await w.api.patch(`/v1/tasks/${task.id}`, { due_date: null });
    expect(cleared.body.data).toMatchObject({ due_at: null, due_date: null, due_time: null });
    expect((await w.api.patch(`/v1/tasks/${task.id}`, { assigned_to_user_id: 999999 })).status).toBe(404);
    expect((await w.api.raw.patch(`/v1/tasks/${task.id}`, { job_id: j.id })).status).toBe(400);
  });

  it('DELETE needs delete_records and removes the task', async () => {
    const w = await t.workspace();
    const task = (await w.api.post('/v1/tasks', { job_id: (await job(w)).id, title: 'x' })).body.data;
    const noDelete = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']));
    expect((await noDelete.delete(`/v1/tasks/${task.id}`)).status).toBe(403);
    expect((await w.api.delete(`/v1/tasks/${task.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/tasks/${task.id}`)).status).toBe(404);
  });
});
