// Notes and logged interactions on jobs, people and customers (document 2, Required fields of
// create calls: "Note or logged call").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import { account, contact, job, logOf, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('POST notes on a job, a person, a customer', () => {
  it('a job note: 201 {data: note} with defaults, author and Z timestamps', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const res = await w.api.post(`/v1/jobs/${j.id}/notes`, { content: '  Gate code is 4411  ' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    const n = res.body.data;
    expect(n).toMatchObject({
      id: expect.any(Number),
      type: 'note',
      content: 'Gate code is 4411',
      pinned: false,
      job_id: j.id,
      contact_id: null,
      client_account_id: null,
      author_user_id: w.ownerId,
      author: { id: w.ownerId, name: expect.any(String) },
    });
    for (const f of ['occurred_at', 'created_at', 'updated_at'] as const) expect(n[f]).toMatch(Z_SECONDS);
    expect((await w.api.get(`/v1/notes/${n.id}`)).body.data).toEqual(n);
  });

  it('a person note and a customer note hang on that record only', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const c = await contact(t, w, 'Pat Jones', ca.id);
    const onPerson = await w.api.post(`/v1/contacts/${c}/notes`, {
      content: 'Prefers texts',
      type: 'call',
      pinned: true,
    });
    expect(onPerson.status).toBe(201);
    expect(onPerson.body.data).toMatchObject({
      contact_id: c,
      job_id: null,
      client_account_id: null,
      type: 'call',
      pinned: true,
    });
    const onCustomer = await w.api.post(`/v1/client-accounts/${ca.id}/notes`, { content: 'Net 30', type: 'meeting' });
    expect(onCustomer.status).toBe(201);
    expect(onCustomer.body.data).toMatchObject({
      client_account_id: ca.id,
      job_id: null,
      contact_id: null,
      type: 'meeting',
    });
    expect((await w.api.get(`/v1/contacts/${c}/notes`)).body.data.map((n: any) => n.id)).toEqual([
      onPerson.body.data.id,
    ]);
    expect((await w.api.get(`/v1/client-accounts/${ca.id}/notes`)).body.data.map((n: any) => n.id)).toEqual([
      onCustomer.body.data.id,
    ]);
  });

  it('occurred_at takes any ISO 8601 instant and answers it in UTC', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const res = await w.api.post(`/v1/jobs/${j.id}/notes`, {
      content: 'Called back',
      type: 'call',
      occurred_at: '2026-03-02T09:15:00-05:00',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.occurred_at).toBe('2026-03-02T14:15:00Z');
  });

  it('content missing, empty or blank is 400 and nothing is saved', async () => {
    const w = await t.workspace();
    const j = await job(w);
    for (const body of [{}, { content: '' }, { content: '   \n ' }, { content: null }]) {
      const res = await w.api.raw.post(`/v1/jobs/${j.id}/notes`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe('content');
    }
    expect((await w.api.get(`/v1/jobs/${j.id}/notes`)).body.pagination.total).toBe(0);
  });

  it('a type outside note, call, email, meeting is 400', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const res = await w.api.raw.post(`/v1/jobs/${j.id}/notes`, { content: 'x', type: 'text' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('type must be one of note, call, email, meeting');
  });

  it('a bad occurred_at, an unknown field or over-long content is 400', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const bad = await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'x', occurred_at: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'occurred_at must be an ISO 8601 timestamp', field: 'occurred_at' });
    const unknown = await w.api.raw.post(`/v1/jobs/${j.id}/notes`, { content: 'x', body: 'y' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_fields');
    const long = await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'x'.repeat(20_001) });
    expect(long.status).toBe(400);
    expect((await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'x'.repeat(20_000) })).status).toBe(201);
  });

  it('missing parents: 404 Job not found, Contact not found, Client account not found', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirJob = await job(other);
    const theirAccount = await account(other);
    const theirContact = await contact(t, other);
    for (const [path, error] of [
      [`/v1/jobs/999999/notes`, 'Job not found'],
      [`/v1/jobs/${theirJob.id}/notes`, 'Job not found'],
      [`/v1/contacts/999999/notes`, 'Contact not found'],
      [`/v1/contacts/${theirContact}/notes`, 'Contact not found'],
      [`/v1/client-accounts/999999/notes`, 'Client account not found'],
      [`/v1/client-accounts/${theirAccount.id}/notes`, 'Client account not found'],
    ]) {
      const post = await w.api.post(path, { content: 'x' });
      expect(post.status, path).toBe(404);
      expect(post.body.error).toBe(error);
      const list = await w.api.get(path);
      expect(list.status, path).toBe(404);
      expect(list.body.error).toBe(error);
    }
  });

  it('a read-only key cannot add, change or delete notes (403) but can read them', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const note = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'x' })).body.data;
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await ro.post(`/v1/jobs/${j.id}/notes`, { content: 'y' })).status).toBe(403);
    expect((await ro.patch(`/v1/notes/${note.id}`, { content: 'y' })).status).toBe(403);
    expect((await ro.delete(`/v1/notes/${note.id}`)).status).toBe(403);
    expect((await ro.get(`/v1/notes/${note.id}`)).status).toBe(200);
    expect((await ro.get(`/v1/jobs/${j.id}/notes`)).body.pagination.total).toBe(1);
  });
});

