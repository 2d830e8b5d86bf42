// GET /v1/jobs/{id}/activity: the job page's activity log; tag changes land in it; a job merge
// moves notes, activities, follow-ups and the log to the kept job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { account, job, logOf, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function tag(w: { api: any }, name: string) {
  const res = await w.api.post('/v1/job-tags', { name });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; name: string };
}

describe('GET /v1/jobs/{id}/activity', () => {
  it('a list envelope of {id, job_id, kind, summary, data, user, created_at}, newest first, with paging and kind filter', async () => {
    const w = await t.workspace();
    const j = await job(w);
    await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'one' });
    await w.api.post('/v1/tasks', { job_id: j.id, title: 'two' });
    await w.api.post(`/v1/jobs/${j.id}/notes`, { content: 'three' });
    const res = await w.api.get(`/v1/jobs/${j.id}/activity`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(res.body.data.map((e: any) => e.summary)).toEqual([
      'Note added: three',
      'Follow-up "two" added',
      'Note added: one',
    ]);
    const e = res.body.data[0];
    expect(Object.keys(e).sort()).toEqual(['created_at', 'data', 'id', 'job_id', 'kind', 'summary', 'user']);
    expect(e).toMatchObject({ job_id: j.id, kind: 'note_added', user: { id: w.ownerId, name: expect.any(String) } });
    expect(e.created_at).toMatch(Z_SECONDS);
    const page = await w.api.get(`/v1/jobs/${j.id}/activity?limit=1&offset=1`);
    expect(page.body.data.map((x: any) => x.summary)).toEqual(['Follow-up "two" added']);
    const notes = await w.api.get(`/v1/jobs/${j.id}/activity?kind=note_added`);
    expect(notes.body.pagination.total).toBe(2);
    expect((await w.api.get(`/v1/jobs/${j.id}/activity?limit=500`)).status).toBe(400);
  });

  it("404 for a missing job, another workspace's job, or a job the member cannot see; a read-only key reads it", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await job(other);
    expect((await w.api.get('/v1/jobs/999999/activity')).body.error).toBe('Job not found');
    expect((await w.api.get(`/v1/jobs/${theirs.id}/activity`)).status).toBe(404);
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const hidden = await job(w);
    const mine = await job(w, { assigned_to_user_id: own.id });
    expect((await own.api.get(`/v1/jobs/${hidden.id}/activity`)).status).toBe(404);
    expect((await own.api.get(`/v1/jobs/${mine.id}/activity`)).status).toBe(200);
    const ro = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await ro.get(`/v1/jobs/${hidden.id}/activity`)).status).toBe(200);
  });
});

describe('tags in the activity log', () => {
  it('one tag_added per newly added tag (none for tags already on), tag_removed on removal', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = await tag(w, 'Repeat customer');
    const b = await tag(w, 'Hot');
    expect((await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [a.id, b.id] })).status).toBe(200);
    expect((await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [a.id] })).status).toBe(200);
    expect((await w.api.delete(`/v1/jobs/${j.id}/tags/${b.id}`)).status).toBe(204);
    const log = await logOf(w, j.id);
    expect(log.map((e) => [e.kind, e.summary, e.data])).toEqual([
      ['tag_removed', 'Tag "Hot" removed', { tag_id: b.id, tag_name: 'Hot' }],
      ['tag_added', 'Tag "Hot" added', { tag_id: b.id, tag_name: 'Hot' }],
      ['tag_added', 'Tag "Repeat customer" added', { tag_id: a.id, tag_name: 'Repeat customer' }],
    ]);
    expect(log.every((e) => e.user?.id === w.ownerId)).toBe(true);
  });

  it('a failed tag change logs nothing', async () => {
    const w = await t.workspace();
    const j = await job(w);
    const a = await tag(w, 'Real');
    expect((await w.api.post(`/v1/jobs/${j.id}/tags`, { tag_ids: [a.id, 999999] })).status).toBe(404);
    expect((await w.api.delete(`/v1/jobs/${j.id}/tags/${a.id}`)).status).toBe(404);
    expect(await logOf(w, j.id)).toEqual([]);
  });
});

describe('job merges', () => {
  it('move notes, activities, follow-ups and log entries to the kept job, and log job_merged there', async () => {
    const w = await t.workspace();
    const kept = await job(w, { name: 'Kept Lot' });
    const away = await job(w, { name: 'Duplicate Lot' });
    const ca = await account(w);
    const note = (await w.api.post(`/v1/jobs/${away.id}/notes`, { content: 'from the duplicate' })).body.data;
    const act = (
      await w.api.post('/v1/activities', {
        type: 'call',
        outcome: 'ok',
        associations: { job_id: away.id, client_account_id: ca.id },
      })
    ).body.data;
    const task = (await w.api.post('/v1/tasks', { job_id: away.id, title: 'Follow the duplicate' })).body.data;
    await w.api.post(`/v1/jobs/${kept.id}/notes`, { content: 'on the kept job' });
    const merged = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);

    expect((await w.api.get(`/v1/notes/${note.id}`)).body.data.job_id).toBe(kept.id);
    expect((await w.api.get(`/v1/activities/${act.id}`)).body.data.associations.job_id).toBe(kept.id);
    expect((await w.api.get(`/v1/tasks/${task.id}`)).body.data.job_id).toBe(kept.id);
    expect((await w.api.get(`/v1/jobs/${kept.id}/notes`)).body.pagination.total).toBe(2);
    expect((await w.api.get(`/v1/tasks?job_id=${kept.id}`)).body.pagination.total).toBe(1);

    const log = await logOf(w, kept.id);
    expect(log[0]).toMatchObject({
      kind: 'job_merged',
      summary: 'Job "Duplicate Lot" merged into this job',
      data: { merged_job_id: away.id, merged_job_name: 'Duplicate Lot' },
    });
    expect(log.map((e) => e.kind).sort()).toEqual([
      'activity_logged',
      'job_merged',
      'note_added',
      'note_added',
      'task_added',
    ]);
    expect((await w.api.get(`/v1/jobs/${away.id}/activity`)).status).toBe(404);
    const leftovers = await Promise.all(
      (['notes', 'activities', 'tasks', 'job_activity'] as const).map((table) =>
        t.database.db.selectFrom(table).select('id').where('job_id', '=', away.id).execute(),
      ),
    );
    expect(leftovers.map((r) => r.length)).toEqual([0, 0, 0, 0]);
  });
});
