// The invoice page in a real browser (GUIDE "Customer pages"; document 3, Request payment online):
// the customer opens the link request-payment gave, sees the invoice clearly marked TEST MODE,
// presses Pay, is declined with a test decline card, pays with 4242 4242 4242 4242, and lands back on
// the invoice, now Paid; the API then shows the invoice paid, payment_received in the feed and the
// payment in GET /v1/payments. The PDF link downloads the invoice.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await t.workspace({ name: 'Blacktop Brothers', settings: { online_payments_connected: true } });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the invoice page', () => {
  it('pays an online invoice with a test card on the built-in page', async () => {
    const m = await proposalOnJob(w, { patch: { deposit_percent: 30 } });
    const requested = await w.api.post(`/v1/estimates/${m.proposal.estimate_id}/request-payment`, { kind: 'deposit' });
    expect(requested.status, JSON.stringify(requested.body)).toBe(201);
    const { invoice, payment_url } = requested.body.data;
    const url = `${base}${new URL(payment_url).pathname}`;

    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe(`Invoice #${invoice.invoice_number}`);
    expect(await page.textContent('.test-mode')).toContain('TEST MODE');
    expect(await page.textContent('table')).toContain(`Deposit (30%): ${m.proposal.title}`);

    await page.click('a.pay');
    expect(await page.textContent('h1')).toBe('Pay invoice (test mode)');
    await page.fill('input[name=name]', 'Robin Vega');
    await page.fill('input[name=number]', '4000 0000 0000 0002');
    await page.fill('input[name=expiry]', '12/40');
    await page.fill('input[name=cvc]', '123');
    await page.click('button[type=submit]');
    expect(await page.textContent('.error')).toBe('Your card was declined.');
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data.status).toBe('open');

    await page.fill('input[name=number]', '4242 4242 4242 4242');
    await page.fill('input[name=expiry]', '12/40');
    await page.fill('input[name=cvc]', '123');
    await page.click('button[type=submit]');
    await page.waitForURL(url);
    expect(await page.textContent('.standing')).toMatch(/^Paid \d{4}-\d{2}-\d{2}$/);
    expect(await page.$('a.pay')).toBeNull();

    const after = (await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data;
    expect(after.status).toBe('paid');
    const feed = (await ok(w.api.get(`/v1/events?after=0&event_type=payment_received&job_id=${m.job.id}`))).data;
    expect(feed).toEqual([
      expect.objectContaining({
        entity: { type: 'invoice', id: invoice.id },
        data: expect.objectContaining({ status: 'paid' }),
      }),
    ]);
    const payments = (await ok(w.api.get(`/v1/payments?job_id=${m.job.id}`))).data;
    expect(payments).toEqual([expect.objectContaining({ invoice_id: invoice.id, amount: invoice.amount })]);

    const [download] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/pdf')),
      page.click('text=Download PDF'),
    ]);
    expect(download.headers()['content-type']).toBe('application/pdf');
    await page.close();
  });
});