describe('GET note lists and single notes', () => {
  it('lists newest first with paging and a type filter', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const ids: number[] = [];
    for (const [type, at] of [
      ['note', '2026-01-01T10:00:00Z'],
      ['call', '2026-01-03T10:00:00Z'],
      ['email', '2026-01-02T10:00:00Z'],
      ['call', '2026-01-04T10:00:00Z'],
    ]) {
      ids.push(
        (await w.api.raw.post(`/v1/jobs/${j.id}/notes`, { content: `${type} at ${at}`, type, occurred_at: at })).body
          .data.id,
      );
    }
    const all = await w.api.get(`/v1/jobs/${j.id}/notes`);
    expect(all.body.data.map((n: any) => n.id)).toEqual([ids[3], ids[1], ids[2], ids[0]]);
    expect(all.body.pagination).toEqual({ total: 4, limit: 50, offset: 0 });
    const page = await w.api.get(`/v1/jobs/${j.id}/notes?limit=2&offset=1`);
    expect(page.body.data.map((n: any) => n.id)).toEqual([ids[1], ids[2]]);
    const calls = await w.api.get(`/v1/jobs/${j.id}/notes?type=call`);
    expect(calls.body.data.map((n: any) => n.id)).toEqual([ids[3], ids[1]]);
    expect(calls.body.pagination.total).toBe(2);
    expect((await w.api.get(`/v1/jobs/${j.id}/notes?type=fax`)).status).toBe(400);
    expect((await w.api.get(`/v1/jobs/${j.id}/notes?limit=201`)).status).toBe(400);
  });

  it("another workspace's note is 404 Note not found", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(other);
    const note = (await other.api.post(`/v1/jobs/${j.id}/notes`, { content: 'secret' })).body.data;
    for (const res of [
      await w.api.get(`/v1/notes/${note.id}`),
      await w.api.patch(`/v1/notes/${note.id}`, { content: 'x' }),
      await w.api.delete(`/v1/notes/${note.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Note not found');
    }
    expect((await other.api.get(`/v1/notes/${note.id}`)).body.data.content).toBe('secret');
  });

  it('a member who sees only their own jobs sees notes of their jobs only', async () => {
    const w = await t.workspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const theirs = await job(w);
    const mine = await job(w, { assigned_to_user_id: own.id });
    const hidden = (await w.api.post(`/v1/jobs/${theirs.id}/notes`, { content: 'owner only' })).body.data;
    const shown = (await w.api.post(`/v1/jobs/${mine.id}/notes`, { content: 'mine' })).body.data;
    expect((await own.api.get(`/v1/notes/${hidden.id}`)).status).toBe(404);
    expect((await own.api.get(`/v1/jobs/${theirs.id}/notes`)).body.error).toBe('Job not found');
    expect((await own.api.post(`/v1/jobs/${theirs.id}/notes`, { content: 'x' })).status).toBe(404);
    expect((await own.api.get(`/v1/notes/${shown.id}`)).status).toBe(200);
    expect((await own.api.post(`/v1/jobs/${mine.id}/notes`, { content: 'more' })).status).toBe(201);
  });
});

describe('PATCH and DELETE /v1/notes/{id}', () => {
  it('changes content, type, pinned and bumps updated_at; blank content is 400', async () => {
    const w = await t.workspace();
    const ca = await account(w);
    const note = (
      await w.api.post(`/v1/client-accounts/${ca.id}/notes`, { content: 'draft', occurred_at: '2020-01-01T00:00:00Z' })
    ).body.data;
    // Past the next whole second (updated_at is to the second), by the test clock rather than a real wait.
    advanceClock(1100);
    const res = await w.api.patch(`/v1/notes/${note.id}`, { content: 'final', type: 'email', pinned: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: note.id,
      content: 'final',
      type: 'email',
      pinned: true,
      created_at: note.created_at,
      occurred_at: '2020-01-01T00:00:00Z',
    });
    expect(res.body.data.updated_at > note.updated_at).toBe(true);
    const blank = await w.api.patch(`/v1/notes/${note.id}`, { content: ' ' });
    expect(blank.status).toBe(400);
    expect((await w.api.get(`/v1/notes/${note.id}`)).body.data.content).toBe('final');
    expect((await w.api.raw.patch(`/v1/notes/${note.id}`, { job_id: 1 })).status).toBe(400);
  });

  it('DELETE needs delete_records; deletes for good and logs it on the job', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const note = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'wrong job' })).body.data;
    const noDelete = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']));
    expect((await noDelete.delete(`/v1/notes/${note.id}`)).status).toBe(403);
    const res = await w.api.delete(`/v1/notes/${note.id}`);
    expect(res.status).toBe(204);
    expect((await w.api.get(`/v1/notes/${note.id}`)).status).toBe(404);
    expect((await w.api.get(`/v1/jobs/${j.id}/notes`)).body.pagination.total).toBe(0);
    expect((await logOf(w, j.id)).map((e) => e.kind)).toEqual(['note_deleted', 'note_added']);
  });
});

describe('job notes in the activity log', () => {
  it('every job note logs note_added (a call as "Call logged"); person and customer notes do not touch job logs', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const note = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'Measured the lot' })).body.data;
    const call = (await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'Left voicemail', type: 'call' })).body.data;
    const ca = await account(w);
    await w.api.post(`/v1/client-accounts/${ca.id}/notes`, { content: 'elsewhere' });
    const log = await logOf(w, j.id);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      kind: 'note_added',
      summary: 'Call logged: Left voicemail',
      data: { note_id: call.id, type: 'call' },
      user: { id: w.ownerId },
    });
    expect(log[1]).toMatchObject({
      kind: 'note_added',
      summary: 'Note added: Measured the lot',
      data: { note_id: note.id, type: 'note' },
    });
  });
});
