// History from work (src/modules/operations/rebids/completed-work.ts): a completed work order puts
// its work on its site's history for the cycle its work names, once; and migration 033 gives
// workspaces without cycles the starter set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok, site } from '#test/helpers/records.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { up as rebidCyclesMigration } from '#db/migrations/033_rebid_cycles.ts';
import { recordCompletedWork } from '#src/modules/operations/rebids/completed-work.ts';
import { completedWorkOrder } from './fixtures.ts';
import { scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('recordCompletedWork', () => {
  it("records the work on the job's site for the cycle the title names, on the completion's local day, once", async () => {
    const w = await t.workspace();
    const s = await site(w.api, { address: '5 Birch Rd, Springfield', name: 'Birch lot' });
    const j = await job(w.api, { name: 'Birch seal', address: s.address });
    expect((await ok(w.api.get(`/v1/jobs/${j.id}`))).data.location_id).toBe(s.id);
    const firm = await t.database.db
      .selectFrom('firms')
      .select('timezone')
      .where('id', '=', w.firmId)
      .executeTakeFirstOrThrow();
    const wo = await completedWorkOrder(t, w.firmId, j.id, {
      title: 'Day 1 - sealcoating',
      completedAt: '2026-03-10T12:00:00.000000',
    });
    const id = await t.database.db.transaction().execute((trx) => recordCompletedWork(trx, wo));
    expect(id).toEqual(expect.any(Number));
    expect(await t.database.db.transaction().execute((trx) => recordCompletedWork(trx, wo))).toBeNull();
    const all = (await ok(w.api.get('/v1/rebids?status=all'))).data;
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      key: `loc:${s.id}`,
      service: 'Sealcoating',
      last_done_on: storedToLocal(wo.completed_at!, firm.timezone).date,
      last_amount: null,
    });
    // The record is work from a job: it cannot be removed.
    expect((await w.api.delete(`/v1/rebids/history/${id}`)).status).toBe(409);
  });

  it('records nothing when no cycle is named or the job has no site', async () => {
    const w = await t.workspace();
    const s = await site(w.api, { address: '6 Birch Rd, Springfield' });
    const j = await job(w.api, { name: 'Birch overlay', address: s.address });
    const at = '2026-03-10T12:00:00.000000';
    const overlay = await completedWorkOrder(t, w.firmId, j.id, { title: 'Mill and overlay', completedAt: at });
    expect(await t.database.db.transaction().execute((trx) => recordCompletedWork(trx, overlay))).toBeNull();
    const noSite = await job(w.api, { name: 'No site job' });
    const striping = await completedWorkOrder(t, w.firmId, noSite.id, { title: 'Striping', completedAt: at });
    expect(await t.database.db.transaction().execute((trx) => recordCompletedWork(trx, striping))).toBeNull();
    expect((await ok(w.api.get('/v1/rebids?status=all'))).data).toEqual([]);
  });
});

describe('POST /v1/work-orders/{id}/complete', () => {
  it("puts the work on the site's history: the re-bid and the completed site show it; it cannot be removed", async () => {
    const w = await scheduleWorkspace(t);
    const job = await scheduleJob(w, 'Maple seal');
    expect(job.location_id).toEqual(expect.any(Number));
    const wo = (
      await ok(w.api.post('/v1/work-orders', { job_id: job.id, title: 'Sealcoat lot', phase: 'Sealcoating' }))
    ).data;
    const done = (await ok(w.api.post(`/v1/work-orders/${wo.id}/complete`, {}))).data;
    const firm = await t.database.db
      .selectFrom('firms')
      .select('timezone')
      .where('id', '=', w.firmId)
      .executeTakeFirstOrThrow();
    const day = storedToLocal(done.completed_at!.replace('Z', '.000000'), firm.timezone).date;
    const [rebid] = (await ok(w.api.get('/v1/rebids?status=all'))).data;
    expect(rebid).toMatchObject({
      key: `loc:${job.location_id}`,
      service: 'Sealcoating',
      last_done_on: day,
      status: 'upcoming',
    });
    const [completed] = (await ok(w.api.get('/v1/sites/completed'))).data;
    expect(completed).toMatchObject({
      id: job.location_id,
      last_completed_on: day,
      services: [{ service: 'Sealcoating', last_done_on: day, source: 'work_order', work_order_id: wo.id }],
      last_work_order: { id: wo.id, job_id: job.id, title: 'Sealcoat lot', completed_at: done.completed_at },
    });
    const record = await t.database.db
      .selectFrom('rebid_history')
      .select('id')
      .where('work_order_id', '=', wo.id)
      .executeTakeFirstOrThrow();
    expect((await w.api.delete(`/v1/rebids/history/${record.id}`)).status).toBe(409);
  });
});

describe('migration 033', () => {
  it('gives a workspace without cycles the starter set and leaves the others as they are', async () => {
    const bare = await t.workspace();
    const kept = await t.workspace();
    await t.database.db.deleteFrom('rebid_cycles').where('firm_id', '=', bare.firmId).execute();
    const keptCycles = (await ok(kept.api.get('/v1/rebid-cycles'))).data;
    await rebidCyclesMigration(t.database.db);
    expect((await ok(bare.api.get('/v1/rebid-cycles'))).data.map((c) => [c.service, c.every_years])).toEqual([
      ['Asphalt repair', 3],
      ['Crack sealing', 1],
      ['Sealcoating', 2],
      ['Striping', 1],
    ]);
    expect((await ok(kept.api.get('/v1/rebid-cycles'))).data).toEqual(keptCycles);
  });
});
