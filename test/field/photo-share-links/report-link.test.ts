// GET, POST and PATCH /v1/jobs/{job_id}/photo-share-link (document 2, Photo report link): the
// object, made once per job, its settings, turning it off and on, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, logOf, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

const path = (jobId: number) => `/v1/jobs/${jobId}/photo-share-link`;
const SHARE_URL = /^http:\/\/localhost(:\d+)?\/share\/photos\/[A-Za-z0-9_-]{43}$/;
const DAY = 24 * 60 * 60 * 1000;

/** The page of a share_url, opened with no key. */
const page = (shareUrl: string) => t.app.inject({ method: 'GET', url: new URL(shareUrl).pathname });

describe('before the link is made', () => {
  it('GET answers enabled false and no url', async () => {
    const j = await job(w);
    expect((await ok(w.api.get(path(j.id)))).data).toEqual({
      job_id: j.id,
      enabled: false,
      share_url: null,
      access_mode: 'public',
      has_access_code: false,
      expires_at: null,
      is_expired: false,
    });
  });

  it('PATCH is 404: there is nothing to change yet', async () => {
    const j = await job(w);
    const res = await w.api.patch(path(j.id), { expires_in_days: 5 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Photo share link not found');
  });
});

describe('POST', () => {
  it('makes a public link that never expires (201), with no body at all', async () => {
    const j = await job(w);
    const res = await t.app.inject({ method: 'POST', url: path(j.id), headers: { 'x-api-key': w.key } });
    expect(res.statusCode).toBe(201);
    const link = res.json().data;
    expect(link).toMatchObject({
      job_id: j.id,
      enabled: true,
      access_mode: 'public',
      has_access_code: false,
      expires_at: null,
      is_expired: false,
    });
    expect(link.share_url).toMatch(SHARE_URL);
    expect((await ok(w.api.get(path(j.id)))).data).toEqual(link);
    expect((await page(link.share_url)).statusCode).toBe(200);
    const log = await logOf(w, j.id);
    expect(log.some((e) => e.kind === 'photo_share_link_changed' && e.summary === 'Photo report link made')).toBe(true);
  });

  it('makes a code link with an expiry; the code is never shown', async () => {
    const j = await job(w);
    const res = await w.api.post(path(j.id), { access_code: 'gate-2291', expires_in_days: 30 });
    expect(res.status).toBe(201);
    const link = res.body.data;
    expect(link).toMatchObject({ access_mode: 'code', has_access_code: true, is_expired: false });
    expect(link.expires_at).toMatch(Z_SECONDS);
    const days = (Date.parse(link.expires_at) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30.01);
    expect(JSON.stringify(res.body)).not.toContain('gate-2291');
    // Stored as a scrypt hash, never as typed.
    const row = await t.database.db
      .selectFrom('photo_share_links')
      .selectAll()
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(row.access_code_hash).toMatch(/^scrypt\$32768\$8\$1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain('gate-2291');
    // Nor is the token: only its salt and hash.
    const token = new URL(link.share_url).pathname.split('/').pop()!;
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('answers an existing link as it is (200): a repeated POST changes nothing', async () => {
    const j = await job(w);
    const first = await ok(w.api.post(path(j.id), { expires_in_days: 10 }));
    const again = await w.api.post(path(j.id), { access_code: 'other-code', expires_in_days: 300 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
  });

  it('refuses bad settings with the field named, and unknown fields', async () => {
    const j = await job(w);
    const cases: [unknown, string][] = [
      [{ access_code: 'abc' }, 'access_code must be at least 4 characters'],
      [{ access_code: 'x'.repeat(65) }, 'access_code must be at most 64 characters'],
      [{ access_code: 1234 }, 'access_code must be a string'],
      [{ access_code: ' 1234 ' }, 'access_code must not start or end with a space'],
      [{ expires_in_days: 0 }, 'expires_in_days must be >= 1'],
      [{ expires_in_days: 366 }, 'expires_in_days must be <= 365'],
      [{ expires_in_days: 1.5 }, 'expires_in_days must be an integer or null'],
    ];
    for (const [body, error] of cases) {
      const res = await w.api.post(path(j.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(error);
    }
    const unknown = await w.api.post(path(j.id), { access_code: '1234', password: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: password', code: 'unknown_fields' });
    // Nothing was made by any of them.
    expect((await ok(w.api.get(path(j.id)))).data.enabled).toBe(false);
  });

  it("another workspace's job, and a job that does not exist, are 404 Job not found", async () => {
    const other = await t.workspace();
    const theirs = await job(other);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', {}],
      ['PATCH', { public: true }],
    ] as const) {
      const res = await w.api.request(method, path(theirs.id), body);
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('Job not found');
    }
    expect((await w.api.get(path(2_000_000_000))).status).toBe(404);
    expect((await ok(other.api.get(path(theirs.id)))).data.enabled).toBe(false);
  });

  it('needs write_jobs to make and read_jobs to read', async () => {
    const j = await job(w);
    const readOnly = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    expect((await readOnly.post(path(j.id), {})).status).toBe(403);
    expect((await readOnly.get(path(j.id))).status).toBe(200);
    const writeOnly = t.as(await t.key(w.firmId, w.ownerId, ['write_jobs']));
    expect((await writeOnly.get(path(j.id))).status).toBe(403);
  });
});

describe('PATCH', () => {
  it('sets, changes and removes the access code, and the expiry', async () => {
    const j = await job(w);
    await ok(w.api.post(path(j.id), {}));
    const coded = (await ok(w.api.patch(path(j.id), { access_code: 'first-code' }))).data;
    expect(coded).toMatchObject({ access_mode: 'code', has_access_code: true, enabled: true });
    const before = (await t.database.db
      .selectFrom('photo_share_links')
      .select('access_code_hash')
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow())!.access_code_hash;
    await ok(w.api.patch(path(j.id), { access_code: 'second-code', public: false }));
    const after = (await t.database.db
      .selectFrom('photo_share_links')
      .select('access_code_hash')
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow())!.access_code_hash;
    expect(after).not.toBe(before);

    const dated = (await ok(w.api.patch(path(j.id), { expires_in_days: 1 }))).data;
    expect(Date.parse(dated.expires_at) - Date.now()).toBeLessThanOrEqual(DAY + 2000);
    const open = (await ok(w.api.patch(path(j.id), { public: true, expires_in_days: null }))).data;
    expect(open).toEqual({ ...coded, access_mode: 'public', has_access_code: false, expires_at: null });
    // The same link throughout: its url never changed.
    expect(open.share_url).toBe(coded.share_url);
    // An empty change answers the link as it is.
    expect((await ok(w.api.patch(path(j.id), {}))).data).toEqual(open);
    const summaries = (await logOf(w, j.id)).map((e) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        'Photo report link access code set',
        'Photo report link access code changed',
        'Photo report link set to expire in 1 day',
        'Photo report link access code removed, set never to expire',
      ]),
    );
  });

  it('refuses a code and public true together, public false alone, and bad values', async () => {
    const j = await job(w);
    await ok(w.api.post(path(j.id), {}));
    const cases: [unknown, string, string][] = [
      [{ public: true, access_code: '1234' }, 'Send access_code or public true, not both', 'public'],
      [{ public: false }, 'public false needs an access_code', 'public'],
      [{ access_code: '123' }, 'access_code must be at least 4 characters', 'access_code'],
      [{ access_code: 'y'.repeat(65) }, 'access_code must be at most 64 characters', 'access_code'],
      [{ expires_in_days: 0 }, 'expires_in_days must be >= 1', 'expires_in_days'],
      [{ expires_in_days: 400 }, 'expires_in_days must be <= 365', 'expires_in_days'],
      [{ enabled: 'no' }, 'enabled must be a boolean', 'enabled'],
      [{ public: 'yes' }, 'public must be a boolean', 'public'],
    ];
    for (const [body, error, field] of cases) {
      const res = await w.api.patch(path(j.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(error);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await w.api.patch(path(j.id), { share_url: 'x' });
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: share_url', code: 'unknown_fields' });
    expect((await ok(w.api.get(path(j.id)))).data).toMatchObject({ access_mode: 'public', expires_at: null });
  });

  it('enabled false turns it off (its page says so); true turns it on with a new url', async () => {
    const j = await job(w);
    const made = (await ok(w.api.post(path(j.id), { access_code: 'keep-this' }))).data;
    const off = (await ok(w.api.patch(path(j.id), { enabled: false }))).data;
    expect(off).toMatchObject({ enabled: false, share_url: null, access_mode: 'code', has_access_code: true });
    const gone = await page(made.share_url);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('turned off by the sender');
    // Off twice is still off; settings can change while off.
    expect((await ok(w.api.patch(path(j.id), { enabled: false, public: true }))).data).toMatchObject({
      enabled: false,
      access_mode: 'public',
    });
    const on = (await ok(w.api.patch(path(j.id), { enabled: true }))).data;
    expect(on.enabled).toBe(true);
    expect(on.share_url).toMatch(SHARE_URL);
    expect(on.share_url).not.toBe(made.share_url);
    expect((await page(on.share_url)).statusCode).toBe(200);
    expect((await page(made.share_url)).statusCode).toBe(410);
    // On again is the same link.
    expect((await ok(w.api.patch(path(j.id), { enabled: true }))).data).toEqual(on);
  });

  it('POST on a link turned off makes it again: 201, a new url, the settings it gives', async () => {
    const j = await job(w);
    const made = (await ok(w.api.post(path(j.id), { access_code: 'old-code', expires_in_days: 5 }))).data;
    await ok(w.api.patch(path(j.id), { enabled: false }));
    const again = await w.api.post(path(j.id), {});
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ enabled: true, access_mode: 'public', expires_at: null });
    expect(again.body.data.share_url).not.toBe(made.share_url);
  });

  it('an expired link shows is_expired and no url; extending it brings the same url back', async () => {
    const j = await job(w);
    const made = (await ok(w.api.post(path(j.id), { expires_in_days: 1 }))).data;
    advanceClock(DAY + 1000);
    const expired = (await ok(w.api.get(path(j.id)))).data;
    expect(expired).toMatchObject({ enabled: true, is_expired: true, share_url: null, expires_at: made.expires_at });
    const gone = await page(made.share_url);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('This link has expired.');
    const extended = (await ok(w.api.patch(path(j.id), { expires_in_days: 7 }))).data;
    expect(extended).toMatchObject({ is_expired: false, share_url: made.share_url });
    expect((await page(made.share_url)).statusCode).toBe(200);
  });
});

describe('a job merge', () => {
  it("moves the merged-away job's link when the kept job has none, else retires it as replaced", async () => {
    const kept = await job(w);
    const away = await job(w);
    const moved = (await ok(w.api.post(path(away.id), {}))).data;
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
    expect((await ok(w.api.get(path(kept.id)))).data).toEqual({ ...moved, job_id: kept.id });
    expect((await page(moved.share_url)).statusCode).toBe(200);

    const other = await job(w);
    const replaced = (await ok(w.api.post(path(other.id), {}))).data;
    await ok(w.api.post(`/v1/jobs/${other.id}/merge`, { into_job_id: kept.id }));
    expect((await ok(w.api.get(path(kept.id)))).data.share_url).toBe(moved.share_url);
    const gone = await page(replaced.share_url);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('replaced by a newer one');
  });

  it("a deleted job's link is a link that no longer exists (404)", async () => {
    const j = await job(w);
    const made = (await ok(w.api.post(path(j.id), {}))).data;
    expect((await w.api.delete(`/v1/jobs/${j.id}`)).status).toBe(204);
    expect((await page(made.share_url)).statusCode).toBe(404);
  });
});
