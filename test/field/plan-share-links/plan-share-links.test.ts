// Capital plan links (document 2: POST /v1/locations/{location_id}/plan-share-link, …/disable,
// …/rotate; the GET of docs/api-decisions.md, Assessment and capital plan links): 403 while
// capital planning is off, 404 for another workspace's site, one link per site; rotating stops the
// old link, turning it off and on again gives a new working one, and a site merge carries the link
// over or retires it. What the page shows is tested in a browser (test/pages/capital-plan.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok, site } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const SHARE_URL = /^http:\/\/localhost(:\d+)?\/share\/plans\/[A-Za-z0-9_-]{43}$/;

const planning = (w: Workspace, on: boolean) =>
  ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { capital_planning_enabled: on } }));

async function planningWorkspace() {
  const w = await t.workspace();
  await planning(w, true);
  return w;
}

const linkPath = (locationId: number, action = '') => `/v1/locations/${locationId}/plan-share-link${action}`;

/** The customer page of a share_url, opened without a key. */
async function page(shareUrl: string) {
  const res = await t.app.inject({ url: new URL(shareUrl).pathname });
  return { status: res.statusCode, body: res.body };
}

describe('POST /v1/locations/{id}/plan-share-link', () => {
  it('is 403 while capital planning is off; reading and turning off still answer', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '1 Elm St', name: 'Elm lot' });
    for (const action of ['', '/rotate']) {
      const res = await w.api.post(linkPath(s.id, action), {});
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'Capital planning not enabled',
        code: 'capital_planning_disabled',
        message:
          "Capital planning is off for this workspace; turn it on in the workspace's settings to share capital plans",
      });
    }
    const off = { data: { location_id: s.id, enabled: false, share_url: null } };
    expect(await ok(w.api.get(linkPath(s.id)))).toEqual(off);
    expect(await ok(w.api.post(linkPath(s.id, '/disable'), {}))).toEqual(off);
  });

  it('turns the link on (201), then answers the same link (200); GET shows it', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '2 Elm St' });
    expect((await ok(w.api.get(linkPath(s.id)))).data).toEqual({ location_id: s.id, enabled: false, share_url: null });
    const res = await w.api.request('POST', linkPath(s.id));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { location_id: s.id, enabled: true, share_url: expect.stringMatching(SHARE_URL) },
    });
    const again = await w.api.post(linkPath(s.id), {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await ok(w.api.get(linkPath(s.id)))).toEqual(res.body);
    const opened = await page(res.body.data.share_url);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('2 Elm St');
  });

  it("is 404 for another workspace's site and one that does not exist, on every route", async () => {
    const w = await planningWorkspace();
    const other = await planningWorkspace();
    const s = await site(w, { address: '3 Elm St' });
    const link = (await ok(w.api.post(linkPath(s.id), {}))).data;
    for (const id of [s.id, 99999999]) {
      for (const [method, action] of [
        ['GET', ''],
        ['POST', ''],
        ['POST', '/disable'],
        ['POST', '/rotate'],
      ] as const) {
        const res = await other.api.request(method, linkPath(id, action), method === 'POST' ? {} : undefined);
        expect(res.status, `${method} ${action}`).toBe(404);
        expect(res.body).toEqual({ error: 'Location not found' });
      }
    }
    expect((await ok(w.api.get(linkPath(s.id)))).data).toEqual(link);
    expect((await page(link.share_url)).status).toBe(200);
  });
});

