// The change-order page in a real browser (GUIDE "Customer pages"; document 3, Change order): the
// customer opens the link the office emailed, reads what changes, signs with a typed name and a
// signature drawn on the canvas, and the API then shows the change order approved by the customer
// with the job's revised contract, and change_order_approved reaches a webhook receiver. Also:
// approving with script off (typed name only) and declining with a comment.
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSignature, launchBrowser, listen } from '#test/helpers/browser.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import { ok } from '#test/helpers/records.ts';
import { startWorker, subscribe, type TestWorker } from '#test/integrations/webhooks/kit.ts';
import { changeOrder, operationsWorkspace, wonJob } from '#test/helpers/scenarios/change-order.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let w: Workspace;
let receiver: Receiver;
let worker: TestWorker;

beforeAll(async () => {
  t = await startApp();
  base = await listen(t);
  browser = await launchBrowser();
  w = await operationsWorkspace(t, { name: 'Blacktop Brothers' });
  receiver = await startReceiver('/approved');
  await subscribe(w, { target_url: receiver.url, event_type: 'change_order_approved' });
  worker = startWorker(t);
});
afterAll(async () => {
  await worker?.settle();
  await receiver?.close();
  await browser?.close();
  await t?.close();
});

const changeOrderOf = async (id: number) => (await ok(w.api.get(`/v1/change-orders/${id}`))).data;

/** A sent change order on a job with a won estimate; the page's address on the listening server. */
async function sent(body: Record<string, unknown> = {}) {
  const { job, estimate } = await wonJob(w.api);
  const co = await changeOrder(w.api, {
    job_id: job.id,
    title: 'Extra drainage',
    amount_delta: 2400,
    days_delta: 3,
    ...body,
  });
  const res = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
  return { job, estimate, co, url: `${base}${new URL(res.url).pathname}` };
}

describe('the change-order page', () => {
  it('approves with a typed name and a drawn signature; the API shows it approved by the customer and the webhook arrives', async () => {
    const { co, url, estimate } = await sent();
    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'nonce-/);
    expect(await page.textContent('h1')).toBe('Change order #1');
    expect(await page.textContent('#terms')).toContain('Extra drainage');
    expect(await page.textContent('#terms .amount')).toBe('+$2,400.00');
    expect(await page.textContent('#terms')).toContain('+3 days');
    expect(await page.textContent('.consent')).toContain('I agree to sign this change order electronically');
    expect(await page.isVisible('#signature-canvas')).toBe(true);

    await page.fill('#signature_name', 'Robin Vega');
    await drawSignature(page);
    expect(await page.inputValue('#signature')).toMatch(/^data:image\/png;base64,/);
    // Without the consent box the browser keeps the form from going.
    await page.click('form.approve button[type="submit"]');
    expect(await page.$('input[name="consent"]:invalid')).not.toBeNull();
    await page.check('input[name="consent"]');
    await Promise.all([page.waitForNavigation(), page.click('form.approve button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('Signed by Robin Vega');
    expect(await page.$('form.approve')).toBeNull();

    const after = await changeOrderOf(co.id);
    expect(after).toMatchObject({
      status: 'approved',
      approval_source: 'customer',
      signature_name: 'Robin Vega',
      revised_contract: (Math.round(estimate.totals!.price * 100) + 240000) / 100,
      signature: { drawn_signature: true, consent_version: 'esign-2026-11' },
    });
    expect(after.signed_at).toMatch(/Z$/);
    const trail = after.signature.audit_trail;
    expect(trail.map((a: any) => a.kind)).toEqual(['opened', 'consented', 'signed', 'opened']);
    for (const a of trail) {
      expect(a.ip).toBe('127.0.0.1');
      expect(a.user_agent).toContain('Chrome');
    }
    // The drawn strokes really are in the kept PNG.
    const row = await t.database.db
      .selectFrom('change_orders')
      .select('signature_image')
      .where('id', '=', co.id)
      .executeTakeFirstOrThrow();
    const png = Buffer.from(row.signature_image!.split(',')[1], 'base64');
    expect((await sharp(png).stats()).channels[3].max).toBe(255);

    await worker.drain();
    const delivered = receiver.received.filter((r) => r.body?.entity?.id === co.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].body).toMatchObject({
      event_type: 'change_order_approved',
      entity: { type: 'change_order', id: co.id },
      data: {
        change_order_id: co.id,
        number: 1,
        title: 'Extra drainage',
        amount_delta: 2400,
        days_delta: 3,
        kind: 'quick',
      },
      job: { id: co.job_id },
    });
    await page.close();
  });

  it('approves with script turned off: the pad stays hidden and the typed name is the signature', async () => {
    const { co, url } = await sent();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.isVisible('#signature-canvas')).toBe(false);
    await page.fill('#signature_name', 'Sam Typed');
    await page.check('input[name="consent"]');
    await Promise.all([page.waitForNavigation(), page.click('form.approve button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('Signed by Sam Typed');
    const after = await changeOrderOf(co.id);
    expect(after).toMatchObject({
      status: 'approved',
      signature_name: 'Sam Typed',
      signature: { drawn_signature: false },
    });
    await context.close();
  });

  it('declines with a comment', async () => {
    const { co, url } = await sent();
    const page = await browser.newPage();
    await page.goto(url);
    await page.click('details.decline summary');
    await page.fill('#comment', 'Not this season.');
    await Promise.all([page.waitForNavigation(), page.click('details.decline button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('Not this season.');
    const after = await changeOrderOf(co.id);
    expect(after).toMatchObject({ status: 'declined', decision_comment: 'Not this season.', approval_source: null });
    expect(after.signature.audit_trail.map((a: any) => a.kind)).toEqual(['opened', 'declined', 'opened']);
    await page.close();
  });
});
