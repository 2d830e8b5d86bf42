// A job merge moves the merged-away job's assessments and pins to the kept job; a job keeps at
// most one open assessment (site-assessments/merge-movers.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('moves assessments and pins; the merged-away open assessment is completed when the kept job has one', async () => {
  const w = await t.workspace();
  const kept = await job(w);
  const away = await job(w);
  const keptOpen = (await ok(w.api.post('/v1/site-assessments', { job_id: kept.id }))).data;
  const awayOpen = (await ok(w.api.post('/v1/site-assessments', { job_id: away.id }))).data;
  const p = (await ok(w.api.post('/v1/assessment-pins', { job_id: away.id, latitude: 1, longitude: 2 }))).data;
  expect(p.assessment_id).toBe(awayOpen.id);
  await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
  const list = (await w.api.get(`/v1/site-assessments?job_id=${kept.id}`)).body.data;
  expect(list.map((a: any) => [a.id, a.status]).sort()).toEqual(
    [
      [keptOpen.id, 'open'],
      [awayOpen.id, 'completed'],
    ].sort(),
  );
  expect((await w.api.get(`/v1/assessment-pins/${p.id}`)).body.data).toMatchObject({
    job_id: kept.id,
    assessment_id: awayOpen.id,
  });
});
