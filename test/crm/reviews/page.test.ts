// The review page in a real browser (GUIDE "Customer pages"): the customer picks stars, writes a
// few words and chooses whether the review may be public; the API then shows it submitted; the
// page thanks them and a second submission is refused.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;

const onServer = (url: string) => `${base}${new URL(url).pathname}`;

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await t.workspace({ name: 'Blacktop Brothers' });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the review page', () => {
  it('takes stars, words and the public choice; then thanks the customer and refuses a second review', async () => {
    const j = await job(w, { name: 'Oak St lot', contact_name: 'Dana Reyes', contact_email: 'dana@example.com' });
    const review = (await ok(w.api.post(`/v1/jobs/${j.id}/review-request`, {}))).data;
    const page = await browser.newPage();
    const response = await page.goto(onServer(review.review_url));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.textContent('h1')).toBe('Review: Oak St lot');
    const hostile = '<img src=x onerror="window.__pwned=1"> Great crew';
    await page.check('input[name="rating"][value="4"]');
    await page.fill('#content', hostile);
    await page.check('input[name="is_public"]');
    await Promise.all([page.waitForNavigation(), page.click('form button')]);
    expect(await page.textContent('.thanks')).toContain('Thank you for your review, Dana Reyes.');
    expect(await page.textContent('.notes')).toBe(hostile);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.$('input[name="rating"]')).toBeNull();

    const listed = (await ok(w.api.get(`/v1/reviews?job_id=${j.id}`))).data[0];
    expect(listed).toMatchObject({ submitted: true, rating: 4, content: hostile, is_public: true });
    expect(listed.submitted_at).not.toBeNull();

    // A second submission (the old form posted again) is refused and changes nothing.
    const answer = await page.request.post(onServer(review.review_url), { form: { rating: '1', content: 'Changed' } });
    const again = { status: answer.status(), text: await answer.text() };
    expect(again.status).toBe(409);
    expect(again.text).toContain('already sent');
    expect((await ok(w.api.get(`/v1/reviews?job_id=${j.id}`))).data[0]).toEqual(listed);
    await page.close();
  });

  it('a private review without words; the form asks for stars first', async () => {
    const j = await job(w, { name: 'Pine Ave drive' });
    const review = (await ok(w.api.post(`/v1/jobs/${j.id}/review-request`, { client_name: 'Lee' }))).data;
    const page = await browser.newPage();
    await page.goto(onServer(review.review_url));
    // No stars: the browser's required check keeps the form from going.
    await page.click('form button');
    expect(await page.$('input[name="rating"]:invalid')).not.toBeNull();
    await page.check('input[name="rating"][value="5"]');
    await Promise.all([page.waitForNavigation(), page.click('form button')]);
    expect(await page.textContent('main')).toContain('It stays private.');
    const listed = (await ok(w.api.get(`/v1/reviews?job_id=${j.id}`))).data[0];
    expect(listed).toMatchObject({ submitted: true, rating: 5, content: null, is_public: false });
    await page.close();
  });
});
