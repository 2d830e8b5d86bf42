// The customer portal page in a real browser (GUIDE "Customer pages"): the customer reads each
// job's messages, answers one (a customer message signed with their name) and leaves a comment on
// the map of the site by its coordinates; text anyone typed stays text; no script runs and the
// page sends its strict headers; a rotated link shows its 410 page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, ok } from '#test/helpers/records.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;
let customerId: number;
let lot: Record<string, any>;
let portalUrl: string;

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
const onServer = (url: string) => `${base}${new URL(url).pathname}`;
const texts = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => (e as HTMLElement).innerText.trim()));

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await t.workspace({ name: 'Blacktop Brothers' });
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { customer_portal_enabled: true } }));
  const sales = await t.user(w.firmId, { name: 'Sam Sales' });
  customerId = (await account(w, 'Maple Ridge HOA')).id;
  lot = await job(w, { name: 'Clubhouse lot', address: '4410 Maple Ridge Dr', client_account_id: customerId });
  await job(w, { name: 'Pool deck', client_account_id: customerId });
  await ok(sales.api.post(`/v1/jobs/${lot.id}/portal-messages`, { body: 'We start Monday at 7 AM.' }));
  await ok(sales.api.post(`/v1/jobs/${lot.id}/portal-messages`, { body: HOSTILE }));
  portalUrl = (await ok(w.api.post(`/v1/client-accounts/${customerId}/portal-link`, {}))).data.portal_url!;
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the portal page', () => {
  it("shows the customer's jobs and their messages, oldest first; hostile text stays text; strict headers", async () => {
    const page = await browser.newPage();
    const response = await page.goto(onServer(portalUrl));
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(await page.textContent('header')).toContain('Blacktop Brothers');
    expect(await page.textContent('h1')).toBe('Projects for Maple Ridge HOA');
    expect(await texts(page, 'section.job h2')).toEqual(['Pool deck', 'Clubhouse lot']);
    const thread = await texts(page, `#job-${lot.id} .thread .body`);
    expect(thread).toEqual(['We start Monday at 7 AM.', HOSTILE]);
    expect(await texts(page, `#job-${lot.id} .thread .who`)).toEqual(['Sam Sales', 'Sam Sales']);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.$$(`#job-${lot.id} .thread img`)).toHaveLength(0);
    await page.close();
  });

  it('the customer answers: the reply shows on the page and in the API as a customer message', async () => {
    const page = await browser.newPage();
    await page.goto(onServer(portalUrl));
    await page.fill(`#reply-${lot.id}`, `Can you start at 8? ${HOSTILE}`);
    await Promise.all([page.waitForNavigation(), page.click(`#job-${lot.id} form.reply button`)]);
    expect(new URL(page.url()).hash).toBe(`#job-${lot.id}`);
    const thread = await texts(page, `#job-${lot.id} .thread .body`);
    expect(thread.at(-1)).toBe(`Can you start at 8? ${HOSTILE}`);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    const messages = (await ok(w.api.get(`/v1/jobs/${lot.id}/portal-messages`))).data;
    expect(messages.at(-1)).toMatchObject({
      body: `Can you start at 8? ${HOSTILE}`,
      author_type: 'customer',
      author_name: 'Maple Ridge HOA',
      map_comment: false,
    });
    await page.close();
  });

  it('the customer leaves a comment on the map of the site by its coordinates; a bad point keeps what was typed', async () => {
    const page = await browser.newPage();
    await page.goto(onServer(portalUrl));
    await page.click(`#job-${lot.id} details summary`);
    // The browser's own checks refuse 95; a post that bypasses them is answered 400 by the server.
    await page.fill(`#lat-${lot.id}`, '40.0991');
    await page.fill(`#lng-${lot.id}`, '-83.1141');
    await page.fill(`#map-${lot.id}`, 'Standing water by the north drain');
    await Promise.all([page.waitForNavigation(), page.click(`#job-${lot.id} form.map button`)]);
    expect(await texts(page, `#job-${lot.id} .map-point`)).toEqual([
      expect.stringContaining('Map comment at 40.099100, -83.114100'),
    ]);
    const link = await page.getAttribute(`#job-${lot.id} .map-point a`, 'href');
    expect(link).toBe('https://www.openstreetmap.org/?mlat=40.0991&mlon=-83.1141#map=19/40.0991/-83.1141');
    const last = (await ok(w.api.get(`/v1/jobs/${lot.id}/portal-messages`))).data.at(-1);
    expect(last).toMatchObject({
      body: 'Standing water by the north drain',
      author_type: 'customer',
      map_comment: true,
      latitude: 40.0991,
      longitude: -83.1141,
      location_id: lot.location_id,
    });

    const count = (await ok(w.api.get(`/v1/jobs/${lot.id}/portal-messages`))).data.length;
    // The page's own script-free checks stop 95 in the browser; a post that goes around them gets 400.
    const answer = await page.request.post(`${base}${new URL(portalUrl).pathname}/jobs/${lot.id}/map-comments`, {
      form: { latitude: '95', longitude: '10', body: 'Too far north' },
    });
    const refused = { status: answer.status(), text: await answer.text() };
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Too far north');
    expect(refused.text).toContain('Give the latitude');
    expect((await ok(w.api.get(`/v1/jobs/${lot.id}/portal-messages`))).data).toHaveLength(count);
    await page.close();
  });

  it('a rotated link shows its 410 page; the new one opens', async () => {
    const fresh = (await ok(w.api.post(`/v1/client-accounts/${customerId}/portal-link/rotate`, {}))).data.portal_url;
    const page = await browser.newPage();
    const old = await page.goto(onServer(portalUrl));
    expect(old?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('replaced by a newer one');
    expect((await page.goto(onServer(fresh!)))?.status()).toBe(200);
    portalUrl = fresh!;
    await page.close();
  });
});
