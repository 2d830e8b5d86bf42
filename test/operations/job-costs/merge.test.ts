// A job merge moves the merged-away job's time entries and job costs to the kept job (allocations
// move the same way; test/operations/allocations covers them with work orders).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('moves time entries and job costs to the kept job, which then shows them in its labor and costs', async () => {
  const w = await scheduleWorkspace(t);
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${w.ownerId}`, { pay_rate: 10 }));
  const kept = await scheduleJob(w);
  const away = await scheduleJob(w);
  const keptEntry = await ok(
    w.api.post('/v1/crew/time-entries', {
      job_id: kept.id,
      clock_in: '2026-07-01T08:00:00Z',
      clock_out: '2026-07-01T10:00:00Z',
    }),
  );
  const awayEntry = await ok(
    w.api.post('/v1/crew/time-entries', {
      job_id: away.id,
      clock_in: '2026-07-02T08:00:00Z',
      clock_out: '2026-07-02T09:00:00Z',
    }),
  );
  const awayCost = await ok(
    w.api.post(`/v1/jobs/${away.id}/costs`, { cost_type: 'material', amount: 7, date: '2026-07-02' }),
  );
  await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
  const labor = (await ok(w.api.get(`/v1/jobs/${kept.id}/labor`))).data;
  expect(labor.map((r) => [r.id, r.job_id])).toEqual([
    [keptEntry.data.id, kept.id],
    [awayEntry.data.id, kept.id],
  ]);
  const costs = await ok(w.api.get(`/v1/jobs/${kept.id}/costs`));
  expect(costs.data.map((r) => [r.source, r.id, r.job_id])).toEqual([
    ['labor', keptEntry.data.id, kept.id],
    ['entry', awayCost.data.id, kept.id],
    ['labor', awayEntry.data.id, kept.id],
  ]);
  expect(costs.totals.total).toBe(20 + 7 + 10);
});
