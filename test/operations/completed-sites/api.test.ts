// GET /v1/sites/completed (document 2, Syncing rule 5; docs/decisions/operations-rebids.md): sites
// with a completed work order or a history record, newest first; updated_after oldest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, job, ok, site, Z_SECONDS } from '#test/helpers/records.ts';
import { advanceClock, now, pauseClock, resumeClock } from '#platform/time.ts';
import { completedWorkOrder } from '#test/operations/rebids/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('GET /v1/sites/completed', () => {
  it('lists sites with completed work: history records and completed work orders, with the row shape', async () => {
    const w = await t.workspace();
    pauseClock();
    try {
      const acme = await account(w.api, 'Acme');
      const a = await site(w.api, { address: '1 Pine St, Springfield', name: 'Pine lot', client_account_id: acme.id });
      const b = await site(w.api, { address: '2 Pine St, Springfield', name: 'Pine two' });
      await site(w.api, { address: '3 Pine St, Springfield', name: 'Nothing done' });
      const cycles = (await ok(w.api.get('/v1/rebid-cycles'))).data;
      const seal = cycles.find((c) => c.service === 'Sealcoating')!;
      const stripe = cycles.find((c) => c.service === 'Striping')!;
      await ok(w.api.post('/v1/rebids/history', { location_id: a.id, cycle_id: seal.id, done_on: '2025-05-01' }));
      await ok(w.api.post('/v1/rebids/history', { location_id: a.id, cycle_id: seal.id, done_on: '2024-05-01' }));
      await ok(w.api.post('/v1/rebids/history', { location_id: a.id, cycle_id: stripe.id, done_on: '2025-06-02' }));
      advanceClock(2000);
      const j = await job(w.api, { name: 'Pine two job', address: b.address });
      const wo = await completedWorkOrder(t, w.firmId, j.id, { title: 'Patching', completedAt: now() });
      advanceClock(2000);
      const list = await ok(w.api.get('/v1/sites/completed'));
      expect(ids(list.data)).toEqual([b.id, a.id]);
      expect(list.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
      expect(list.data[1]).toEqual({
        id: a.id,
        name: 'Pine lot',
        address: a.address,
        client_account_id: acme.id,
        last_completed_on: '2025-06-02',
        services: [
          {
            cycle_id: seal.id,
            service: 'Sealcoating',
            last_done_on: '2025-05-01',
            source: 'manual',
            work_order_id: null,
          },
          {
            cycle_id: stripe.id,
            service: 'Striping',
            last_done_on: '2025-06-02',
            source: 'manual',
            work_order_id: null,
          },
        ],
        last_work_order: null,
        updated_at: expect.stringMatching(Z_SECONDS),
      });
      expect(list.data[0]).toMatchObject({
        id: b.id,
        services: [],
        last_work_order: { id: wo.id, job_id: j.id, title: 'Patching', completed_at: expect.stringMatching(Z_SECONDS) },
      });
    } finally {
      resumeClock();
    }
  });

  it('updated_after: oldest updated first, new work brings a site back; a bad value is 400', async () => {
    const w = await t.workspace();
    pauseClock();
    try {
      const start = now();
      const cycle = (await ok(w.api.get('/v1/rebid-cycles'))).data[0]!.id;
      const a = await site(w.api, { address: '11 Fir St, Springfield' });
      const b = await site(w.api, { address: '12 Fir St, Springfield' });
      await ok(w.api.post('/v1/rebids/history', { location_id: a.id, cycle_id: cycle, done_on: '2025-01-01' }));
      advanceClock(2000);
      await ok(w.api.post('/v1/rebids/history', { location_id: b.id, cycle_id: cycle, done_on: '2025-01-01' }));
      advanceClock(2000);
      const after = `${start.slice(0, 10)}T00:00:00Z`;
      const first = await ok(w.api.get(`/v1/sites/completed?updated_after=${after}`));
      expect(ids(first.data)).toEqual([a.id, b.id]);
      const last = first.data[1]!.updated_at;
      expect((await ok(w.api.get(`/v1/sites/completed?updated_after=${last}`))).data).toEqual([]);
      await ok(w.api.post('/v1/rebids/history', { location_id: a.id, cycle_id: cycle, done_on: '2025-02-01' }));
      advanceClock(2000);
      expect(ids((await ok(w.api.get(`/v1/sites/completed?updated_after=${last}`))).data)).toEqual([a.id]);
      expect(ids((await ok(w.api.get('/v1/sites/completed'))).data)).toEqual([a.id, b.id]);
      const bad = await w.api.raw.get('/v1/sites/completed?updated_after=yesterday');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'updated_after must be an ISO 8601 timestamp' });
    } finally {
      resumeClock();
    }
  });

  it("a user who sees only their own jobs sees their jobs' sites; another workspace sees none", async () => {
    const w = await t.workspace();
    const cycle = (await ok(w.api.get('/v1/rebid-cycles'))).data[0]!.id;
    const own = await t.user(w.firmId, {
      role: 'member',
      sees_own_jobs_only: true,
      name: 'Own Oz',
      email: 'oz@sites.test',
    });
    const mine = await site(w.api, { address: '21 Ash St, Springfield' });
    const theirs = await site(w.api, { address: '22 Ash St, Springfield' });
    for (const s of [mine, theirs])
      await ok(w.api.post('/v1/rebids/history', { location_id: s.id, cycle_id: cycle, done_on: '2025-01-01' }));
    await ok(w.api.post('/v1/jobs', { name: 'Oz job', address: mine.address, assigned_to_user_id: own.id }));
    expect(ids((await ok(own.api.get('/v1/sites/completed'))).data)).toEqual([mine.id]);
    const other = await t.workspace();
    expect((await ok(other.api.get('/v1/sites/completed'))).data).toEqual([]);
  });
});
