// The proposal page in a real browser (GUIDE "Customer pages"; document 3, Proposal): the customer
// opens a sent proposal (viewed once, every open counted, the office preview not), reads the cover,
// the pricing with optional items apart and the photos, signs with a typed name and a signature
// drawn on the canvas, and the API then shows the proposal accepted, the job in the won stage, the
// executed PDF among the job's files, the audit trail, and proposal_accepted delivered to a
// webhook receiver. Also: signing with script off (typed name only), declining with a reason, and
// the expired, turned-off and withdrawn links.
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnImages, drawSignature, launchBrowser, listen, PHONE, sidewaysOverflow } from '#test/helpers/browser.ts';
import { image, uploadPhoto } from '#test/field/photos/upload.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import { ok } from '#test/helpers/records.ts';
import { startWorker, subscribe, type TestWorker } from '#test/integrations/webhooks/kit.ts';
import { proposalEvents, proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

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
  w = await t.workspace({ name: 'Blacktop Brothers' });
  receiver = await startReceiver('/accepted');
  await subscribe(w, { target_url: receiver.url, event_type: 'proposal_accepted' });
  worker = startWorker(t);
});
afterAll(async () => {
  await worker?.settle();
  await receiver?.close();
  await browser?.close();
  await t?.close();
});

const proposalOf = async (id: number) => (await ok(w.api.get(`/v1/proposals/${id}`))).data;

