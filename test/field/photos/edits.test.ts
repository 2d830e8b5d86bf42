// PATCH /v1/photos/{id} and the GET /v1/photos filters (document 3, Photos), and an upload while
// storage is down (503 retryable, nothing recorded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from './upload.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w)).id;
});
afterAll(() => t.close());

const photo = async (fields: Record<string, string> = {}) => {
  const res = await uploadPhoto(t, w, jobId, await image('jpeg'), fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

describe('PATCH /v1/photos/{id}', () => {
  it('internal clears include_in_report; the heading wraps and null clears it; tags are replaced', async () => {
    const p = await photo({ include_in_report: 'true', compass_heading: '90' });
    expect(p).toMatchObject({ visibility: 'external', include_in_report: true, compass_heading: 90 });
    const internal = (await ok(w.api.patch(`/v1/photos/${p.id}`, { visibility: 'internal' }))).data;
    expect(internal).toMatchObject({ visibility: 'internal', include_in_report: false });
    // While internal, asking for the report changes nothing.
    const still = (await ok(w.api.patch(`/v1/photos/${p.id}`, { include_in_report: true }))).data;
    expect(still.include_in_report).toBe(false);
    expect((await ok(w.api.patch(`/v1/photos/${p.id}`, { compass_heading: 725 }))).data.compass_heading).toBe(5);
    expect((await ok(w.api.patch(`/v1/photos/${p.id}`, { compass_heading: -90 }))).data.compass_heading).toBe(270);
    expect((await ok(w.api.patch(`/v1/photos/${p.id}`, { compass_heading: null }))).data.compass_heading).toBeNull();
    const a = (await ok(w.api.post('/v1/photo-tags', { name: 'Edge cracks' }))).data;
    const b = (await ok(w.api.post('/v1/photo-tags', { name: 'Oil stains' }))).data;
    expect((await ok(w.api.patch(`/v1/photos/${p.id}`, { tag_ids: [a.id, b.id] }))).data.tags).toHaveLength(2);
    expect((await ok(w.api.patch(`/v1/photos/${p.id}`, { tag_ids: [b.id] }))).data.tags).toEqual([
      { id: b.id, name: 'Oil stains', color: '#808080' },
    ]);
    const missing = await w.api.patch(`/v1/photos/${p.id}`, { tag_ids: [987654] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Photo tag not found');
    expect((await w.api.raw.patch(`/v1/photos/${p.id}`, { stage: 'someday' })).status).toBe(400);
  });

  it('sort_order puts a photo first in the gallery', async () => {
    const x = await t.workspace();
    const j = await job(x);
    const first = (await uploadPhoto(t, x, j.id, await image('png'), { title: 'One' })).body.data;
    const second = (await uploadPhoto(t, x, j.id, await image('png'), { title: 'Two' })).body.data;
    const order = async () => (await ok(x.api.get(`/v1/jobs/${j.id}/photos`))).data.map((p: any) => p.id);
    expect(await order()).toEqual([first.id, second.id]);
    await ok(x.api.patch(`/v1/photos/${second.id}`, { sort_order: -1 }));
    expect(await order()).toEqual([second.id, first.id]);
  });
});

describe('GET /v1/photos', () => {
  it('filters by job, stage and visibility, and pages updated_after oldest first', async () => {
    const x = await t.workspace();
    const j1 = await job(x);
    const j2 = await job(x);
    const before = (await uploadPhoto(t, x, j1.id, await image('jpeg'), { stage: 'before' })).body.data;
    const after = (await uploadPhoto(t, x, j1.id, await image('jpeg'), { stage: 'after', visibility: 'internal' })).body
      .data;
    const other = (await uploadPhoto(t, x, j2.id, await image('jpeg'))).body.data;
    const ids = async (query: string) => (await ok(x.api.get(`/v1/photos${query}`))).data.map((p: any) => p.id);
    expect(await ids('')).toEqual([other.id, after.id, before.id]);
    expect(await ids(`?job_id=${j1.id}`)).toEqual([after.id, before.id]);
    expect(await ids('?stage=before')).toEqual([before.id]);
    expect(await ids('?visibility=internal')).toEqual([after.id]);
    // A change moves a photo to the end of the updated_after order.
    await ok(x.api.patch(`/v1/photos/${before.id}`, { caption: 'Edited' }));
    expect(await ids('?updated_after=2000-01-01T00:00:00Z')).toEqual([after.id, other.id, before.id]);
    expect((await x.api.get('/v1/photos?stage=someday')).status).toBe(400);
  });

  it("pagination.total is the workspace's kept count, right after uploads, deletes and a job's deletion", async () => {
    const x = await t.workspace();
    const j1 = await job(x);
    const j2 = await job(x);
    const total = async (query = '') => (await ok(x.api.get(`/v1/photos${query}`))).pagination.total;
    expect(await total()).toBe(0);
    const first = (await uploadPhoto(t, x, j1.id, await image('jpeg'))).body.data;
    await uploadPhoto(t, x, j1.id, await image('png'), { stage: 'before' });
    await uploadPhoto(t, x, j2.id, await image('jpeg'));
    expect(await total()).toBe(3);
    // Another workspace's uploads are not counted here.
    await uploadPhoto(t, w, jobId, await image('jpeg'));
    expect(await total()).toBe(3);
    expect((await x.api.delete(`/v1/photos/${first.id}`)).status).toBe(204);
    expect(await total()).toBe(2);
    // A job's deletion takes its photos with it (a cascade): the count follows.
    expect((await x.api.delete(`/v1/jobs/${j1.id}`)).status).toBe(204);
    expect(await total()).toBe(1);
    expect(await total(`?job_id=${j2.id}`)).toBe(1);
    expect(await total('?stage=before')).toBe(0);
  });
});

describe('storage down', () => {
  it('answers 503 retryable and records nothing', async () => {
    // A data directory under a file: every write fails, as a full or unmounted disk would.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-down-')), 'not-a-folder');
    fs.writeFileSync(file, '');
    const down = await startApp({
      storage: new LocalStorage({ dataDir: path.join(file, 'data'), clock: new ManualClock() }),
    });
    const x = await down.workspace();
    const j = await job(x);
    const res = await uploadPhoto(down, x, j.id, await image('jpeg'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect((await x.api.get(`/v1/jobs/${j.id}/photos`)).body.data).toEqual([]);
    await down.close();
  });
});