describe('a user who sees only their own jobs', () => {
  it('can neither read nor turn on a site’s plan link (it shows every job’s walks), but may turn it off', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '8 Elm St' });
    const link = (await ok(w.api.post(linkPath(s.id), {}))).data;
    // A member who sees only their own jobs (a crew login is refused every such write outright).
    const crew = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const refusal = {
      error: 'User sees only their own jobs',
      message:
        "A site's capital plan shows the assessments of every job at the site, and the key's user sees only their own jobs",
    };
    for (const [method, action] of [
      ['GET', ''],
      ['POST', ''],
      ['POST', '/rotate'],
    ] as const) {
      const res = await crew.api.request(method, linkPath(s.id, action), method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${action}`).toBe(403);
      expect(res.body).toEqual(refusal);
    }
    expect((await page(link.share_url)).status).toBe(200);
    expect(await ok(crew.api.post(linkPath(s.id, '/disable'), {}))).toEqual({
      data: { location_id: s.id, enabled: false, share_url: null },
    });
    expect((await page(link.share_url)).status).toBe(410);
  });
});

describe('POST /v1/locations/{id}/plan-share-link/rotate', () => {
  it('gives a new link (200) and the old one stops with its 410 page', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '4 Elm St' });
    const first = (await ok(w.api.post(linkPath(s.id), {}))).data;
    const res = await w.api.request('POST', linkPath(s.id, '/rotate'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ location_id: s.id, enabled: true, share_url: expect.stringMatching(SHARE_URL) });
    expect(res.body.data.share_url).not.toBe(first.share_url);
    const old = await page(first.share_url);
    expect(old.status).toBe(410);
    expect(old.body).toContain('replaced by a newer one');
    expect((await page(res.body.data.share_url)).status).toBe(200);
    expect(await ok(w.api.get(linkPath(s.id)))).toEqual(res.body);
  });

  it('turns on a link for a site that had none, or whose link was off (201)', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '5 Elm St' });
    const made = await w.api.post(linkPath(s.id, '/rotate'), {});
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ location_id: s.id, enabled: true });
    await ok(w.api.post(linkPath(s.id, '/disable'), {}));
    const back = await w.api.post(linkPath(s.id, '/rotate'), {});
    expect(back.status).toBe(201);
    expect(back.body.data.share_url).not.toBe(made.body.data.share_url);
    expect((await page(back.body.data.share_url)).status).toBe(200);
    // The link turned off keeps saying so.
    expect((await page(made.body.data.share_url)).body).toContain('turned off by the sender');
  });
});

describe('POST /v1/locations/{id}/plan-share-link/disable', () => {
  it('turns the link off (its page says so); turning it on again gives a new working link', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '6 Elm St' });
    const first = (await ok(w.api.post(linkPath(s.id), {}))).data;
    const res = await w.api.request('POST', linkPath(s.id, '/disable'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { location_id: s.id, enabled: false, share_url: null } });
    const gone = await page(first.share_url);
    expect(gone.status).toBe(410);
    expect(gone.body).toContain('turned off by the sender');
    expect(gone.body).not.toContain('6 Elm St');
    // Off already: nothing changes.
    expect(await ok(w.api.post(linkPath(s.id, '/disable'), {}))).toEqual(res.body);
    expect(await ok(w.api.get(linkPath(s.id)))).toEqual(res.body);

    const on = await w.api.post(linkPath(s.id), {});
    expect(on.status).toBe(201);
    expect(on.body.data).toMatchObject({ enabled: true, share_url: expect.stringMatching(SHARE_URL) });
    expect(on.body.data.share_url).not.toBe(first.share_url);
    expect((await page(on.body.data.share_url)).status).toBe(200);
    expect((await page(first.share_url)).status).toBe(410);
  });

  it('while capital planning is off the page answers as turned off, and works again once it is on', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '7 Elm St' });
    const link = (await ok(w.api.post(linkPath(s.id), {}))).data;
    await planning(w, false);
    const closed = await page(link.share_url);
    expect(closed.status).toBe(410);
    expect(closed.body).toContain('turned off by the sender');
    await planning(w, true);
    expect((await page(link.share_url)).status).toBe(200);
  });
});

describe('site merges', () => {
  it('carry the merged-away site’s link to a kept site without one; its old id reads the kept site’s link', async () => {
    const w = await planningWorkspace();
    const kept = await site(w, { address: '10 Oak St', name: 'Oak lot' });
    const away = await site(w, { address: '12 Oak St', name: 'Oak annex' });
    const link = (await ok(w.api.post(linkPath(away.id), {}))).data;
    const preview = (await ok(w.api.get(`/v1/locations/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(preview.moves).toContainEqual({ count: 1, label: 'capital plan links' });
    await ok(w.api.post(`/v1/locations/${away.id}/merge`, { into_location_id: kept.id }));
    const moved = { data: { location_id: kept.id, enabled: true, share_url: link.share_url } };
    expect(await ok(w.api.get(linkPath(kept.id)))).toEqual(moved);
    expect(await ok(w.api.get(linkPath(away.id)))).toEqual(moved);
    const opened = await page(link.share_url);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Oak lot');
  });

  it('retire the merged-away site’s link when the kept site has its own', async () => {
    const w = await planningWorkspace();
    const kept = await site(w, { address: '20 Oak St' });
    const away = await site(w, { address: '22 Oak St' });
    const keptLink = (await ok(w.api.post(linkPath(kept.id), {}))).data;
    const awayLink = (await ok(w.api.post(linkPath(away.id), {}))).data;
    await ok(w.api.post(`/v1/locations/${away.id}/merge`, { into_location_id: kept.id }));
    expect((await ok(w.api.get(linkPath(kept.id)))).data).toEqual(keptLink);
    const old = await page(awayLink.share_url);
    expect(old.status).toBe(410);
    expect(old.body).toContain('replaced by a newer one');
    expect((await page(keptLink.share_url)).status).toBe(200);
  });
});

describe('GET /share/plans/{token}', () => {
  it('is 404 for a token that never was a link', async () => {
    const res = await t.app.inject({ url: `/share/plans/${'Z'.repeat(43)}` });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Link not found');
  });

  it('an assessment report token does not open a plan, nor a plan token a report', async () => {
    const w = await planningWorkspace();
    const s = await site(w, { address: '30 Oak St' });
    const plan = (await ok(w.api.post(linkPath(s.id), {}))).data;
    const token = new URL(plan.share_url).pathname.split('/').pop();
    expect((await t.app.inject({ url: `/share/assessments/${token}` })).statusCode).toBe(404);
    expect((await page(plan.share_url)).status).toBe(200);
  });
});