describe('the proposal page', () => {
  it('shows the proposal; the first open moves it to viewed once, every open counts, the preview does not', async () => {
    const m = await proposalOnJob(w, { patch: { deposit_percent: 25, accent_color: '#b4432a' } });
    await ok(
      uploadPhoto(t, w, m.job.id, await image('png', 90, 60), { title: 'North entrance', caption: 'Cracked apron' }),
    );
    const page = await browser.newPage();
    const response = await page.goto(`${base}${m.path}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'nonce-/);
    expect(await page.textContent('h1')).toBe(m.proposal.title);
    expect(await page.textContent('.cover')).toContain(`Prepared for ${m.job.contact_name}, ${m.job.company}`);
    expect(await page.textContent('.cover .valid-until')).toMatch(/^Valid until \w+ \d{1,2}, \d{4}$/);
    // Pricing: the two lines at their prices, the optional one apart, the deposit and terms.
    const rows = await page.$$eval('table.pricing:not(.optional) tbody tr', (trs) =>
      trs.map((tr) => (tr as HTMLElement).innerText),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Sealcoat main lot');
    expect(await page.textContent('table.optional')).toContain('Crack fill');
    expect(await page.textContent('table.totals')).toContain('Total');
    expect(await page.textContent('.deposit')).toContain('25%');
    expect(await page.textContent('.payment-terms')).toContain('within 30 days');
    // The photo is drawn from a signed link, the accent colour applied, the consent shown.
    const drawn = await drawnImages(page);
    expect(drawn.length).toBeGreaterThanOrEqual(1);
    expect(drawn.every((i) => i.width > 0)).toBe(true);
    expect(await page.textContent('.photos-grid')).toContain('North entrance');
    expect(await page.$eval('header', (h) => getComputedStyle(h).backgroundColor)).toBe('rgb(180, 67, 42)');
    expect(await page.textContent('.consent')).toContain('I agree to sign this proposal electronically');
    expect(await page.isVisible('#signature-canvas')).toBe(true);

    let p = await proposalOf(m.proposal.id);
    expect(p).toMatchObject({ status: 'viewed', view_count: 1 });
    await page.reload();
    p = await proposalOf(m.proposal.id);
    expect(p.view_count).toBe(2);
    expect(p.last_viewed_at! >= p.first_viewed_at!).toBe(true);

    const preview = await browser.newPage();
    expect((await preview.goto(`${base}${m.previewPath}`))?.status()).toBe(200);
    expect(await preview.textContent('.banner.preview')).toContain('Office preview');
    expect(await preview.$('form.accept')).toBeNull();
    expect((await proposalOf(m.proposal.id)).view_count).toBe(2);
    expect((await proposalEvents(t, m.job.id)).map((e) => e.event_type)).toEqual(['proposal_sent', 'proposal_viewed']);
    await preview.close();
    await page.close();
  });

  it('fits a phone: at 390 px every line shows its figures and price, and the page never scrolls sideways', async () => {
    const job = (await ok(w.api.post('/v1/jobs', { name: 'Northgate Plaza mill and overlay', company: 'Northgate' })))
      .data;
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
    const described =
      'Mill 2" of existing asphalt, haul millings for recycling, sweep, apply tack coat and install a 2" compacted overlay of hot-mix asphalt surface course.';
    for (const line of [
      { name: 'Mill and overlay, 2"', proposal_text: described, unit: 'SY', quantity: 24_000, unit_cost: 15.82 },
      {
        name: 'Crack sealing',
        proposal_text: 'Blow out cracks 1/4" and wider, fill hot.',
        unit: 'LF',
        quantity: 6_500,
        unit_cost: 2.48,
      },
    ])
      await ok(w.api.post(`/v1/estimates/${estimate.id}/line-items`, line));
    const proposal = (await ok(w.api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
    const sent = (await ok(w.api.post(`/v1/proposals/${proposal.id}/send`, { to: 'facilities@northgate.test' }))).data;
    const page = await browser.newPage({ viewport: PHONE });
    expect((await page.goto(`${base}${new URL(sent.share_url!).pathname}`))?.status()).toBe(200);
    // The table fits its box (nothing cut off, nothing to scroll to) and the page fits the screen.
    expect(await sidewaysOverflow(page, '.section-pricing .scroll')).toEqual({ page: 0, inside: [0] });
    const cells = await page.$$eval('table.pricing td.num', (tds) =>
      tds.map((td) => ({ label: td.getAttribute('data-label'), right: td.getBoundingClientRect().right })),
    );
    expect(cells.map((c) => c.label)).toEqual(['Quantity', 'Unit price', 'Price', 'Quantity', 'Unit price', 'Price']);
    for (const cell of cells) expect(cell.right).toBeLessThanOrEqual(PHONE.width);
    expect(await page.$eval('table.pricing td.price', (td) => (td as HTMLElement).innerText)).toMatch(
      /^\$\d{3},\d{3}\.\d{2}$/,
    );
    // With no header row on a phone, each figure says what it is.
    expect(await page.$eval('table.pricing td.price', (td) => getComputedStyle(td, '::before').content)).toBe(
      '"Price: "',
    );
    // A wide screen keeps the table with its header row.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.isVisible('table.pricing thead')).toBe(true);
    expect((await sidewaysOverflow(page)).page).toBe(0);
    await page.close();
  });

  it('accepts with a typed name and a drawn signature; the API shows the signature, the job won, the executed PDF and the webhook', async () => {
    const m = await proposalOnJob(w);
    const page = await browser.newPage();
    await page.goto(`${base}${m.path}`);
    await page.fill('#signer_name', 'Robin Vega');
    await page.fill('#signer_email', 'robin.vega@example.com');
    await drawSignature(page);
    expect(await page.inputValue('#signature')).toMatch(/^data:image\/png;base64,/);
    // Without the consent box the browser keeps the form from going.
    await page.click('form.accept button[type="submit"]');
    expect(await page.$('input[name="consent"]:invalid')).not.toBeNull();
    await page.check('input[name="consent"]');
    await Promise.all([page.waitForNavigation(), page.click('form.accept button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('Signed by Robin Vega (robin.vega@example.com)');
    expect(await page.$('form.accept')).toBeNull();
    // The signed copy the banner promises: a link on the page, behind the page's token.
    const href = await page.getAttribute('.outcome a.signed-pdf', 'href');
    expect(href).toBe(`${m.path}/signed.pdf`);
    const signedPdf = await page.context().request.get(`${base}${href}`);
    expect(signedPdf.headers()['content-type']).toBe('application/pdf');
    expect((await signedPdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    const p = await proposalOf(m.proposal.id);
    expect(p.status).toBe('accepted');
    expect((await ok(w.api.get(`/v1/jobs/${m.job.id}`))).data.status).toBe('won');

    const sig = (await ok(w.api.get(`/v1/proposals/${m.proposal.id}/signature`))).data;
    expect(sig).toMatchObject({
      proposal_status: 'accepted',
      signer_name: 'Robin Vega',
      signer_email: 'robin.vega@example.com',
    });
    expect(sig.envelope).toMatchObject({ consent_version: 'esign-2026-11', drawn_signature: true });
    expect(sig.envelope.document_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sig.envelope.consent_text).toContain('sign this proposal electronically');
    const trail = sig.envelope.audit_trail;
    expect(trail.map((a: any) => a.kind)).toEqual(['opened', 'consented', 'signed', 'opened']);
    for (const a of trail) {
      expect(a.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(a.ip).toBe('127.0.0.1');
      expect(a.user_agent).toContain('Chrome');
    }
    expect(trail[1].data).toEqual({ consent_version: 'esign-2026-11' });
    expect(trail[2].data).toMatchObject({ signer_name: 'Robin Vega', drawn_signature: true });

    // The drawn strokes really are in the kept PNG: some pixels are not transparent.
    const row = await t.database.db
      .selectFrom('proposals')
      .select('signature_image')
      .where('id', '=', m.proposal.id)
      .executeTakeFirstOrThrow();
    const png = Buffer.from(row.signature_image!.split(',')[1], 'base64');
    const alpha = (await sharp(png).stats()).channels[3];
    expect(alpha.max).toBe(255);

    const files = (await ok(w.api.get(`/v1/jobs/${m.job.id}/files`))).data.filter(
      (f: any) => f.document_type === 'executed_proposal',
    );
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      content_type: 'application/pdf',
      source: 'proposal',
      id: sig.envelope.executed_file_id,
    });
    expect(files[0].filename).toMatch(/^Proposal \d+ - signed\.pdf$/);
    const file = (await ok(w.api.get(`/v1/files/${files[0].id}`))).data;
    // The signed link names the origin the API was called at (inject's); the same path on the listening server.
    const link = new URL(file.signed_url!);
    const pdf = Buffer.from(await (await page.context().request.get(`${base}${link.pathname}${link.search}`)).body());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    await worker.drain();
    const delivered = receiver.received.filter((r) => r.body?.proposal?.id === m.proposal.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].body).toMatchObject({
      event_type: 'proposal_accepted',
      status_changed: true,
      current_status: 'won',
      proposal: { id: m.proposal.id, status: 'accepted', actor_user_id: null },
    });
    await page.close();
  });

  it('signs with script turned off: the pad stays hidden and the typed name is the signature', async () => {
    const m = await proposalOnJob(w);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}${m.path}`);
    expect(await page.isVisible('#signature-canvas')).toBe(false);
    await page.fill('#signer_name', 'Sam Typed');
    await page.fill('#signer_email', 'sam@example.com');
    await page.check('input[name="consent"]');
    await Promise.all([page.waitForNavigation(), page.click('form.accept button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('Signed by Sam Typed');
    const sig = (await ok(w.api.get(`/v1/proposals/${m.proposal.id}/signature`))).data;
    expect(sig).toMatchObject({ proposal_status: 'accepted', signer_name: 'Sam Typed' });
    expect(sig.envelope.drawn_signature).toBe(false);
    await context.close();
  });

  it('declines with a reason', async () => {
    const m = await proposalOnJob(w);
    const page = await browser.newPage();
    await page.goto(`${base}${m.path}`);
    await page.click('details.decline summary');
    await page.fill('#reason', 'We went with another bid this year.');
    await Promise.all([page.waitForNavigation(), page.click('details.decline button[type="submit"]')]);
    expect(await page.textContent('.outcome')).toContain('We went with another bid this year.');
    const p = await proposalOf(m.proposal.id);
    expect(p.status).toBe('rejected');
    expect(p.signature.envelope.decline_reason).toBe('We went with another bid this year.');
    // The page the answer leads back to is itself an open.
    expect(p.signature.envelope.audit_trail.map((a: any) => a.kind)).toEqual(['opened', 'declined', 'opened']);
    expect((await proposalEvents(t, m.job.id)).map((e) => e.event_type)).toEqual([
      'proposal_sent',
      'proposal_viewed',
      'proposal_declined',
    ]);
    // The job stays where it was.
    expect((await ok(w.api.get(`/v1/jobs/${m.job.id}`))).data.status).toBe(m.job.status);
    await page.close();
  });

  it('an expired link, a link turned off and a withdrawn proposal each show a clear page', async () => {
    const m = await proposalOnJob(w);
    const page = await browser.newPage();
    await ok(w.api.patch(`/v1/proposals/${m.proposal.id}/link`, { expires_on: '2020-01-01' }));
    const expired = await page.goto(`${base}${m.path}`);
    expect(expired?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('This link has expired.');

    await ok(w.api.patch(`/v1/proposals/${m.proposal.id}/link`, { expires_on: null, enabled: false }));
    const off = await page.goto(`${base}${m.path}`);
    expect(off?.status()).toBe(410);
    expect(await page.textContent('main')).toContain('turned off');

    await ok(w.api.patch(`/v1/proposals/${m.proposal.id}/link`, { enabled: true }));
    expect((await page.goto(`${base}${m.path}`))?.status()).toBe(200);
    await ok(w.api.post(`/v1/proposals/${m.proposal.id}/void`));
    const withdrawn = await page.goto(`${base}${m.path}`);
    expect(withdrawn?.status()).toBe(410);
    expect(await page.textContent('h1')).toBe('Proposal withdrawn');
    expect(await page.textContent('main')).toContain('Blacktop Brothers has withdrawn this proposal');
    // None of these counted as an open of the proposal after the first.
    expect((await proposalOf(m.proposal.id)).view_count).toBe(1);
    await page.close();
  });
});
