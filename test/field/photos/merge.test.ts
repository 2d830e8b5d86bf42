// A job merge moves the merged-away job's photos to the kept job, stored files untouched
// (photos/merge-movers.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from './upload.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('moves the photos to the kept job, and their links still serve the files', async () => {
  const w = await t.workspace();
  const kept = await job(w);
  const away = await job(w);
  const mine = await uploadPhoto(t, w, kept.id, await image('jpeg'), { title: 'Kept' });
  const moved = await uploadPhoto(t, w, away.id, await image('png'), { title: 'Moved' });
  expect([mine.status, moved.status]).toEqual([201, 201]);
  await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
  const gallery = (await ok(w.api.get(`/v1/jobs/${kept.id}/photos`))).data as any[];
  expect(gallery.map((p) => p.title).sort()).toEqual(['Kept', 'Moved']);
  const photo = (await ok(w.api.get(`/v1/photos/${moved.body.data.id}`))).data;
  expect(photo.job_id).toBe(kept.id);
  const link = new URL(photo.url);
  const file = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-type']).toBe('image/png');
});
