// The assessment report page in a real browser (GUIDE "Customer pages"): a customer opens the link
// the API made and sees the walk's findings per service, with severities, quantities and pin
// photos that actually load; a scoped link shows only its services; internal pins and photos never
// show; a revoked link shows its 410 page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnImages, launchBrowser, listen, PHONE, sidewaysOverflow } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { image, multipartBody } from '#test/field/photos/upload.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;
let assessmentId: number;
let services: Record<string, number>;
let internalPhotoId: number;

/** Adds a photo to a pin (multipart, with text fields). */
async function pinPhoto(pinId: number, data: Buffer, fields: Record<string, string> = {}) {
  const { payload, contentType } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'photo', filename: 'finding.jpg', data, type: 'image/jpeg' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/assessment-pins/${pinId}/photos`,
    headers: { 'x-api-key': w.key, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().photo_ids[0] as number;
}

const pin = async (body: Record<string, unknown>) =>
  (
    await ok(
      w.api.post('/v1/assessment-pins', { latitude: 39.78, longitude: -89.65, assessment_id: assessmentId, ...body }),
    )
  ).data as { id: number };

/** A link's page on the listening server. */
const onServer = (shareUrl: string) => `${base}${new URL(shareUrl).pathname}`;

async function link(body: Record<string, unknown> = {}) {
  return (await ok(w.api.post(`/v1/site-assessments/${assessmentId}/share-link`, body))).data as {
    id: number;
    share_url: string;
  };
}

/**
 * Opens a page, collecting what the browser refused (the policy's console errors) or could not
 * load (anything the page asked for but the icon a browser asks for by itself).
 */
async function visit(url: string): Promise<{ page: Page; status: number; refused: string[] }> {
  const page = await browser.newPage();
  const refused: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) refused.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && r.url() !== url && !r.url().endsWith('/favicon.ico'))
      refused.push(`${r.status()} ${r.url()}`);
  });
  const response = await page.goto(url);
  return { page, status: response?.status() ?? 0, refused };
}

const texts = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => e.textContent?.trim() ?? ''));

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await t.workspace({ name: 'Blacktop Brothers' });
  const j = await job(w, { address: '4410 Maple Ridge Dr, Dublin, OH' });
  assessmentId = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id, title: 'Spring lot walk' }))).data.id;
  const list = (await ok(w.api.get('/v1/assessment-services'))).data as { id: number; name: string }[];
  services = Object.fromEntries(list.map((s) => [s.name, s.id]));
  const north = await pin({
    service_type_id: services['Crack sealing'],
    measurement_value: 420,
    severity: 'high',
    size: 'large',
    name: 'North curb',
    notes: 'Along the north curb <b>& gutter</b>',
  });
  await pinPhoto(north.id, await image('jpeg', 160, 120), { title: 'North curb cracks' });
  await pinPhoto(north.id, await image('png', 120, 90), { caption: 'Close-up' });
  internalPhotoId = await pinPhoto(north.id, await image('jpeg', 90, 60), {
    visibility: 'internal',
    title: 'Office shot',
  });
  await pin({ service_type_id: services['Crack sealing'], measurement_value: 230, severity: 'low' });
  await pin({
    service_type_id: services['Base failure repair'],
    length_ft: 18,
    width_ft: 12,
    depth_in: 4,
    severity: 'high',
    name: 'East entrance',
  });
  await pin({ service_type_id: services['Line striping'], measurement_value: 1800 });
  await pin({ notes: 'Clogged inlet by the dumpster', severity: 'high', name: 'Inlet' });
  await pin({
    service_type_id: services['Crack sealing'],
    measurement_value: 999,
    name: 'Office only',
    visibility: 'internal',
  });
  await ok(w.api.post(`/v1/site-assessments/${assessmentId}/complete`, {}));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('an assessment report link showing every service', () => {
  it('shows the walk per service: swatches, counts, quantities, severities and the other findings', async () => {
    const { page, status, refused } = await visit(onServer((await link()).share_url));
    expect(status).toBe(200);
    expect(await page.title()).toBe('Spring lot walk');
    expect(await page.textContent('header')).toContain('Blacktop Brothers');
    expect(await page.textContent('.meta .place')).toBe('4410 Maple Ridge Dr, Dublin, OH');
    expect(await page.textContent('.meta .status')).toMatch(/^Completed [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(await texts(page, 'section.service h2')).toEqual([
      'Crack sealing',
      'Base failure repair',
      'Line striping',
      'Other findings',
    ]);
    // The summary: the internal pin (999 ft) counts nowhere.
    expect(await texts(page, 'table.summary tbody tr')).toEqual([
      'Crack sealing2650 ft1 high1 low',
      'Base failure repair12.67 cu yd1 high',
      'Line striping11,800 ft1 medium',
      'Other findings1—1 high',
    ]);
    expect(await page.textContent('table.summary tfoot')).toBe('Total53 high1 medium1 low');
    const body = (await page.textContent('main'))!;
    expect(body).not.toContain('Office only');
    expect(body).not.toContain('999');
    expect(body).not.toContain('Office shot');
    // The service's color, drawn by the swatch.
    const fill = await page.$eval('section#service-' + services['Crack sealing'] + ' h2 svg rect', (r) =>
      r.getAttribute('fill'),
    );
    expect(fill).toBe('#f59e0b');
    expect(refused).toEqual([]);
    await page.close();
  });

  it('fits a phone: at 390 px the summary and the findings never make the page scroll sideways', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    expect((await page.goto(onServer((await link()).share_url)))?.status()).toBe(200);
    expect(await sidewaysOverflow(page, 'main table')).toEqual({ page: 0, inside: [0] });
    await page.close();
  });

  it('shows each finding with its severity, size, measurements and notes (as text, never markup)', async () => {
    const { page } = await visit(onServer((await link()).share_url));
    const pins = page.locator('article.pin');
    expect(await pins.count()).toBe(5);
    const east = page.locator('article.pin', { hasText: 'East entrance' });
    expect(await east.locator('.badge').textContent()).toBe('High');
    expect(await east.locator('.badge').getAttribute('class')).toBe('badge sev-high');
    expect(await texts(page, `#service-${services['Base failure repair']} .facts li`)).toEqual([
      'Size: medium',
      '18 ft long × 12 ft wide × 4 in deep',
      'Area: 216 sq ft',
      'Volume: 2.67 cu yd',
    ]);
    const north = page.locator('article.pin', { hasText: 'North curb' });
    expect(await north.locator('.facts').textContent()).toContain('Size: large');
    expect(await north.locator('.facts').textContent()).toContain('Length: 420 ft');
    expect(await north.locator('.notes').textContent()).toBe('Along the north curb <b>& gutter</b>');
    expect(await north.locator('.notes b').count()).toBe(0);
    const inlet = page.locator('#service-other article.pin');
    expect(await inlet.locator('h4').textContent()).toContain('Inlet');
    expect(await inlet.locator('.notes').textContent()).toBe('Clogged inlet by the dumpster');
    await page.close();
  });

  it("loads the pins' external photos (thumbnails drawn), and a click opens the photo", async () => {
    const { page, refused } = await visit(onServer((await link()).share_url));
    const drawn = await drawnImages(page);
    expect(drawn).toHaveLength(2);
    for (const img of drawn) {
      expect(img.width).toBeGreaterThan(0);
      expect(img.src.startsWith(`${base}/v1/objects/`)).toBe(true);
    }
    expect(await page.locator('article.pin', { hasText: 'North curb' }).locator('img').count()).toBe(2);
    expect(await page.getAttribute('li.pin-photo img', 'alt')).toBe('North curb cracks');
    expect(await texts(page, 'li.pin-photo p')).toEqual(['North curb cracks', 'Close-up']);
    expect(refused).toEqual([]);
    // The internal photo is not on the page, though the API shows it on the pin.
    const html = await page.content();
    expect(html).not.toContain('Office shot');
    const apiPin = (await ok(w.api.get(`/v1/assessment-pins?assessment_id=${assessmentId}`))).data.find(
      (p: { name: string | null }) => p.name === 'North curb',
    );
    expect(apiPin!.photos.map((p: { id: number }) => p.id)).toContain(internalPhotoId);
    // The customer clicks the first photo and gets the full image.
    const [response] = await Promise.all([page.waitForEvent('response'), page.click('li.pin-photo a')]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('image/jpeg');
    await page.close();
  });
});

