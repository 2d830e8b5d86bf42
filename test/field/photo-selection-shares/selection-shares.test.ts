// GET and POST /v1/jobs/{job_id}/photo-selection-shares and POST …/{share_id}/revoke (document 2):
// links to chosen photos of a job, what they keep and show, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';

let t: TestApp;
let w: Workspace;
let jobId: number;
let external: number[];
let internal: number;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  jobId = (await job(w)).id;
  external = [];
  for (const title of ['One', 'Two', 'Three'])
    external.push((await ok(uploadPhoto(t, w, jobId, await image('png'), { title, visibility: 'external' }))).data.id);
  internal = (await ok(uploadPhoto(t, w, jobId, await image('png'), { visibility: 'internal' }))).data.id;
});
afterAll(() => t.close());

const sharesOf = (id: number) => `/v1/jobs/${id}/photo-selection-shares`;
const SHARE_URL = /^http:\/\/localhost(:\d+)?\/share\/photo-selections\/[A-Za-z0-9_-]{43}$/;
const DAY = 24 * 60 * 60 * 1000;
const page = (shareUrl: string) => t.app.inject({ method: 'GET', url: new URL(shareUrl).pathname });

describe('POST', () => {
  it('makes a link to the chosen photos in the order given (201), expiring in 30 days by default', async () => {
    const res = await w.api.post(sharesOf(jobId), {
      photo_ids: [external[2], external[0]],
      title: '  Before the seal ',
    });
    expect(res.status).toBe(201);
    const share = res.body.data;
    expect(share).toMatchObject({
      job_id: jobId,
      title: 'Before the seal',
      photo_ids: [external[2], external[0]],
      photo_count: 2,
      is_expired: false,
      revoked_at: null,
    });
    expect(share.id).toBeGreaterThan(0);
    expect(share.share_url).toMatch(SHARE_URL);
    expect(share.created_at).toMatch(Z_SECONDS);
    const days = (Date.parse(share.expires_at) - Date.parse(share.created_at)) / DAY;
    expect(Math.round(days)).toBe(30);
    expect((await page(share.share_url)).statusCode).toBe(200);
    const log = await logOf(w, jobId);
    expect(
      log.some(
        (e) => e.kind === 'photo_selection_shared' && e.data.share_id === share.id && e.summary.includes('2 photos'),
      ),
    ).toBe(true);
  });

  it('takes 7 and 90 days, counts a repeated photo once, and a title may be left out', async () => {
    for (const days of [7, 90]) {
      const share = (
        await ok(w.api.post(sharesOf(jobId), { photo_ids: [external[1], external[1]], expires_in_days: days }))
      ).data;
      expect(share.photo_ids).toEqual([external[1]]);
      expect(share.title).toBeNull();
      expect(Math.round((Date.parse(share.expires_at) - Date.parse(share.created_at)) / DAY)).toBe(days);
    }
  });

  it('refuses an internal photo, another job’s photo and a photo that is not there, naming them (400)', async () => {
    const internalRes = await w.api.post(sharesOf(jobId), { photo_ids: [external[0], internal] });
    expect(internalRes.status).toBe(400);
    expect(internalRes.body).toMatchObject({
      error: 'Internal photos cannot be shared',
      code: 'invalid_request',
      field: 'photo_ids',
      photo_ids: [internal],
    });
    const otherJob = await job(w);
    const theirs = (await ok(uploadPhoto(t, w, otherJob.id, await image('png')))).data.id;
    const otherRes = await w.api.post(sharesOf(jobId), { photo_ids: [theirs, external[0], 2_000_000_000] });
    expect(otherRes.status).toBe(400);
    expect(otherRes.body).toMatchObject({
      error: 'Photo not found on this job',
      code: 'invalid_request',
      field: 'photo_ids',
      photo_ids: [theirs, 2_000_000_000],
    });
    // Another workspace's photo reads the same as one that does not exist.
    const x = await t.workspace();
    const xPhoto = (await ok(uploadPhoto(t, x, (await job(x)).id, await image('png')))).data.id;
    const foreign = await w.api.post(sharesOf(jobId), { photo_ids: [xPhoto] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.photo_ids).toEqual([xPhoto]);
  });

  it('refuses a bad body with the field named', async () => {
    const cases: [unknown, string][] = [
      [{}, 'photo_ids is required'],
      [{ photo_ids: [] }, 'photo_ids must have at least 1 items'],
      [{ photo_ids: 'x' }, 'photo_ids must be an array'],
      [{ photo_ids: [0] }, 'photo_ids[0] must be >= 1'],
      [{ photo_ids: [external[0]], expires_in_days: 14 }, 'expires_in_days must be one of 7, 30, 90'],
      [{ photo_ids: [external[0]], title: 'x'.repeat(201) }, 'title must be at most 200 characters'],
    ];
    for (const [body, error] of cases) {
      const res = await w.api.post(sharesOf(jobId), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(error);
    }
    const unknown = await w.api.post(sharesOf(jobId), { photo_ids: [external[0]], photos: [1] });
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: photos', code: 'unknown_fields' });
  });
});

describe('GET', () => {
  it('lists the job’s links newest first, with paging', async () => {
    const j = await job(w);
    const p = (await ok(uploadPhoto(t, w, j.id, await image('png')))).data.id;
    const made = [];
    for (const title of ['First', 'Second', 'Third'])
      made.push((await ok(w.api.post(sharesOf(j.id), { photo_ids: [p], title }))).data);
    const list = await ok(w.api.get(sharesOf(j.id)));
    expect(list.data.map((s: { title: string }) => s.title)).toEqual(['Third', 'Second', 'First']);
    expect(list.data[0]).toEqual(made[2]);
    expect(list.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    const second = await ok(w.api.get(`${sharesOf(j.id)}?limit=1&offset=1`));
    expect(second.data.map((s: { title: string }) => s.title)).toEqual(['Second']);
    expect(second.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
    expect((await w.api.get(`${sharesOf(j.id)}?limit=0`)).status).toBe(400);
  });

  it('keeps the photos chosen: a later photo never joins, a deleted one drops out, an internal one is left out', async () => {
    const j = await job(w);
    const a = (await ok(uploadPhoto(t, w, j.id, await image('png')))).data.id;
    const b = (await ok(uploadPhoto(t, w, j.id, await image('png')))).data.id;
    const c = (await ok(uploadPhoto(t, w, j.id, await image('png')))).data.id;
    const share = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [c, b, a] }))).data;
    await ok(uploadPhoto(t, w, j.id, await image('png')));
    expect((await w.api.delete(`/v1/photos/${b}`)).status).toBe(204);
    await ok(w.api.patch(`/v1/photos/${a}`, { visibility: 'internal' }));
    const [now] = (await ok(w.api.get(sharesOf(j.id)))).data;
    expect(now).toMatchObject({ id: share.id, photo_ids: [c], photo_count: 1 });
    // Made external again, it is back where it was chosen.
    await ok(w.api.patch(`/v1/photos/${a}`, { visibility: 'external' }));
    expect((await ok(w.api.get(sharesOf(j.id)))).data[0].photo_ids).toEqual([c, a]);
  });
});

