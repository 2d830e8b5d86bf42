// The change-order page's rules over HTTP (document 3, Change order state table; billing/
// change-orders/visit.ts): what an open counts and records, the approve form's refusals (400 with
// what was typed), a drawn signature that is not a PNG, a change order changed since the page was
// rendered, answering twice, the office's moves after the customer signed, a change order being
// revised, and the 404/410 pages. The browser test is page.browser.test.ts.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor } from '#test/helpers/page-visitor.ts';
import { ok } from '#test/helpers/records.ts';
import {
  changeOrder,
  feedOf,
  jobWithContact,
  operationsWorkspace,
  wonJob,
} from '#test/helpers/scenarios/change-order.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await operationsWorkspace(t, { name: 'Blacktop Brothers', timezone: 'America/Chicago' });
});
afterAll(() => t?.close());

const UA = 'Mozilla/5.0 (change-order page test)';

const { getPage, post } = pageVisitor(() => t, UA);

function hashIn(page: string): string {
  const m = /name="document_hash" value="([0-9a-f]{64})"/.exec(page);
  if (!m) throw new Error('the page has no approve form');
  return m[1];
}

const signing = (page: string, over: Record<string, string> = {}) => ({
  document_hash: hashIn(page),
  signature_name: 'Robin Vega',
  consent: 'yes',
  signature: '',
  ...over,
});

const changeOrderOf = async (id: number) => (await ok(w.api.get(`/v1/change-orders/${id}`))).data;

/** A sent quick change order on a job with a won estimate, and its page's path. */
async function sentChangeOrder(body: Record<string, unknown> = {}) {
  const { job, estimate } = await wonJob(w.api);
  const co = await changeOrder(w.api, {
    job_id: job.id,
    title: 'Extra patching',
    amount_delta: 1250,
    days_delta: 2,
    ...body,
  });
  const sent = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
  return { job, estimate, co: sent.data, path: new URL(sent.url).pathname };
}

