// A customer's portal link (docs/api-decisions.md, Customer portal: GET/POST
// /v1/client-accounts/{id}/portal-link, …/disable, …/rotate) and the posts its page takes: 403
// while the customer portal is off, 404 for another workspace's customer, one link per customer,
// rotating and turning off stop the old link (410), a customer's reply is a customer message and
// stops a running follow-up sequence when the settings say so, the per-link allowance of posts, and
// customer merges. What the page looks like is tested in a browser (test/pages/portal.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, ok } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const PORTAL_URL = /^http:\/\/localhost(:\d+)?\/share\/portal\/[A-Za-z0-9_-]{43}$/;
const linkPath = (id: number, action = '') => `/v1/client-accounts/${id}/portal-link${action}`;

const portal = (w: Workspace, on: boolean) =>
  ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { customer_portal_enabled: on } }));

async function portalWorkspace() {
  const w = await t.workspace();
  await portal(w, true);
  return w;
}

async function page(url: string) {
  const res = await t.app.inject({ url: new URL(url).pathname });
  return { status: res.statusCode, body: res.body };
}

function postForm(url: string, path: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `${new URL(url).pathname}${path}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe('the portal link', () => {
  it('is 403 while the customer portal is off (turning on and rotating); reading and turning off still answer', async () => {
    const w = await t.workspace();
    const c = await account(w, 'Off Portal Co');
    for (const action of ['', '/rotate']) {
      const res = await w.api.post(linkPath(c.id, action), {});
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'Customer portal not enabled', code: 'customer_portal_disabled' });
    }
    const off = { data: { client_account_id: c.id, enabled: false, portal_url: null } };
    expect(await ok(w.api.get(linkPath(c.id)))).toEqual(off);
    expect(await ok(w.api.post(linkPath(c.id, '/disable'), {}))).toEqual(off);
  });

  it('turns on (201), answers the same link after (200); the page shows the customer and their jobs', async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Maple HOA');
    const j = await job(w, { name: 'Clubhouse lot', client_account_id: c.id });
    await job(w, { name: 'Somebody else' });
    const res = await w.api.post(linkPath(c.id), {});
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { client_account_id: c.id, enabled: true, portal_url: expect.stringMatching(PORTAL_URL) },
    });
    const again = await w.api.post(linkPath(c.id), {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await ok(w.api.get(linkPath(c.id)))).toEqual(res.body);
    const opened = await page(res.body.data.portal_url);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Projects for Maple HOA');
    expect(opened.body).toContain('Clubhouse lot');
    expect(opened.body).toContain(`id="job-${j.id}"`);
    expect(opened.body).not.toContain('Somebody else');
  });

  it('rotating gives a new link and the old one answers 410; turning off stops it; on again is a new link', async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Rotate Co');
    const first = (await ok(w.api.post(linkPath(c.id), {}))).data.portal_url;
    const rotated = await w.api.post(linkPath(c.id, '/rotate'), {});
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.portal_url;
    expect(second).not.toBe(first);
    expect((await page(first)).status).toBe(410);
    expect((await page(first)).body).toContain('replaced by a newer one');
    expect((await page(second)).status).toBe(200);
    const off = await ok(w.api.post(linkPath(c.id, '/disable'), {}));
    expect(off.data).toEqual({ client_account_id: c.id, enabled: false, portal_url: null });
    expect((await page(second)).status).toBe(410);
    expect((await page(second)).body).toContain('turned off');
    const on = await w.api.post(linkPath(c.id, '/rotate'), {});
    expect(on.status).toBe(201);
    expect((await page(on.body.data.portal_url)).status).toBe(200);
    // The workspace turning its portal off stops every link (410), and on again brings it back.
    await portal(w, false);
    expect((await page(on.body.data.portal_url)).status).toBe(410);
    await portal(w, true);
    expect((await page(on.body.data.portal_url)).status).toBe(200);
    expect((await page(`${on.body.data.portal_url.slice(0, -3)}abc`)).status).toBe(404);
  });

  it("is 404 for another workspace's customer and a missing one on every route; a user who sees only their own jobs gets 403", async () => {
    const w = await portalWorkspace();
    const other = await portalWorkspace();
    const c = await account(w, 'Mine Co');
    for (const id of [c.id, 99999999]) {
      for (const [method, action] of [
        ['GET', ''],
        ['POST', ''],
        ['POST', '/disable'],
        ['POST', '/rotate'],
      ] as const) {
        const res = await other.api.request(method, linkPath(id, action), method === 'POST' ? {} : undefined);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('Client account not found');
      }
    }
    const own = await t.user(w.firmId, { sees_own_jobs_only: true });
    expect((await own.api.get(linkPath(c.id))).status).toBe(403);
    expect((await own.api.post(linkPath(c.id), {})).status).toBe(403);
  });
});

describe('posting on the portal page', () => {
  it('a reply is a customer message signed with the customer name; a map comment carries the point and the site', async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Reply Co');
    const j = await job(w, { name: 'Reply lot', client_account_id: c.id, address: '12 Reply Rd' });
    const url = (await ok(w.api.post(linkPath(c.id), {}))).data.portal_url;
    const reply = await postForm(url, `/jobs/${j.id}/messages`, { body: 'Can you start earlier?' });
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe(`${new URL(url).pathname}#job-${j.id}`);
    const map = await postForm(url, `/jobs/${j.id}/map-comments`, {
      body: 'The pothole is here',
      latitude: '40.1',
      longitude: '-83.25',
    });
    expect(map.statusCode).toBe(303);
    const messages = (await ok(w.api.get(`/v1/jobs/${j.id}/portal-messages`))).data;
    expect(messages).toEqual([
      expect.objectContaining({
        body: 'Can you start earlier?',
        author_type: 'customer',
        author_name: 'Reply Co',
        map_comment: false,
      }),
      expect.objectContaining({
        body: 'The pothole is here',
        author_type: 'customer',
        author_name: 'Reply Co',
        map_comment: true,
        latitude: 40.1,
        longitude: -83.25,
        location_id: j.location_id,
        location_name: expect.any(String),
      }),
    ]);
  });

  it("refuses a blank or over-long message and a point off the globe (400, nothing saved); another customer's job is 404", async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Strict Co');
    const j = await job(w, { client_account_id: c.id });
    const stranger = await job(w, { name: 'Not theirs' });
    const url = (await ok(w.api.post(linkPath(c.id), {}))).data.portal_url;
    expect((await postForm(url, `/jobs/${j.id}/messages`, { body: '   ' })).statusCode).toBe(400);
    const long = await postForm(url, `/jobs/${j.id}/messages`, { body: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('at most 2,000 characters');
    for (const [latitude, longitude] of [
      ['91', '0'],
      ['0', '-181'],
      ['north', '1'],
      ['', ''],
    ]) {
      const res = await postForm(url, `/jobs/${j.id}/map-comments`, { body: 'here', latitude, longitude });
      expect(res.statusCode).toBe(400);
    }
    // 2,000 characters of any script fit (an emoji is 12 bytes percent-encoded).
    expect((await postForm(url, `/jobs/${j.id}/messages`, { body: '🚧'.repeat(1000) })).statusCode).toBe(303);
    expect((await postForm(url, `/jobs/${j.id}/messages`, { body: '路'.repeat(2000) })).statusCode).toBe(303);
    expect((await postForm(url, `/jobs/${j.id}/messages`, { body: '路'.repeat(2001) })).statusCode).toBe(400);
    expect((await postForm(url, `/jobs/${stranger.id}/messages`, { body: 'hi' })).statusCode).toBe(404);
    expect((await postForm(url, '/jobs/abc/messages', { body: 'hi' })).statusCode).toBe(404);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/portal-messages`))).data).toHaveLength(2);
    expect((await ok(w.api.get(`/v1/jobs/${stranger.id}/portal-messages`))).data).toEqual([]);
  });

  it('takes 30 posts an hour per link, then answers 429 with Retry-After', async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Chatty Co');
    const j = await job(w, { client_account_id: c.id });
    const url = (await ok(w.api.post(linkPath(c.id), {}))).data.portal_url;
    for (let i = 0; i < 30; i++)
      expect((await postForm(url, `/jobs/${j.id}/messages`, { body: `note ${i}` })).statusCode).toBe(303);
    const limited = await postForm(url, `/jobs/${j.id}/messages`, { body: 'one more' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/portal-messages`))).data).toHaveLength(30);
  });

  it('a post on a stopped link answers 410 and saves nothing', async () => {
    const w = await portalWorkspace();
    const c = await account(w, 'Stopped Co');
    const j = await job(w, { client_account_id: c.id });
    const url = (await ok(w.api.post(linkPath(c.id), {}))).data.portal_url;
    await ok(w.api.post(linkPath(c.id, '/disable'), {}));
    expect((await postForm(url, `/jobs/${j.id}/messages`, { body: 'hello?' })).statusCode).toBe(410);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}/portal-messages`))).data).toEqual([]);
  });
});

describe('customer merges', () => {
  it('move the link to a kept customer without one, and retire it when the kept customer has its own', async () => {
    const w = await portalWorkspace();
    const keep = await account(w, 'Keep Co');
    const away = await account(w, 'Away Co');
    const awayUrl = (await ok(w.api.post(linkPath(away.id), {}))).data.portal_url;
    const preview = await ok(w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${keep.id}`));
    expect(preview.data.moves).toContainEqual({ count: 1, label: 'portal links' });
    await ok(w.api.post(`/v1/client-accounts/${away.id}/merge`, { into_client_account_id: keep.id }));
    expect((await ok(w.api.get(linkPath(keep.id)))).data.portal_url).toBe(awayUrl);
    expect((await page(awayUrl)).body).toContain('Projects for Keep Co');

    const third = await account(w, 'Third Co');
    const thirdUrl = (await ok(w.api.post(linkPath(third.id), {}))).data.portal_url;
    await ok(w.api.post(`/v1/client-accounts/${third.id}/merge`, { into_client_account_id: keep.id }));
    expect((await page(thirdUrl)).status).toBe(410);
    expect((await page(awayUrl)).status).toBe(200);
  });
});