describe('a scoped assessment report link', () => {
  it('shows only its services, with their own totals', async () => {
    const scoped = await link({
      service_type_ids: [services['Line striping'], services['Crack sealing']],
      label: 'Sealing and striping',
    });
    const { page, status } = await visit(onServer(scoped.share_url));
    expect(status).toBe(200);
    expect(await page.textContent('.scope')).toBe('This report covers Crack sealing, Line striping.');
    expect(await texts(page, 'section.service h2')).toEqual(['Crack sealing', 'Line striping']);
    expect(await page.textContent('table.summary tfoot')).toBe('Total31 high1 medium1 low');
    const body = (await page.textContent('main'))!;
    for (const hidden of [
      'Base failure repair',
      'East entrance',
      'Other findings',
      'Clogged inlet',
      'Sealing and striping',
    ])
      expect(body).not.toContain(hidden);
    expect(await page.locator('article.pin').count()).toBe(3);
    const drawn = await drawnImages(page);
    expect(drawn).toHaveLength(2);
    expect(drawn.every((img) => img.width > 0)).toBe(true);
    await page.close();
  });

  it('names a scoped service with nothing found', async () => {
    const scoped = await link({ service_type_ids: [services['Sealcoating']] });
    const { page } = await visit(onServer(scoped.share_url));
    expect(await texts(page, 'section.service h2')).toEqual(['Sealcoating']);
    expect(await page.textContent('section.service')).toContain('Nothing was found for this service.');
    await page.close();
  });
});

describe('other states of a report link', () => {
  it('an open assessment shows as in progress', async () => {
    const j = await job(w);
    const open = (await ok(w.api.post('/v1/site-assessments', { job_id: j.id, title: 'Fall walk' }))).data;
    const made = (await ok(w.api.post(`/v1/site-assessments/${open.id}/share-link`, {}))).data;
    const { page } = await visit(onServer(made.share_url!));
    expect(await page.textContent('.meta .status')).toMatch(/^In progress \(started [A-Z][a-z]+ \d{1,2}, \d{4}\)$/);
    expect(await page.textContent('main')).toContain('No findings have been recorded yet.');
    await page.close();
  });

  it('a revoked link shows its 410 page, naming nothing of the report', async () => {
    const made = await link();
    await ok(w.api.post(`/v1/site-assessments/${assessmentId}/share-links/${made.id}/revoke`, {}));
    const { page, status } = await visit(onServer(made.share_url));
    expect(status).toBe(410);
    expect(await page.textContent('h1')).toBe('Link no longer available');
    expect(await page.textContent('main')).toContain('revoked by the sender');
    expect(await page.textContent('body')).not.toContain('Spring lot walk');
    expect(await page.textContent('body')).not.toContain('Blacktop Brothers');
    await page.close();
  });
});
