// The job_costs export dataset (document 3: the rows of GET /v1/jobs/{id}/costs that are entered
// costs; changed since created_at, reviewed_at or reconciled_at): id order, jobs the user sees,
// nothing for users who may not see job costs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';
import { jsonLines, rawGet } from '#test/helpers/downloads.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('streams entered costs in id order, only new ones after updated_after, none for users who may not see costs', async () => {
  const w = await scheduleWorkspace(t);
  const other = await scheduleWorkspace(t);
  const job = await scheduleJob(w);
  const cost = (amount: number) =>
    ok(w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'material', amount, date: '2026-06-01' }));
  const a = (await cost(10)).data;
  const b = (await cost(20)).data;
  await ok(
    other.api.post(`/v1/jobs/${(await scheduleJob(other)).id}/costs`, {
      cost_type: 'other',
      amount: 1,
      date: '2026-06-01',
    }),
  );

  const res = await rawGet(t, '/v1/exports/job_costs.jsonl', w.key);
  expect(res.status).toBe(200);
  const rows = jsonLines(res.bytes);
  expect(rows).toEqual([a, b]);
  const listed = (await ok(w.api.get(`/v1/jobs/${job.id}/costs`))).data;
  expect(rows).toEqual(listed.filter((r) => r.source === 'entry'));

  const member = await t.user(w.firmId, { name: 'No Costs', email: 'nocosts@office.test', role: 'member' });
  const none = await rawGet(t, '/v1/exports/job_costs.jsonl', member.key);
  expect(none.status).toBe(200);
  expect(jsonLines(none.bytes)).toEqual([]);

  pauseClock();
  try {
    const mark = new Date(Date.parse(b.created_at) + 1000).toISOString();
    advanceClock(2000);
    const c = (await cost(30)).data;
    const since = jsonLines((await rawGet(t, `/v1/exports/job_costs.jsonl?updated_after=${mark}`, w.key)).bytes);
    expect(since.map((r) => r.id)).toEqual([c.id]);
  } finally {
    resumeClock();
  }
});
