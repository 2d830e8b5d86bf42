// The time_entries export dataset (document 3: rows of GET /v1/jobs/{id}/labor; changed since
// clock_in, clock_out, approved_at, voided_at, and updated_at): streamed in id order, scoped to the
// jobs the user sees, pay only for users who may see pay.
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

it('streams the labor rows in id order, only those changed since updated_after, pay only for pay viewers', async () => {
  const w = await scheduleWorkspace(t);
  const other = await scheduleWorkspace(t);
  const job = await scheduleJob(w);
  const hidden = await scheduleJob(w);
  const u = await t.user(w.firmId, { name: 'Ex Port', email: 'ex@crew.test', role: 'crew', pay_rate: 25 });
  await ok(w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: u.id }));
  const entry = (at: string, jobId: number | null) =>
    ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: u.id,
        ...(jobId === null ? {} : { job_id: jobId }),
        clock_in: `2026-06-${at}T08:00:00Z`,
        clock_out: `2026-06-${at}T16:00:00Z`,
      }),
    );
  const a = (await entry('01', job.id)).data;
  const b = (await entry('02', null)).data;
  const c = (await entry('03', hidden.id)).data;
  await ok(other.api.post('/v1/crew/time-entries', { clock_in: '2026-06-01T08:00:00Z' }));

  const res = await rawGet(t, '/v1/exports/time_entries.jsonl', w.key);
  expect(res.status).toBe(200);
  expect(res.headers['x-service-export-dataset']).toBe('time_entries');
  const rows = jsonLines(res.bytes);
  // Another workspace's entry is not among them.
  expect(rows.map((r) => r.id)).toEqual([a.id, b.id, c.id]);
  const labor = (await ok(w.api.get(`/v1/jobs/${job.id}/labor`))).data;
  expect(rows[0]).toEqual(labor[0]);
  expect(rows[0]).toMatchObject({ regular_hours: 8, pay_rate: 25, pay: 200 });

  // The crew user sees their own time (even on a job they do not see), without pay; not the owner's.
  const ownerShop = (await ok(w.api.post('/v1/crew/time-entries', { clock_in: '2026-06-05T08:00:00Z' }))).data;
  const own = jsonLines((await rawGet(t, '/v1/exports/time_entries.jsonl', u.key)).bytes);
  expect(own.map((r) => r.id)).toEqual([a.id, b.id, c.id]);
  expect(jsonLines((await rawGet(t, '/v1/exports/time_entries.jsonl', w.key)).bytes).map((r) => r.id)).toContain(
    ownerShop.id,
  );
  expect(own[0]).not.toHaveProperty('pay');

  pauseClock();
  try {
    const mark = new Date(Date.parse(ownerShop.updated_at) + 1000).toISOString();
    advanceClock(2000);
    const voided = (await ok(w.api.post(`/v1/time-entries/${b.id}/void`, { reason: 'Not worked' }))).data;
    const since = jsonLines((await rawGet(t, `/v1/exports/time_entries.jsonl?updated_after=${mark}`, w.key)).bytes);
    expect(since.map((r) => [r.id, r.void_reason])).toEqual([[b.id, 'Not worked']]);
    // An entry entered after the fact (clock_in long before the watermark) is still picked up.
    const mark2 = new Date(Date.parse(voided.updated_at) + 1000).toISOString();
    advanceClock(2000);
    const late = (await entry('04', job.id)).data;
    const after = jsonLines((await rawGet(t, `/v1/exports/time_entries.jsonl?updated_after=${mark2}`, w.key)).bytes);
    expect(after.map((r) => r.id)).toEqual([late.id]);
  } finally {
    resumeClock();
  }
});
