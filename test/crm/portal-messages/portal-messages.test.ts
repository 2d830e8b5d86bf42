// A job's portal messages (document 2: GET /v1/jobs/{job_id}/portal-messages keeps the most recent
// N, default 100, max 200, oldest first; POST body ≤ 2,000, signed by the key's user, not emailed).
// What the customer posts is tested through the portal page (test/crm/portal-links, test/pages/portal).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const path = (jobId: number | string) => `/v1/jobs/${jobId}/portal-messages`;

describe('POST /v1/jobs/{job_id}/portal-messages', () => {
  it("posts a staff message signed by the key's user (201) and emails nothing", async () => {
    const w = await t.workspace();
    const sales = await t.user(w.firmId, { name: 'Sam Sales' });
    const j = await job(w);
    const res = await sales.api.post(path(j.id), { body: '  We will start Monday at 7 AM.  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        job_id: j.id,
        body: 'We will start Monday at 7 AM.',
        author_type: 'staff',
        author_name: 'Sam Sales',
        map_comment: false,
        latitude: null,
        longitude: null,
        location_id: null,
        location_name: null,
        created_at: expect.stringMatching(Z_SECONDS),
      },
    });
    const mail = await t.database.db.selectFrom('outgoing_mail').selectAll().where('firm_id', '=', w.firmId).execute();
    expect(mail).toEqual([]);
  });

  it('takes 2,000 characters and refuses 2,001, a blank body, a missing body and unknown fields (400)', async () => {
    const w = await t.workspace();
    const j = await job(w);
    expect((await w.api.post(path(j.id), { body: 'x'.repeat(2000) })).status).toBe(201);
    const long = await w.api.post(path(j.id), { body: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    const blank = await w.api.post(path(j.id), { body: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ error: 'body is required', field: 'body' });
    expect((await w.api.post(path(j.id), {})).status).toBe(400);
    const unknown = await w.api.post(path(j.id), { body: 'hi', author_type: 'customer' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('author_type');
    expect((await ok(w.api.get(path(j.id)))).data).toHaveLength(1);
  });

  it("is 404 for another workspace's job or one that does not exist; 403 for a read-only key", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w);
    for (const id of [j.id, 99999999]) {
      const res = await other.api.post(path(id), { body: 'hi' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Job not found');
      expect((await other.api.get(path(id))).status).toBe(404);
    }
    const reader = await t.user(w.firmId, {}, ['read_jobs']);
    expect((await reader.api.post(path(j.id), { body: 'hi' })).status).toBe(403);
    expect((await reader.api.get(path(j.id))).status).toBe(200);
  });
});

describe('GET /v1/jobs/{job_id}/portal-messages', () => {
  it('keeps the most recent N (default 100, limit up to 200), oldest first', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const rows = Array.from({ length: 205 }, (_, i) => ({
      firm_id: w.firmId,
      job_id: j.id,
      body: `message ${i + 1}`,
      author_type: i % 2 === 0 ? ('staff' as const) : ('customer' as const),
      author_name: 'Someone',
      author_user_id: null,
      map_comment: 0 as const,
      latitude: null,
      longitude: null,
      location_id: null,
      location_name: null,
      created_at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000000`,
    }));
    await t.database.db.insertInto('portal_messages').values(rows).execute();
    const bodies = (r: any) => r.data.map((m: any) => m.body);
    const byDefault = await ok(w.api.get(path(j.id)));
    expect(byDefault.data).toHaveLength(100);
    expect(bodies(byDefault)[0]).toBe('message 106');
    expect(bodies(byDefault)[99]).toBe('message 205');
    const three = await ok(w.api.get(`${path(j.id)}?limit=3`));
    expect(bodies(three)).toEqual(['message 203', 'message 204', 'message 205']);
    expect((await ok(w.api.get(`${path(j.id)}?limit=200`))).data).toHaveLength(200);
    expect((await w.api.get(`${path(j.id)}?limit=201`)).status).toBe(400);
    expect((await w.api.get(`${path(j.id)}?limit=0`)).status).toBe(400);
  });

  it('a job without messages answers an empty list; a user who sees only their own jobs gets 404 for others', async () => {
    const w = await t.workspace();
    const j = await job(w);
    expect(await ok(w.api.get(path(j.id)))).toEqual({ data: [] });
    const own = await t.user(w.firmId, { sees_own_jobs_only: true });
    expect((await own.api.get(path(j.id))).status).toBe(404);
    expect((await own.api.post(path(j.id), { body: 'hi' })).status).toBe(404);
  });
});
