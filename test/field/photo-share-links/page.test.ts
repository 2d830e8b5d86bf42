// The photo report page (src/pages/photo-report.ts) in headless Chromium: what it shows (the job's
// external photos marked for reports, their images really drawn, from short-lived signed links),
// the access-code form as a customer uses it, the allowance of wrong codes, and its dead pages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#platform/clock.ts';
import { LocalStorage } from '#platform/storage/local.ts';
import { advanceClock } from '#platform/time.ts';
import { drawnImages, launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';

const MINUTE = 60 * 1000;
const HOSTILE = '<img src=x onerror="document.title=1">&"';

let t: TestApp;
let w: Workspace;
let base: string;
let browser: Browser;
let storageDir: string;
/** The clock of the storage's signed links (the page's image links expire by it). */
const storageClock = new ManualClock();

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-photo-report-'));
  t = await startApp({ storage: new LocalStorage({ dataDir: storageDir, clock: storageClock }) });
  w = await t.workspace({ name: 'Buckeye Paving & Sealing', timezone: 'America/New_York' });
  base = await listen(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

const linkOf = (jobId: number) => `/v1/jobs/${jobId}/photo-share-link`;
/** The share_url's page on the listening server (the API was called in-process). */
const onServer = (shareUrl: string) => `${base}${new URL(shareUrl).pathname}`;

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** A job with one photo of each kind: in the report, external but not in it, and internal. */
async function jobWithPhotos() {
  const j = await job(w, { name: 'Maple Ridge clubhouse lot', allow_duplicate_name: true });
  const shown = (
    await ok(
      uploadPhoto(t, w, j.id, await image('png', 90, 60), {
        title: 'East entrance',
        caption: HOSTILE,
        visibility: 'external',
        // 10 pm on May 4 in New York, the workspace's zone.
        taken_at: '2026-05-05T02:00:00Z',
      }),
    )
  ).data;
  const second = (
    await ok(
      uploadPhoto(t, w, j.id, await image('jpeg'), {
        title: 'North row',
        visibility: 'external',
        taken_at: '2026-05-03T15:00:00Z',
      }),
    )
  ).data;
  const notInReport = (
    await ok(
      uploadPhoto(t, w, j.id, await image('png'), {
        title: 'Not for the report',
        visibility: 'external',
        include_in_report: 'false',
      }),
    )
  ).data;
  const internal = (
    await ok(uploadPhoto(t, w, j.id, await image('png'), { title: 'Crew only', visibility: 'internal' }))
  ).data;
  return { j, shown, second, notInReport, internal };
}

describe('a public link', () => {
  it("shows the job's external photos marked for reports, in gallery order, drawn from signed links", async () => {
    const { j, shown, second } = await jobWithPhotos();
    // Gallery order: sort_order first, then taken_at.
    await ok(w.api.patch(`/v1/photos/${second.id}`, { sort_order: 5 }));
    const link = (await ok(w.api.post(linkOf(j.id), {}))).data;
    const page = await newPage();
    const response = await page.goto(onServer(link.share_url));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(await page.textContent('header')).toContain('Buckeye Paving & Sealing');
    expect(await page.textContent('h1')).toBe('Photos: Maple Ridge clubhouse lot');
    expect(await page.$$eval('.photo h3', (hs) => hs.map((h) => h.textContent))).toEqual([
      'East entrance',
      'North row',
    ]);
    const main = (await page.textContent('main'))!;
    expect(main).not.toContain('Crew only');
    expect(main).not.toContain('Not for the report');
    // Hostile text stays text.
    expect(main).toContain(HOSTILE);
    expect(await page.title()).not.toBe('1');
    // Taken on, in the workspace's time zone.
    expect(await page.$$eval('.photo time', (ts) => ts.map((x) => x.getAttribute('datetime')))).toEqual([
      '2026-05-04',
      '2026-05-03',
    ]);
    expect(main).toContain('Taken May 4, 2026');

    // Two thumbnails, both really drawn, both short-lived signed links (never the API's photo URLs).
    const images = await drawnImages(page);
    expect(images).toHaveLength(2);
    for (const img of images) {
      expect(img.width, img.src).toBeGreaterThan(0);
      const url = new URL(img.src);
      expect(url.origin).toBe(base);
      expect(url.pathname).toMatch(/^\/v1\/objects\//);
      expect(url.pathname).not.toContain('/v1/photos');
      const expires = Number(url.searchParams.get('expires'));
      expect(expires - storageClock.now() / 1000).toBeGreaterThan(14 * 60);
      expect(expires - storageClock.now() / 1000).toBeLessThanOrEqual(15 * 60);
    }
    // The thumbnail opens the full image.
    const full = await page.getAttribute('.photo a', 'href');
    const opened = await page.context().request.get(full!);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('image/png');
    expect((await opened.body()).length).toBeGreaterThan(0);
    // A copied image link stops working once its 15 minutes are over; the page, opened again, signs fresh ones.
    const copied = images[0]!.src;
    storageClock.advance(16 * MINUTE);
    const stale = await page.context().request.get(copied);
    expect(stale.status()).toBe(403);
    expect((await stale.json()).code).toBe('link_expired');
    await page.reload();
    const fresh = await drawnImages(page);
    expect(fresh.map((i) => i.width).every((width) => width > 0)).toBe(true);
    expect(fresh[0]!.src).not.toBe(copied);
    // The photo itself stays behind the API key.
    const api = await page.context().request.get(`${base}/v1/photos/${shown.id}`);
    expect(api.status()).toBe(401);
    await page.context().close();
  });

  it('a link with no photos to show says so', async () => {
    const j = await job(w);
    await ok(uploadPhoto(t, w, j.id, await image('png'), { visibility: 'internal' }));
    const link = (await ok(w.api.post(linkOf(j.id), {}))).data;
    const page = await newPage();
    expect((await page.goto(onServer(link.share_url)))?.status()).toBe(200);
    expect(await page.textContent('main')).toContain('No photos have been shared here yet.');
    expect(await drawnImages(page)).toEqual([]);
    await page.context().close();
  });
});

describe('a link with an access code', () => {
  it('asks for the code: a wrong one is refused, the right one shows the photos, a new code asks again', async () => {
    const { j } = await jobWithPhotos();
    const link = (await ok(w.api.post(linkOf(j.id), { access_code: 'Gate 2291' }))).data;
    const page = await newPage();
    const first = await page.goto(onServer(link.share_url));
    expect(first?.status()).toBe(200);
    expect(await page.textContent('main')).toContain('Buckeye Paving & Sealing protected these photos');
    expect(await drawnImages(page)).toEqual([]);
    expect(await page.textContent('main')).not.toContain('East entrance');

    await page.fill('#code', 'gate 2291');
    const [wrong] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(wrong?.status()).toBe(401);
    expect(await page.textContent('.error')).toBe('That access code is not right.');
    expect(await page.textContent('main')).not.toContain('East entrance');

    await page.fill('#code', 'Gate 2291');
    const [right] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(right?.status()).toBe(200);
    expect(page.url()).toBe(onServer(link.share_url));
    // Gallery order with equal sort_order: taken_at (North row was taken a day earlier).
    expect(await page.$$eval('.photo h3', (hs) => hs.map((h) => h.textContent))).toEqual([
      'North row',
      'East entrance',
    ]);
    const images = await drawnImages(page);
    expect(images.length).toBe(2);
    for (const img of images) expect(img.width).toBeGreaterThan(0);

    // The pass: HttpOnly, SameSite=Lax, for this link's path only; it holds no code.
    const cookies = await page.context().cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'photo_pass',
      httpOnly: true,
      sameSite: 'Lax',
      path: new URL(link.share_url).pathname,
    });
    expect(cookies[0]!.value).not.toContain('2291');

    // Reloading keeps the photos; a new code asks everyone again.
    await page.reload();
    expect(await page.$$('.photo')).toHaveLength(2);
    await ok(w.api.patch(linkOf(j.id), { access_code: 'new-code-77' }));
    await page.reload();
    expect(await page.$$('.photo')).toHaveLength(0);
    expect(await page.isVisible('#code')).toBe(true);
    // Made public, the page needs no code at all.
    await ok(w.api.patch(linkOf(j.id), { public: true }));
    await page.reload();
    expect(await page.$$('.photo')).toHaveLength(2);
    await page.context().close();
  });

  it('refuses every try after 10 wrong codes in 15 minutes, the right one too, until the window passes', async () => {
    const { j } = await jobWithPhotos();
    const link = (await ok(w.api.post(linkOf(j.id), { access_code: 'right-code' }))).data;
    const page = await newPage();
    await page.goto(onServer(link.share_url));
    for (let i = 1; i <= 10; i++) {
      await page.fill('#code', `wrong-${i}`);
      const [res] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      expect(res?.status(), `try ${i}`).toBe(401);
    }
    await page.fill('#code', 'right-code');
    const [locked] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(locked?.status()).toBe(429);
    expect(Number(locked?.headers()['retry-after'])).toBeGreaterThan(14 * 60);
    expect(await page.textContent('h1')).toBe('Too many tries');
    expect(await page.textContent('main')).toContain('Try again in 15 minutes');
    expect(await page.context().cookies()).toEqual([]);
    // The count lives in the link's row (any server process sees it).
    const row = await t.database.db
      .selectFrom('photo_share_links')
      .select(['failed_attempts', 'failed_window_start'])
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(10);

    advanceClock(15 * MINUTE + 1000);
    await page.goto(onServer(link.share_url));
    await page.fill('#code', 'right-code');
    const [open] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(open?.status()).toBe(200);
    expect(await page.$$('.photo')).toHaveLength(2);
    await page.context().close();
  });
});

describe('dead links', () => {
  it('an expired link, one turned off and a token that never was each show their page', async () => {
    const { j } = await jobWithPhotos();
    const link = (await ok(w.api.post(linkOf(j.id), { expires_in_days: 1 }))).data;
    const page = await newPage();
    expect((await page.goto(onServer(link.share_url)))?.status()).toBe(200);
    advanceClock(24 * 60 * MINUTE + 1000);
    const expired = await page.goto(onServer(link.share_url));
    expect(expired?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('This link has expired.');
    // A dead page names neither the workspace nor the job.
    expect(await page.textContent('body')).not.toContain('Buckeye');
    expect(await page.textContent('body')).not.toContain('Maple Ridge');

    await ok(w.api.patch(linkOf(j.id), { expires_in_days: 30 }));
    expect((await page.goto(onServer(link.share_url)))?.status()).toBe(200);
    await ok(w.api.patch(linkOf(j.id), { enabled: false }));
    const off = await page.goto(onServer(link.share_url));
    expect(off?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('turned off by the sender');

    const never = await page.goto(`${base}/share/photos/${'A'.repeat(43)}`);
    expect(never?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Link not found');
    expect((await page.goto(`${base}/share/photos/short`))?.status()).toBe(404);
    // A form post to a dead link gets the same pages.
    const post = await page.context().request.post(onServer(link.share_url), { form: { code: 'x' } });
    expect(post.status()).toBe(410);
    await page.context().close();
  });
});
