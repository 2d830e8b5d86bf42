// The capital plan page in a real browser (GUIDE "Customer pages"): a site's completed assessments
// over time, newest first, with a summary of each service's quantities per year; drafts, internal
// pins and other sites never show; a rotated link and a link turned off show their 410 pages and
// the new link works.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { launchBrowser, listen, PHONE, sidewaysOverflow } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, ok, site } from '#test/helpers/records.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const ADDRESS = '4410 Maple Ridge Dr, Dublin, OH 43017';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;
let siteId: number;
let services: Record<string, number>;
/** Completion years in the workspace's time zone, by assessment title. */
const yearOf: Record<string, number> = {};
let timezone: string;

const linkPath = (action = '') => `/v1/locations/${siteId}/plan-share-link${action}`;
const onServer = (shareUrl: string) => `${base}${new URL(shareUrl).pathname}`;
const texts = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => e.textContent?.trim() ?? ''));

/** A completed walk on the job: pins as given ({service name, value, severity, visibility}). */
async function walk(jobId: number, title: string, pins: Record<string, unknown>[], complete = true) {
  const a = (await ok(w.api.post('/v1/site-assessments', { job_id: jobId, title }))).data;
  for (const { service, ...rest } of pins)
    await ok(
      w.api.post('/v1/assessment-pins', {
        latitude: 40,
        longitude: -83,
        assessment_id: a.id,
        ...(service ? { service_type_id: services[service as string] } : {}),
        ...rest,
      }),
    );
  if (!complete) return a;
  const done = (await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`, {}))).data;
  yearOf[title] = Number(
    storedToLocal(done.completed_at!.replace('Z', '.000000').slice(0, 26), timezone).date.slice(0, 4),
  );
  return done;
}

async function visit(url: string) {
  const page = await browser.newPage();
  const response = await page.goto(url);
  return { page, status: response?.status() ?? 0 };
}

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await t.workspace({ name: 'Blacktop Brothers' });
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { capital_planning_enabled: true } }));
  timezone = (await ok(t.admin.get(`/admin/v1/workspaces/${w.firmId}`))).data.timezone;
  const list = (await ok(w.api.get('/v1/assessment-services'))).data as { id: number; name: string }[];
  services = Object.fromEntries(list.map((s) => [s.name, s.id]));
  const hoa = await account(w, 'Maple Ridge HOA');
  siteId = (await site(w, { address: ADDRESS, name: 'Maple Ridge clubhouse lot', client_account_id: hoa.id })).id;
  const elsewhere = await job(w, { address: '9 Far Away Rd, Columbus, OH' });
  const first = await job(w, { address: ADDRESS, client_account_id: hoa.id });
  expect(first.location_id).toBe(siteId);

  // Last year: one walk of the lot.
  await walk(first.id, 'First lot walk', [
    { service: 'Crack sealing', measurement_value: 300, severity: 'medium' },
    { service: 'Line striping', measurement_value: 1000, severity: 'low' },
  ]);
  await walk(elsewhere.id, 'Another site walk', [{ service: 'Crack sealing', measurement_value: 5000 }]);
  // A year and more later: three walks of the site.
  advanceClock(400 * DAY_MS);
  const second = await job(w, { address: ADDRESS, client_account_id: hoa.id });
  await walk(second.id, 'Spring survey', [
    { service: 'Crack sealing', measurement_value: 500, severity: 'high' },
    { service: 'Crack sealing', measurement_value: 150, severity: 'low' },
    { service: 'Pothole patching', measurement_value: 40, severity: 'high' },
    { service: 'Pothole patching', measurement_value: 77, name: 'Office only', visibility: 'internal' },
    { notes: 'Clogged inlet', severity: 'high' },
  ]);
  // A job started before it had a site: its assessment has no location, the job is at the site now.
  const unsited = await job(w, { name: 'Restripe, no address yet' });
  const a = await walk(unsited.id, 'Striping check', [{ service: 'Line striping', measurement_value: 500 }], false);
  expect(a.location_id).toBeNull();
  await ok(w.api.put(`/v1/jobs/${unsited.id}/location`, { location_id: siteId }));
  await ok(w.api.post(`/v1/site-assessments/${a.id}/complete`, {}));
  yearOf['Striping check'] = yearOf['Spring survey']!;
  const third = await job(w, { address: ADDRESS, client_account_id: hoa.id });
  await walk(third.id, 'Fall re-survey', [{ service: 'Crack sealing', measurement_value: 700, severity: 'medium' }]);
  // A walk in progress is the field's draft.
  await walk(first.id, 'Draft walk', [{ service: 'Sealcoating', measurement_value: 9000 }], false);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the capital plan page', () => {
  it('shows the site and its completed assessments, newest first, with findings per service', async () => {
    const plan = (await ok(w.api.post(linkPath(), {}))).data;
    const { page, status } = await visit(onServer(plan.share_url));
    expect(status).toBe(200);
    expect(await page.title()).toBe('Capital plan: Maple Ridge clubhouse lot');
    expect(await page.textContent('header')).toContain('Blacktop Brothers');
    expect(await page.textContent('.meta')).toBe(`${ADDRESS}Prepared for Maple Ridge HOA`);
    expect(await texts(page, 'section.assessment h3')).toEqual([
      'Fall re-survey',
      'Striping check',
      'Spring survey',
      'First lot walk',
    ]);
    const body = (await page.textContent('main'))!;
    for (const hidden of ['Draft walk', 'Sealcoating', 'Another site walk', '5,000', 'Office only', '77'])
      expect(body).not.toContain(hidden);
    const spring = page.locator('section.assessment', { hasText: 'Spring survey' });
    expect(await spring.locator('time').getAttribute('datetime')).toMatch(new RegExp(`^${yearOf['Spring survey']}-`));
    expect(await spring.locator('tbody tr').allTextContents()).toEqual([
      'Crack sealing2650 ft1 high1 low',
      'Pothole patching140 sq ft1 high',
      'Other findings1—1 high',
    ]);
    expect(await spring.locator('tfoot').textContent()).toBe('Total43 high1 low');
    const first = page.locator('section.assessment', { hasText: 'First lot walk' });
    expect(await first.locator('tbody tr').allTextContents()).toEqual([
      'Crack sealing1300 ft1 medium',
      'Line striping11,000 ft1 low',
    ]);
    // Severity badges carry their class.
    expect(await spring.locator('tfoot .badge').evaluateAll((els) => els.map((e) => e.className))).toEqual([
      'badge sev-high',
      'badge sev-low',
    ]);
    await page.close();
  });

  it("summarises each service's quantities per year, each year from its latest walk that found it", async () => {
    const plan = (await ok(w.api.get(linkPath()))).data;
    const { page } = await visit(onServer(plan.share_url));
    const recent = yearOf['Spring survey']!;
    const earlier = yearOf['First lot walk']!;
    expect(recent).toBeGreaterThan(earlier);
    expect(await texts(page, 'table.plan-summary thead th')).toEqual(['Service', String(recent), String(earlier)]);
    expect(await texts(page, 'table.plan-summary tbody tr')).toEqual([
      // The fall re-survey's 700 ft, not the spring's 650 added to it.
      `Crack sealing700 ft300 ft`,
      'Pothole patching40 sq ft—',
      'Line striping500 ft1,000 ft',
      'Other findings1 finding—',
    ]);
    await page.close();
  });

  it('fits a phone: at 390 px the page never scrolls sideways and each walk’s findings fit the screen', async () => {
    const plan = (await ok(w.api.post(linkPath(), {}))).data;
    const page = await browser.newPage({ viewport: PHONE });
    expect((await page.goto(onServer(plan.share_url)))?.status()).toBe(200);
    // The years summary may grow a column a year: it scrolls inside its own box, never the page.
    expect((await sidewaysOverflow(page)).page).toBe(0);
    const rights = await page.$$eval('section.assessment table', (tables) =>
      tables.map((table) => table.getBoundingClientRect().right),
    );
    expect(rights).toHaveLength(4);
    for (const right of rights) expect(right).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  });

  it('a rotated link shows its 410 page and the new link works; a link turned off shows its own', async () => {
    const before = (await ok(w.api.get(linkPath()))).data;
    const rotated = (await ok(w.api.post(linkPath('/rotate'), {}))).data;
    const old = await visit(onServer(before.share_url));
    expect(old.status).toBe(410);
    expect(await old.page.textContent('h1')).toBe('Link no longer available');
    expect(await old.page.textContent('main')).toContain('replaced by a newer one');
    expect(await old.page.textContent('body')).not.toContain('Maple Ridge');
    await old.page.close();
    const fresh = await visit(onServer(rotated.share_url));
    expect(fresh.status).toBe(200);
    expect(await texts(fresh.page, 'section.assessment h3')).toHaveLength(4);
    await fresh.page.close();

    await ok(w.api.post(linkPath('/disable'), {}));
    const off = await visit(onServer(rotated.share_url));
    expect(off.status).toBe(410);
    expect(await off.page.textContent('main')).toContain('turned off by the sender');
    await off.page.close();
    // Turned on again: a new link that works, the old ones stay stopped.
    const again = (await ok(w.api.post(linkPath(), {}))).data;
    expect(again.share_url).not.toBe(rotated.share_url);
    const reopened = await visit(onServer(again.share_url));
    expect(reopened.status).toBe(200);
    expect(await reopened.page.title()).toBe('Capital plan: Maple Ridge clubhouse lot');
    await reopened.page.close();
    const still = await visit(onServer(rotated.share_url));
    expect(still.status).toBe(410);
    await still.page.close();
  });

  it('a site with no completed assessment says so', async () => {
    const empty = await site(w, { address: '1 Empty Lot Ln', name: 'Empty lot' });
    const plan = (await ok(w.api.post(`/v1/locations/${empty.id}/plan-share-link`, {}))).data;
    const { page, status } = await visit(onServer(plan.share_url!));
    expect(status).toBe(200);
    expect(await page.textContent('main')).toContain('No completed assessments of this site yet.');
    expect(await page.locator('table').count()).toBe(0);
    await page.close();
  });
});
