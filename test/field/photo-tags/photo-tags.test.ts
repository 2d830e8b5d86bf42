// /v1/photo-tags (document 3, Photos, photo tags, files): list, create, and the update and delete
// we designed (docs/api-decisions.md, Photo tags).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const tag = async (w: Workspace, body: BodyOf<'/v1/photo-tags', 'post'>) =>
  (await ok(w.api.post('/v1/photo-tags', body))).data;

describe('create and list', () => {
  it('creates a tag with gray by default and lists the workspace’s tags A to Z', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/photo-tags', { name: '  Potholes ', description: 'Holes deeper than 2 in' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { id: expect.any(Number), name: 'Potholes', color: '#808080', description: 'Holes deeper than 2 in' },
    });
    await tag(w, { name: 'alligator cracking', color: '#AA3300' });
    const list = await w.api.get('/v1/photo-tags');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [
        { id: expect.any(Number), name: 'alligator cracking', color: '#aa3300', description: null },
        { id: res.body.data.id, name: 'Potholes', color: '#808080', description: 'Holes deeper than 2 in' },
      ],
    });
    // Another workspace sees none of them.
    const other = await t.workspace();
    expect((await other.api.get('/v1/photo-tags')).body).toEqual({ data: [] });
  });

  it('refuses a taken name in any case with 409 carrying the existing tag', async () => {
    const w = await t.workspace();
    const first = await tag(w, { name: 'Drainage' });
    const again = await w.api.post('/v1/photo-tags', { name: 'DRAINAGE' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'Photo tag already exists',
      code: 'name_taken',
      message: 'A photo tag named "Drainage" already exists',
      tag: first,
    });
    // Another workspace may use the name.
    expect((await (await t.workspace()).api.post('/v1/photo-tags', { name: 'Drainage' })).status).toBe(201);
  });

  it('answers 400 for a missing, blank or long name, a bad color, a long description and unknown fields', async () => {
    const w = await t.workspace();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /name/],
      [{ name: '   ' }, /name/],
      [{ name: 'x'.repeat(101) }, /name/],
      [{ name: 'Gray', color: 'gray' }, /color/],
      [{ name: 'Short', color: '#abc' }, /color/],
      [{ name: 'Long', description: 'x'.repeat(2001) }, /description/],
      [{ name: 'Extra', bogus: true }, /Unknown fields: bogus/],
    ];
    for (const [body, message] of cases) {
      const res = await w.api.raw.post('/v1/photo-tags', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toMatch(message);
    }
    expect((await w.api.post('/v1/photo-tags', { name: 'x'.repeat(100) })).status).toBe(201);
    expect((await w.api.get('/v1/photo-tags')).body.data).toHaveLength(1);
  });
});

describe('update', () => {
  it('changes only the fields sent; description null clears it', async () => {
    const w = await t.workspace();
    const created = await tag(w, { name: 'Curbs', color: '#112233', description: 'Curb damage' });
    const renamed = await w.api.patch(`/v1/photo-tags/${created.id}`, { name: 'Curb damage' });
    expect(renamed.body.data).toEqual({ ...created, name: 'Curb damage' });
    const cleared = await w.api.patch(`/v1/photo-tags/${created.id}`, { description: null, color: '#FFFFFF' });
    expect(cleared.body.data).toEqual({ ...created, name: 'Curb damage', color: '#ffffff', description: null });
    // Renaming to its own name in another case is fine; to another tag's name is 409.
    expect((await w.api.patch(`/v1/photo-tags/${created.id}`, { name: 'CURB DAMAGE' })).status).toBe(200);
    await tag(w, { name: 'Striping' });
    const taken = await w.api.patch(`/v1/photo-tags/${created.id}`, { name: 'striping' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('name_taken');
  });

  it('answers 404 for an unknown or another workspace’s tag, and 400 for a bad body', async () => {
    const w = await t.workspace();
    const theirs = await tag(await t.workspace(), { name: 'Theirs' });
    for (const id of [theirs.id, 987654]) {
      const res = await w.api.patch(`/v1/photo-tags/${id}`, { name: 'Mine now' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Photo tag not found' });
    }
    const mine = await tag(w, { name: 'Mine' });
    expect((await w.api.patch(`/v1/photo-tags/${mine.id}`, { name: '' })).status).toBe(400);
    expect((await w.api.raw.patch(`/v1/photo-tags/${mine.id}`, { colour: '#000000' })).status).toBe(400);
  });
});

describe('delete', () => {
  it('deletes with Delete records, then 404; the deletion lock refuses it', async () => {
    const w = await t.workspace();
    const doomed = await tag(w, { name: 'Doomed' });
    const res = await w.api.delete(`/v1/photo-tags/${doomed.id}`);
    expect(res.status).toBe(204);
    expect((await w.api.get('/v1/photo-tags')).body.data).toEqual([]);
    expect((await w.api.delete(`/v1/photo-tags/${doomed.id}`)).status).toBe(404);
    // The name is free again.
    expect((await w.api.post('/v1/photo-tags', { name: 'Doomed' })).status).toBe(201);
  });

  it('takes the tag off the pins that carry it', async () => {
    const w = await t.workspace();
    const pothole = await tag(w, { name: 'Pothole' });
    const j = (await ok(w.api.post('/v1/jobs', { name: 'Tagged lot' }))).data;
    const pin = (
      await ok(
        w.api.post('/v1/assessment-pins', { job_id: j.id, latitude: 41.5, longitude: -81.6, tag_type_id: pothole.id }),
      )
    ).data;
    expect(pin.tag).toEqual({ id: pothole.id, name: 'Pothole' });
    expect((await w.api.delete(`/v1/photo-tags/${pothole.id}`)).status).toBe(204);
    expect((await ok(w.api.get(`/v1/assessment-pins/${pin.id}`))).data.tag).toBeNull();
  });

  it('leaves another workspace’s tag alone (404)', async () => {
    const other = await t.workspace();
    const theirs = await tag(other, { name: 'Keep' });
    const w = await t.workspace();
    expect((await w.api.delete(`/v1/photo-tags/${theirs.id}`)).status).toBe(404);
    expect((await other.api.get('/v1/photo-tags')).body.data).toEqual([theirs]);
  });
});

describe('concurrency', () => {
  it('two creates of one name at once make one tag and one 409', async () => {
    const w = await t.workspace();
    const results = await Promise.all([1, 2, 3].map(() => w.api.post('/v1/photo-tags', { name: 'Race' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await w.api.get('/v1/photo-tags')).body.data).toHaveLength(1);
  });
});
