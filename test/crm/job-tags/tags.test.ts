// /v1/job-tags and /v1/jobs/{job_id}/tags (document 2, Tag; docs/api-decisions.md, Job details, site, tags).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function tag(w: Workspace, body: BodyOf<'/v1/job-tags', 'post'>) {
  const res = await w.api.post('/v1/job-tags', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string; color: string };
}

async function job(w: Workspace, name: string) {
  const res = await w.api.post('/v1/jobs', { name });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /v1/job-tags', () => {
  it('creates a tag: 201 {data: {id, name, color}}', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/job-tags', { name: 'Priority', color: '#ff0000' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: expect.any(Number), name: 'Priority', color: '#ff0000' } });
  });

  it('default color is #64748b', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/job-tags', { name: 'Plain' });
    expect(res.status).toBe(201);
    expect(res.body.data.color).toBe('#64748b');
  });

  it('a taken name in any case is 409 with the existing tag', async () => {
    const w = await t.workspace();
    const existing = await tag(w, { name: 'Repeat Customer', color: '#00aa00' });
    for (const name of ['Repeat Customer', 'repeat customer', 'REPEAT CUSTOMER']) {
      const res = await w.api.post('/v1/job-tags', { name, color: '#123456' });
      expect(res.status, name).toBe(409);
      expect(res.body.error).toBe('Tag already exists');
      expect(res.body.tag).toEqual(existing);
    }
    expect((await w.api.get('/v1/job-tags')).body.pagination.total).toBe(1);
  });

  it('the same name in another workspace is a separate tag', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const mine = await tag(w, { name: 'Shared Name' });
    const theirs = await tag(other, { name: 'Shared Name' });
    expect(theirs.id).not.toBe(mine.id);
  });

  it('name over 50 characters is 400; 50 is fine', async () => {
    const w = await t.workspace();
    const long = await w.api.post('/v1/job-tags', { name: 'n'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('name');
    expect((await w.api.post('/v1/job-tags', { name: 'n'.repeat(50) })).status).toBe(201);
  });

  it('missing or empty name is 400', async () => {
    const w = await t.workspace();
    expect((await w.api.raw.post('/v1/job-tags', { color: '#000000' })).status).toBe(400);
    expect((await w.api.post('/v1/job-tags', { name: '' })).status).toBe(400);
    expect((await w.api.post('/v1/job-tags', { name: '   ' })).status).toBe(400);
    expect((await w.api.get('/v1/job-tags')).body.pagination.total).toBe(0);
  });

  it('a color that is not #rrggbb is 400', async () => {
    const w = await t.workspace();
    for (const color of ['red', '#abc', '#gggggg', '123456', '#1234567', '']) {
      const res = await w.api.post('/v1/job-tags', { name: `Tag ${color}`, color });
      expect(res.status, color).toBe(400);
      expect(res.body.error).toContain('color');
    }
    expect((await w.api.get('/v1/job-tags')).body.pagination.total).toBe(0);
  });

  it('an unknown field is 400', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/job-tags', { name: 'X', icon: 'star' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(['icon']);
  });
});

describe('GET /v1/job-tags', () => {
  it("lists the workspace's tags A to Z, any case", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    await tag(other, { name: 'Not mine' });
    const z = await tag(w, { name: 'zebra' });
    const a = await tag(w, { name: 'Apple' });
    const m = await tag(w, { name: 'mango' });
    const b = await tag(w, { name: 'Banana' });
    const res = await w.api.get('/v1/job-tags');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([a, b, m, z]);
    expect(res.body.pagination).toEqual({ total: 4, limit: 50, offset: 0 });
    const page = await w.api.get('/v1/job-tags?limit=2&offset=1');
    expect(page.body.data).toEqual([b, m]);
  });

  it('q filters by name, case-insensitively', async () => {
    const w = await t.workspace();
    const hot = await tag(w, { name: 'Hot Lead' });
    await tag(w, { name: 'Cold' });
    const hoa = await tag(w, { name: 'HOA Lead' });
    const res = await w.api.get('/v1/job-tags?q=lead');
    expect(res.body.data).toEqual([hoa, hot]);
    expect(res.body.pagination.total).toBe(2);
    expect((await w.api.get('/v1/job-tags?q=nothing')).body.data).toEqual([]);
  });
});

