// Concurrent creates: the external_ref upsert and the duplicate-name guard hold when many calls
// arrive at once (document 2, Syncing rules; "retries never create twins").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('concurrent POST /v1/jobs', () => {
  it('50 calls with one external_ref create exactly one job', async () => {
    const w = await t.workspace();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        w.api.post('/v1/jobs', { name: 'Race Job', external_ref: 'RACE-1', notes: `call ${i}` }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    const created = replies.filter((r) => r.status === 201);
    expect(created[0].body.created).toBe(true);
    expect(replies.filter((r) => r.status === 200).every((r) => r.body.created === false)).toBe(true);
    const ids = new Set(replies.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const list = await w.api.get('/v1/jobs');
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].external_ref).toBe('RACE-1');
    const byRef = await w.api.get('/v1/jobs?external_ref=RACE-1');
    expect(byRef.body.pagination.total).toBe(1);
    const [id] = [...ids];
    const events = await eventsOf(t.database, id);
    expect(events.filter((e) => e.event_type === 'job_created' && e.in_feed === 1)).toHaveLength(1);
  });

  it('20 calls with one name and no external_ref: one 201, the rest 409', async () => {
    const w = await t.workspace();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => w.api.post('/v1/jobs', { name: 'Same Name Race' })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const id = replies.find((r) => r.status === 201)!.body.data.id;
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body.duplicate_job_id).toBe(id);
    const list = await w.api.get('/v1/jobs');
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data.map((j: any) => j.id)).toEqual([id]);
  });

  it('concurrent creates with distinct names all land and the total counts them', async () => {
    const w = await t.workspace();
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        w.api.post('/v1/jobs', { name: `Parallel ${i}`, company: 'Shared Customer', address: '1 Shared Way' }),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const list = await w.api.get('/v1/jobs?limit=100');
    expect(list.body.pagination.total).toBe(30);
    expect(list.body.data).toHaveLength(30);
    expect(new Set(list.body.data.map((j: any) => j.client_account_id)).size).toBe(1);
    expect(new Set(list.body.data.map((j: any) => j.location_id)).size).toBe(1);
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(1);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(1);
  });

  it('concurrent moves keep the per-stage totals right', async () => {
    const w = await t.workspace();
    const jobs = [];
    for (let i = 0; i < 10; i++) jobs.push((await w.api.post('/v1/jobs', { name: `Mover ${i}` })).body.data);
    const replies = await Promise.all(
      jobs.flatMap((j) => [
        w.api.post(`/v1/jobs/${j.id}/move`, { status: 'won' }),
        w.api.post(`/v1/jobs/${j.id}/move`, { status: 'won' }),
      ]),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect((await w.api.get('/v1/jobs?status=won')).body.pagination.total).toBe(10);
    expect((await w.api.get('/v1/jobs?status=lead')).body.pagination.total).toBe(0);
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(10);
    for (const j of jobs) {
      const won = (await eventsOf(t.database, j.id)).filter((e) => e.event_type === 'job_won');
      expect(won).toHaveLength(1);
    }
  });
});
