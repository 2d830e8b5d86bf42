// Allocations (docs/api-decisions.md, "Operations: time and job costs"): GET /v1/jobs/{id}/allocation
// with the completed quantity the daily reports add up to, the allocations export dataset and the
// job merge. Daily reports are written as rows here (the crew app's report route is its own test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, Z_SECONDS } from '#test/helpers/records.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';
import { jsonLines, rawGet } from '#test/helpers/downloads.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await scheduleWorkspace(t);
});
afterAll(() => t.close());

/** A job with an estimate of two lines and a work order allocated the first. */
async function allocatedJob(ws: Workspace) {
  const job = await scheduleJob(ws);
  const estimate = (await ok(ws.api.post('/v1/estimates', { job_id: job.id }))).data;
  const line = async (name: string, quantity: number) =>
    (await ok(ws.api.post(`/v1/estimates/${estimate.id}/line-items`, { name, unit: 'SF', quantity, unit_cost: 0.2 })))
      .line_item_id;
  const sealcoat = await line('Sealcoat', 8000);
  const striping = await line('Striping', 300);
  const wo = (
    await ok(ws.api.post('/v1/work-orders', { job_id: job.id, title: 'Sealcoat', estimate_service_id: sealcoat }))
  ).data;
  return { job, wo, sealcoat, striping };
}

/** A daily report row of the work order (a log for the day, then the report). */
async function report(
  ws: Workspace,
  wo: { id: number; job_id: number },
  date: string,
  lineId: number | null,
  qty: number,
) {
  const db = t.database.db;
  const at = now();
  let log = await db
    .selectFrom('daily_logs')
    .select('id')
    .where('work_order_id', '=', wo.id)
    .where('date', '=', date)
    .executeTakeFirst();
  if (!log)
    log = await db
      .insertInto('daily_logs')
      .values({
        firm_id: ws.firmId,
        work_order_id: wo.id,
        job_id: wo.job_id,
        date,
        status: 'draft',
        notes: null,
        submitted_at: null,
        submitted_by_user_id: null,
        office_approved_at: null,
        office_approved_by_user_id: null,
        payroll_approved_at: null,
        payroll_approved_by_user_id: null,
        returned_at: null,
        return_note: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  await db
    .insertInto('daily_reports')
    .values({
      firm_id: ws.firmId,
      daily_log_id: log.id,
      job_id: wo.job_id,
      work_order_id: wo.id,
      estimate_service_id: lineId,
      date,
      submitted_by_user_id: ws.ownerId,
      weather: null,
      work_performed: null,
      delay_notes: null,
      safety_notes: null,
      material_notes: null,
      equipment_notes: null,
      completed_quantity: qty,
      completed_unit: 'SF',
      answers: '{}',
      last_emailed_at: null,
      last_emailed_to: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

describe('GET /v1/jobs/{id}/allocation', () => {
  it("lists the work orders' lines with planned and completed quantities", async () => {
    const { job, wo, sealcoat, striping } = await allocatedJob(w);
    const empty = (await ok(w.api.get(`/v1/jobs/${job.id}/allocation`))).data;
    expect(empty).toEqual([
      {
        id: expect.any(Number),
        work_order_id: wo.id,
        job_id: job.id,
        estimate_service_id: sealcoat,
        service_name: 'Sealcoat',
        planned_quantity: 8000,
        unit: 'SF',
        completed_quantity: 0,
        updated_at: expect.stringMatching(Z_SECONDS),
      },
    ]);
    await report(w, wo, '2026-05-01', sealcoat, 3000);
    await report(w, wo, '2026-05-02', sealcoat, 1500.5);
    await report(w, wo, '2026-05-02', striping, 100);
    await report(w, wo, '2026-05-02', null, 7);
    const done = (await ok(w.api.get(`/v1/jobs/${job.id}/allocation`))).data;
    expect(done[0]).toMatchObject({ completed_quantity: 4500.5 });
    // Another workspace's job, and an unknown one, are 404.
    const other = await t.workspace();
    expect((await other.api.get(`/v1/jobs/${job.id}/allocation`)).status).toBe(404);
    expect((await w.api.get('/v1/jobs/999999/allocation')).status).toBe(404);
  });
});

describe('the allocations export dataset and the job merge', () => {
  it('streams in id order, only those whose work order changed since updated_after; a merge moves them', async () => {
    const ws = await scheduleWorkspace(t);
    const a = await allocatedJob(ws);
    const b = await allocatedJob(ws);
    await allocatedJob(await scheduleWorkspace(t));
    const rows = jsonLines((await rawGet(t, '/v1/exports/allocations.jsonl', ws.key)).bytes);
    const listed = [
      ...(await ok(ws.api.get(`/v1/jobs/${a.job.id}/allocation`))).data,
      ...(await ok(ws.api.get(`/v1/jobs/${b.job.id}/allocation`))).data,
    ];
    expect(rows).toEqual(listed);
    pauseClock();
    try {
      const mark = new Date(Date.parse(listed[1]!.updated_at) + 1000).toISOString();
      advanceClock(2000);
      await ok(ws.api.patch(`/v1/work-orders/${a.wo.id}`, { title: 'Sealcoat, day two' }));
      const since = jsonLines((await rawGet(t, `/v1/exports/allocations.jsonl?updated_after=${mark}`, ws.key)).bytes);
      expect(since.map((r) => r.work_order_id)).toEqual([a.wo.id]);
    } finally {
      resumeClock();
    }
    await ok(ws.api.post(`/v1/jobs/${b.job.id}/merge`, { into_job_id: a.job.id }));
    const merged = (await ok(ws.api.get(`/v1/jobs/${a.job.id}/allocation`))).data;
    expect(merged.map((r) => [r.work_order_id, r.job_id])).toEqual([
      [a.wo.id, a.job.id],
      [b.wo.id, a.job.id],
    ]);
  });
});
