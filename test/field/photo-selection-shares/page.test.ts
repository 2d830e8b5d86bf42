// The chosen-photos page (src/pages/photo-selection.ts) in headless Chromium: the photos chosen,
// in their order, really drawn from short-lived signed links; never a photo added later or made
// internal; and the pages of a revoked and an expired link.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { drawnImages, launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';

let t: TestApp;
let w: Workspace;
let base: string;
let browser: Browser;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ name: 'Northgate Sealcoating' });
  base = await listen(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const sharesOf = (jobId: number) => `/v1/jobs/${jobId}/photo-selection-shares`;
const onServer = (shareUrl: string) => `${base}${new URL(shareUrl).pathname}`;
const titles = (page: Page) => page.$$eval('.photo h3', (hs) => hs.map((h) => h.textContent));

async function photo(jobId: number, title: string, fields: Record<string, string> = {}) {
  return (await ok(uploadPhoto(t, w, jobId, await image('png', 80, 50), { title, visibility: 'external', ...fields })))
    .data.id as number;
}

async function newPage(): Promise<Page> {
  return (await browser.newContext()).newPage();
}

describe('a chosen-photos link', () => {
  it('shows the chosen photos in the order chosen, drawn from signed links, under its title', async () => {
    const j = await job(w, { name: 'Plaza main lot' });
    const a = await photo(j.id, 'Alpha');
    const b = await photo(j.id, 'Bravo');
    await photo(j.id, 'Not chosen');
    await ok(uploadPhoto(t, w, j.id, await image('png'), { title: 'Crew only', visibility: 'internal' }));
    const share = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [b, a], title: 'Crack sealing, before & after' })))
      .data;

    const page = await newPage();
    const response = await page.goto(onServer(share.share_url));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(await page.textContent('h1')).toBe('Crack sealing, before & after');
    expect(await page.textContent('header')).toContain('Northgate Sealcoating');
    expect(await titles(page)).toEqual(['Bravo', 'Alpha']);
    const main = (await page.textContent('main'))!;
    expect(main).not.toContain('Not chosen');
    expect(main).not.toContain('Crew only');
    const images = await drawnImages(page);
    expect(images).toHaveLength(2);
    for (const img of images) {
      expect(img.width, img.src).toBeGreaterThan(0);
      expect(new URL(img.src).pathname).toMatch(/^\/v1\/objects\//);
      expect(img.src).not.toContain('/v1/photos');
      const expires = Number(new URL(img.src).searchParams.get('expires'));
      expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    }
    // Clicking a thumbnail opens the full photo.
    const [full] = await Promise.all([page.waitForNavigation(), page.click('.photo a >> nth=0')]);
    expect(full?.status()).toBe(200);
    expect(full?.headers()['content-type']).toBe('image/png');
    await page.context().close();
  });

  it('photos added to the job later never appear; one made internal or deleted drops out', async () => {
    const j = await job(w);
    const a = await photo(j.id, 'Alpha');
    const b = await photo(j.id, 'Bravo');
    const c = await photo(j.id, 'Charlie');
    const share = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [a, b, c] }))).data;
    await photo(j.id, 'Added later');
    const page = await newPage();
    await page.goto(onServer(share.share_url));
    expect(await page.textContent('h1')).toMatch(/^Photos: /);
    expect(await titles(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);

    await ok(w.api.patch(`/v1/photos/${b}`, { visibility: 'internal' }));
    expect((await w.api.delete(`/v1/photos/${c}`)).status).toBe(204);
    await page.reload();
    expect(await titles(page)).toEqual(['Alpha']);
    const images = await drawnImages(page);
    expect(images).toHaveLength(1);
    expect(images[0]!.width).toBeGreaterThan(0);

    await ok(w.api.patch(`/v1/photos/${a}`, { visibility: 'internal' }));
    await page.reload();
    expect(await titles(page)).toEqual([]);
    expect(await page.textContent('main')).toContain('These photos are no longer shared.');
    await page.context().close();
  });

  it('a photo with no thumbnail shows a link that opens it', async () => {
    const j = await job(w);
    const a = await photo(j.id, 'Without thumbnail');
    // As an HEIC the image library could not decode is stored.
    await t.database.db.updateTable('photos').set({ thumbnail_key: null }).where('id', '=', a).execute();
    const share = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [a] }))).data;
    const page = await newPage();
    await page.goto(onServer(share.share_url));
    expect(await drawnImages(page)).toEqual([]);
    expect(await page.textContent('.photo a.open')).toBe('Open photo');
    const href = (await page.getAttribute('.photo a.open', 'href'))!;
    expect(new URL(href).pathname).toMatch(/^\/v1\/objects\//);
    const opened = await page.context().request.get(href);
    expect(opened.status()).toBe(200);
    await page.context().close();
  });
});

describe('dead links', () => {
  it('a revoked link shows its 410 page, and so does an expired one', async () => {
    const j = await job(w);
    const a = await photo(j.id, 'Alpha');
    const revoked = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [a] }))).data;
    const expiring = (await ok(w.api.post(sharesOf(j.id), { photo_ids: [a], expires_in_days: 7 }))).data;
    const page = await newPage();
    expect((await page.goto(onServer(revoked.share_url)))?.status()).toBe(200);
    await ok(w.api.post(`${sharesOf(j.id)}/${revoked.id}/revoke`));
    const gone = await page.goto(onServer(revoked.share_url));
    expect(gone?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('This link has been revoked by the sender.');
    expect(await page.textContent('body')).not.toContain('Northgate');
    expect(await drawnImages(page)).toEqual([]);

    expect((await page.goto(onServer(expiring.share_url)))?.status()).toBe(200);
    advanceClock(7 * 24 * 60 * 60 * 1000 + 1000);
    const expired = await page.goto(onServer(expiring.share_url));
    expect(expired?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('This link has expired.');

    // A photo report token is not a chosen-photos token, nor the other way round.
    const report = (await ok(w.api.post(`/v1/jobs/${j.id}/photo-share-link`, {}))).data;
    const token = new URL(report.share_url!).pathname.split('/').pop();
    expect((await page.goto(`${base}/share/photo-selections/${token}`))?.status()).toBe(404);
    await page.context().close();
  });
});