describe('opening the page', () => {
  it('shows what changes with the consent and forms; every open is counted and in the audit trail', async () => {
    const { co, path, estimate } = await sentChangeOrder({ description: 'Two more potholes <b>by the gate</b>' });
    const page = await getPage(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+'/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.text).toContain('Change order #1');
    expect(page.text).toContain('Extra patching');
    expect(page.text).toContain('Two more potholes &lt;b&gt;by the gate&lt;/b&gt;');
    expect(page.text).toContain('+$1,250.00');
    expect(page.text).toContain('+2 days');
    const total = (Math.round(estimate.totals!.price * 100) + 125000) / 100;
    expect(page.text).toContain(`$${total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(page.text).toContain('I agree to sign this change order electronically');
    expect(page.text).toContain('esign-2026-11');
    expect(page.text).toContain('Approve and sign');
    await getPage(path);
    const row = await t.database.db
      .selectFrom('change_orders')
      .select(['view_count', 'first_viewed_at', 'last_viewed_at'])
      .where('id', '=', co.id)
      .executeTakeFirstOrThrow();
    expect(row.view_count).toBe(2);
    expect(row.last_viewed_at! >= row.first_viewed_at!).toBe(true);
    const trail = (await changeOrderOf(co.id)).signature.audit_trail;
    expect(trail.map((a: any) => a.kind)).toEqual(['opened', 'opened']);
    expect(trail[0]).toMatchObject({ user_agent: UA, ip: '127.0.0.1', data: null });
    expect(trail[0].at).toMatch(/Z$/);
  });

  it('opens are counted from the send: a draft has no link, and first_viewed_at is never before sent_at', async () => {
    const { job } = await wonJob(w.api);
    const draft = await changeOrder(w.api, { job_id: job.id, title: 'Curb repair', amount_delta: 400 });
    expect(draft.share_url).toBeNull();
    const sent = await ok(w.api.post(`/v1/change-orders/${draft.id}/send`));
    const path = new URL(sent.url).pathname;
    await getPage(path);
    const row = await t.database.db
      .selectFrom('change_orders')
      .select(['view_count', 'first_viewed_at', 'sent_at'])
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(row.view_count).toBe(1);
    expect(row.first_viewed_at! >= row.sent_at!).toBe(true);
    expect((await changeOrderOf(draft.id)).signature.audit_trail.map((a: any) => a.data)).toEqual([null]);
  });

  it('an unknown token is 404, a void change order 410 withdrawn, one moved back to working shows it is being revised', async () => {
    expect((await getPage('/share/change-orders/not-a-token')).status).toBe(404);
    expect((await getPage(`/share/change-orders/${'a'.repeat(43)}`)).status).toBe(404);
    const { co, path } = await sentChangeOrder();
    await ok(w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'review' }));
    const revising = await getPage(path);
    expect(revising.status).toBe(200);
    expect(revising.text).toContain('is revising this change order');
    expect(revising.text).not.toContain('Approve and sign');
    const refused = await post(`${path}/approve`, {
      document_hash: '0'.repeat(64),
      signature_name: 'X',
      consent: 'yes',
    });
    expect(refused.status).toBe(409);
    await ok(w.api.post(`/v1/change-orders/${co.id}/void`));
    const gone = await getPage(path);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('Blacktop Brothers has withdrawn this change order');
    expect((await post(`${path}/decline`, { comment: 'x' })).status).toBe(410);
  });
});

describe('approving', () => {
  it('refuses a missing name, no consent and a drawing that is not a PNG, keeping what was typed', async () => {
    const { co, path } = await sentChangeOrder();
    const page = (await getPage(path)).text;
    const noName = await post(`${path}/approve`, signing(page, { signature_name: '  ' }));
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('Type your full name to sign.');
    const noConsent = await post(`${path}/approve`, signing(page, { consent: '' }));
    expect(noConsent.status).toBe(400);
    expect(noConsent.text).toContain('Tick the box to agree to sign electronically.');
    expect(noConsent.text).toContain('value="Robin Vega"');
    const gif = await post(
      `${path}/approve`,
      signing(page, { signature: 'data:image/png;base64,R0lGODlhAQABAAAAACw=' }),
    );
    expect(gif.status).toBe(400);
    expect(gif.text).toContain('The drawn signature could not be read');
    expect((await changeOrderOf(co.id)).status).toBe('sent');
  });

  it('a change order edited after the page was rendered is refused with the fresh one to review', async () => {
    const { co, path } = await sentChangeOrder();
    const page = (await getPage(path)).text;
    await ok(w.api.patch(`/v1/change-orders/${co.id}`, { amount_delta: 1400 }));
    const refused = await post(`${path}/approve`, signing(page));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('changed this change order after you opened it');
    expect(refused.text).toContain('+$1,400.00');
    expect(hashIn(refused.text)).not.toBe(hashIn(page));
    expect((await changeOrderOf(co.id)).status).toBe('sent');
    const signed = await post(`${path}/approve`, signing(refused.text));
    expect(signed.status).toBe(303);
  });

  it('approves with the typed name and drawn signature: posted, change_order_approved, the audit trail; then it is closed', async () => {
    const { co, path, estimate } = await sentChangeOrder();
    const page = (await getPage(path)).text;
    const png = await sharp({ create: { width: 300, height: 90, channels: 4, background: '#102a43' } })
      .png()
      .toBuffer();
    const res = await post(
      `${path}/approve`,
      signing(page, { signature_name: ' Robin Vega ', signature: `data:image/png;base64,${png.toString('base64')}` }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path);
    const after = await changeOrderOf(co.id);
    expect(after).toMatchObject({
      status: 'approved',
      stage: 'approved',
      approval_source: 'customer',
      signature_name: 'Robin Vega',
      revised_contract: (Math.round(estimate.totals!.price * 100) + 125000) / 100,
      signature: { consent_version: 'esign-2026-11', drawn_signature: true },
    });
    expect(after.signed_at).toMatch(/Z$/);
    expect(after.approved_at).toBe(after.signed_at);
    expect(after.signature.consent_text).toContain('sign this change order electronically');
    expect(after.signature.document_sha256).toBe(hashIn(page));
    expect(after.signature.audit_trail.map((a: any) => a.kind)).toEqual(['opened', 'consented', 'signed']);
    expect(after.signature.audit_trail[2]).toMatchObject({
      user_agent: UA,
      data: { signature_name: 'Robin Vega', document_sha256: hashIn(page), drawn_signature: true },
    });
    const events = (await feedOf(w, 'change_order_approved')).filter((e) => e.entity.id === co.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ change_order_id: co.id, amount_delta: 1250, days_delta: 2, kind: 'quick' });

    const shown = await getPage(path);
    expect(shown.text).toContain('Signed by Robin Vega');
    // The signing time in the workspace's zone, named (never UTC).
    expect(shown.text).toMatch(
      /Signed by Robin Vega on \w{3}, \w{3} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(America\/Chicago\)/,
    );
    expect(shown.text).not.toContain(' UTC');
    expect(shown.text).not.toContain('Approve and sign');
    const again = await post(`${path}/approve`, signing(page));
    expect(again.status).toBe(409);
    expect(again.text).toContain('already answered');
    expect((await post(`${path}/decline`, { comment: 'changed my mind' })).status).toBe(409);
    // The office: a signed change order cannot be declined (decided) or voided.
    expect((await w.api.post(`/v1/change-orders/${co.id}/decline`)).status).toBe(400);
    const voided = await w.api.post(`/v1/change-orders/${co.id}/void`);
    expect(voided.status).toBe(409);
    expect(voided.body).toMatchObject({ error: 'A signed change order cannot be voided', code: 'signed_change_order' });
    expect((await feedOf(w, 'change_order_approved')).filter((e) => e.entity.id === co.id)).toHaveLength(1);
  });
});

describe('declining', () => {
  it('records the comment and the audit row; a comment over 2,000 characters is refused', async () => {
    const { co, path } = await sentChangeOrder();
    const long = await post(`${path}/decline`, { comment: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('at most 2,000 characters');
    const res = await post(`${path}/decline`, { comment: ' Too expensive for this year ' });
    expect(res.status).toBe(303);
    const after = await changeOrderOf(co.id);
    expect(after).toMatchObject({
      status: 'declined',
      stage: 'declined',
      decision_comment: 'Too expensive for this year',
      approval_source: null,
      revised_contract: null,
    });
    expect(after.signature.audit_trail.at(-1)).toMatchObject({
      kind: 'declined',
      data: { comment: 'Too expensive for this year' },
    });
    const shown = await getPage(path);
    expect(shown.text).toMatch(/Declined<\/strong> on \w{3}, \w{3} \d{1,2}, \d{4} at [^(]+\(America\/Chicago\)/);
    expect(shown.text).toContain('Too expensive for this year');
    expect((await feedOf(w, 'change_order_approved')).some((e) => e.entity.id === co.id)).toBe(false);
  });

  it('a change order without a customer email is answered through the link the office shared', async () => {
    const j = await jobWithContact(w.api, { contact_email: null });
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Shared by hand', customer_email: null });
    const sent = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
    expect(sent.emailed).toBe(false);
    const path = new URL(sent.url).pathname;
    expect((await post(`${path}/decline`, {})).status).toBe(303);
    expect((await changeOrderOf(co.id)).status).toBe('declined');
  });
});