describe('revoke', () => {
  it('turns the link off for good; a second revoke answers the same', async () => {
    const share = (await ok(w.api.post(sharesOf(jobId), { photo_ids: [external[0]] }))).data;
    const res = await w.api.post(`${sharesOf(jobId)}/${share.id}/revoke`);
    expect(res.status).toBe(200);
    const revoked = res.body.data;
    expect(revoked).toEqual({ ...share, share_url: null, revoked_at: revoked.revoked_at });
    expect(revoked.revoked_at).toMatch(Z_SECONDS);
    const gone = await page(share.share_url);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('revoked by the sender');
    advanceClock(2000);
    const again = await w.api.post(`${sharesOf(jobId)}/${share.id}/revoke`, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const log = await logOf(w, jobId);
    expect(log.filter((e) => e.kind === 'photo_selection_revoked' && e.data.share_id === share.id)).toHaveLength(1);
  });

  it('an unknown share, one of another job, and another workspace’s are 404', async () => {
    const share = (await ok(w.api.post(sharesOf(jobId), { photo_ids: [external[0]] }))).data;
    const otherJob = await job(w);
    const wrongJob = await w.api.post(`${sharesOf(otherJob.id)}/${share.id}/revoke`);
    expect(wrongJob.status).toBe(404);
    expect(wrongJob.body.error).toBe('Photo selection share not found');
    expect((await w.api.post(`${sharesOf(jobId)}/2000000000/revoke`)).body.error).toBe(
      'Photo selection share not found',
    );
    const x = await t.workspace();
    for (const [method, p, body] of [
      ['GET', sharesOf(jobId), undefined],
      ['POST', sharesOf(jobId), { photo_ids: [external[0]] }],
      ['POST', `${sharesOf(jobId)}/${share.id}/revoke`, {}],
    ] as const) {
      const res = await x.api.request(method, p, body);
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body.error).toBe('Job not found');
    }
    expect(
      (await ok(w.api.get(sharesOf(jobId)))).data.find((s: { id: number }) => s.id === share.id).revoked_at,
    ).toBeNull();
  });
});

describe('expiry and merges', () => {
  it('an expired link shows is_expired and no url, and its page says it expired', async () => {
    const j = await job(w);
    const p = (await ok(uploadPhoto(t, w, j.id, await image('png')))).data.id;
    const share = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [p], expires_in_days: 7 }))).data;
    advanceClock(7 * DAY + 1000);
    const [expired] = (await ok(w.api.get(sharesOf(j.id)))).data;
    expect(expired).toMatchObject({ id: share.id, is_expired: true, share_url: null });
    const gone = await page(share.share_url);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('This link has expired.');
  });

  it('a job merge moves the links with the photos', async () => {
    const kept = await job(w);
    const away = await job(w);
    const p = (await ok(uploadPhoto(t, w, away.id, await image('png')))).data.id;
    const share = (await ok(w.api.post(sharesOf(away.id), { photo_ids: [p] }))).data;
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
    expect((await ok(w.api.get(sharesOf(kept.id)))).data).toEqual([{ ...share, job_id: kept.id }]);
    expect((await page(share.share_url)).statusCode).toBe(200);
  });
});
