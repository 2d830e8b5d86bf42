// The access code of a photo report link over HTTP, without a browser: what the pass cookie is bound
// to, and the per-link allowance of wrong codes under concurrent posts (photo-share-links/access.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

async function codeLink(code: string | null) {
  const j = await job(w);
  const link = (await ok(w.api.post(`/v1/jobs/${j.id}/photo-share-link`, code ? { access_code: code } : {}))).data;
  return { jobId: j.id as number, path: new URL(link.share_url!).pathname };
}

const form = (path: string, body: string, contentType = 'application/x-www-form-urlencoded') =>
  t.app.inject({ method: 'POST', url: path, headers: { 'content-type': contentType }, payload: body });
const view = (path: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
const passOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

describe('the pass a right code sets', () => {
  it('opens this link only, and stops when the code changes', async () => {
    const a = await codeLink('same-code');
    const b = await codeLink('same-code');
    const right = await form(a.path, 'code=same-code');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(a.path);
    expect(right.headers['cache-control']).toBe('no-store');
    const cookie = passOf(right);
    expect(String(right.headers['set-cookie'])).toBe(`${cookie}; Path=${a.path}; HttpOnly; SameSite=Lax`);
    const shown = await view(a.path, cookie);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('name="code"');
    // The same code on another link is another pass; a forged or missing one shows the form.
    expect((await view(b.path, cookie)).body).toContain('name="code"');
    expect((await view(a.path, `${cookie.slice(0, -2)}xx`)).body).toContain('name="code"');
    expect((await view(a.path)).body).toContain('name="code"');
    // Another code (even set back to the same text) logs the visitor out.
    await ok(w.api.patch(`/v1/jobs/${a.jobId}/photo-share-link`, { access_code: 'same-code' }));
    expect((await view(a.path, cookie)).body).toContain('name="code"');
  });

  it('takes the code from a form post, trimmed; an empty one is asked for again and not counted', async () => {
    const a = await codeLink('trim-me');
    const empty = await form(a.path, 'code=%20%20');
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter the access code.');
    expect((await form(a.path, 'code=+trim-me+')).statusCode).toBe(303);
    const row = await t.database.db
      .selectFrom('photo_share_links')
      .select('failed_attempts')
      .where('job_id', '=', a.jobId)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(0);
    // A public link needs no code: a post goes straight back to the photos.
    const open = await codeLink(null);
    const res = await form(open.path, 'code=anything');
    expect(res.statusCode).toBe(303);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the allowance of wrong codes', () => {
  it('holds under concurrent posts: 10 are checked, the rest refused with 429 and Retry-After', async () => {
    const a = await codeLink('the-right-one');
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => form(a.path, `code=wrong-${i}`)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const locked = answers.find((r) => r.statusCode === 429)!;
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    // The right code is refused too until the window passes, and other links are not affected.
    expect((await form(a.path, 'code=the-right-one')).statusCode).toBe(429);
    const b = await codeLink('the-right-one');
    expect((await form(b.path, 'code=the-right-one')).statusCode).toBe(303);
  });

  it('a new access code starts the count again', async () => {
    const a = await codeLink('first-code');
    for (let i = 0; i < 10; i++) expect((await form(a.path, 'code=nope')).statusCode).toBe(401);
    expect((await form(a.path, 'code=first-code')).statusCode).toBe(429);
    await ok(w.api.patch(`/v1/jobs/${a.jobId}/photo-share-link`, { access_code: 'second-code' }));
    expect((await form(a.path, 'code=second-code')).statusCode).toBe(303);
  });
});