describe('POST /v1/jobs/{job_id}/tags', () => {
  it("adds tags and answers the job's tags; repeating is harmless", async () => {
    const w = await t.workspace();
    const j = await job(w, 'Tagged');
    const t1 = await tag(w, { name: 'Beta' });
    const t2 = await tag(w, { name: 'Alpha', color: '#111111' });
    const res = await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [t1.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [t1] });
    const more = await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [t2.id, t1.id, t2.id] });
    expect(more.status).toBe(200);
    expect(more.body.data).toHaveLength(2);
    expect(more.body.data).toEqual(expect.arrayContaining([t1, t2]));
    const again = await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [t1.id] });
    expect(again.status).toBe(200);
    expect(again.body.data).toHaveLength(2);
    const d = await w.api.get(`/v1/jobs/${j.id}/details`);
    expect(d.body.data.tags).toHaveLength(2);
    expect(d.body.data.tags).toEqual(expect.arrayContaining([t1, t2]));
  });

  it('an unknown or foreign tag id is 404 and nothing is added', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w, 'Guarded');
    const mine = await tag(w, { name: 'Mine' });
    const theirs = await tag(other, { name: 'Theirs' });
    for (const ids of [[theirs.id], [999999], [mine.id, theirs.id]]) {
      const res = await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: ids });
      expect(res.status, JSON.stringify(ids)).toBe(404);
      expect(res.body.error).toBe('Tag not found');
    }
    expect((await w.api.get(`/v1/jobs/${j.id}/details`)).body.data.tags).toEqual([]);
  });

  it("another workspace's job is 404", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await job(other, 'Theirs');
    const theirTag = await tag(other, { name: 'T' });
    const res = await w.api.post(`/v1/jobs/${theirs.id}/tags`, { tag_ids: [theirTag.id] });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await other.api.get(`/v1/jobs/${theirs.id}/details`)).body.data.tags).toEqual([]);
  });

  it('bad bodies are 400', async () => {
    const w = await t.workspace();
    const j = await job(w, 'Strict');
    for (const body of [{}, { tag_ids: [] }, { tag_ids: 'one' }, { tag_ids: ['a'] }, { tag_ids: [1], extra: true }]) {
      expect((await w.api.raw.post(`/v1/jobs/${j.id}/tags`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('DELETE /v1/jobs/{job_id}/tags/{tag_id}', () => {
  it('takes the tag off (204); the tag stays in the list; a second delete is 404', async () => {
    const w = await t.workspace();
    const j = await job(w, 'Untag');
    const t1 = await tag(w, { name: 'Keep Listed' });
    const t2 = await tag(w, { name: 'Stays On' });
    await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [t1.id, t2.id] });
    const res = await w.api.delete(`/v1/jobs/${j.id}/tags/${t1.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await w.api.get(`/v1/jobs/${j.id}/details`)).body.data.tags).toEqual([t2]);
    expect((await w.api.get('/v1/job-tags')).body.data).toEqual([t1, t2]);
    const again = await w.api.delete(`/v1/jobs/${j.id}/tags/${t1.id}`);
    expect(again.status).toBe(404);
  });

  it('404 for a tag not on the job, a foreign tag and a foreign job', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w, 'Plain');
    const mine = await tag(w, { name: 'Never On' });
    expect((await w.api.delete(`/v1/jobs/${j.id}/tags/${mine.id}`)).status).toBe(404);
    const theirJob = await job(other, 'Theirs');
    const theirTag = await tag(other, { name: 'Theirs' });
    await other.api.post(`/v1/jobs/${theirJob.id}/tags`, { tag_ids: [theirTag.id] });
    expect((await w.api.delete(`/v1/jobs/${j.id}/tags/${theirTag.id}`)).status).toBe(404);
    expect((await w.api.delete(`/v1/jobs/${theirJob.id}/tags/${theirTag.id}`)).status).toBe(404);
    expect((await other.api.get(`/v1/jobs/${theirJob.id}/details`)).body.data.tags).toEqual([theirTag]);
  });
});

describe("tagging and the job's updated_at", () => {
  it('adding and removing tags does not move updated_at', async () => {
    const w = await t.workspace();
    const j = await job(w, 'Still');
    const t1 = await tag(w, { name: 'One' });
    await sleep(5);
    expect((await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [t1.id] })).status).toBe(200);
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.updated_at).toBe(j.updated_at);
    await sleep(5);
    expect((await w.api.delete(`/v1/jobs/${j.id}/tags/${t1.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${j.id}`)).body.data.updated_at).toBe(j.updated_at);
    const since = await w.api.get(`/v1/jobs?updated_after=${encodeURIComponent(j.updated_at)}`);
    expect(since.body.data).toEqual([]);
  });
});
