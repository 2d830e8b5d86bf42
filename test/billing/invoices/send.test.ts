// POST /v1/invoices/{id}/send against a real SMTP server on loopback (document 3: EMAILS CUSTOMER at
// client_email with a view link; Invoice (check) state table: draft -> sent on the first send): the
// email and its link, the page that link opens (and its PDF), re-sending, 422 without an address,
// 409 for a void invoice, and 502 with the invoice unchanged when the server refuses the message;
// client_email checked as an email on every write (issue 24).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { readPdf } from '#test/helpers/pdf-text.ts';
import { job, ok, Z_SECONDS } from '#test/helpers/records.ts';
import { startSmtpPeer, type SmtpPeer } from '#test/helpers/smtp.ts';

let peer: SmtpPeer;
let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport('billing@groundwork.test', 5_000) });
  w = await t.workspace({
    name: 'Acme Paving',
    settings: { remit_to: { name: 'Acme Paving LLC', address: '1 Yard Rd, Springfield' } },
  });
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

let serial = 0;
async function draft(body: Record<string, unknown> = {}) {
  const j = await job(w, { name: `Maple HOA lot ${++serial}`, address: '9 Maple Ave' });
  const r = await w.api.post('/v1/invoices', {
    job_id: j.id,
    line_items: [
      { description: 'Sealcoat lot', amount: 1200.1 },
      { description: 'Crack fill', amount: 300 },
    ],
    tax: 45.5,
    client_name: 'Maple HOA',
    client_email: 'ap@maple.test',
    payment_instructions: 'Checks payable to Acme Paving LLC',
    ...body,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data as Record<string, any>;
}

const linkIn = (text: string) => /http:\/\/localhost(?::\d+)?(\/share\/invoices\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];

describe('POST /v1/invoices/{id}/send', () => {
  it('emails the invoice with a link to its page; a draft becomes sent and issued; re-sending mails the same link', async () => {
    const inv = await draft();
    const before = peer.received.length;
    const r = await w.api.post(`/v1/invoices/${inv.id}/send`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.emailed).toBe(true);
    expect(r.body.data).toMatchObject({ id: inv.id, status: 'sent', amount: 1545.6 });
    expect(r.body.data.issued_at).toMatch(Z_SECONDS);
    const [mail] = (await peer.waitFor(before + 1)).slice(before);
    expect(mail.envelopeTo).toEqual(['ap@maple.test']);
    expect(mail.parsed.subject).toBe(`Acme Paving: invoice #${inv.invoice_number} for $1,545.60`);
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Acme Paving', address: 'billing@groundwork.test' });
    const path = linkIn(mail.parsed.text ?? '');
    expect(path).toBeDefined();
    expect(mail.parsed.html).toContain(path);

    // The page the link opens: the invoice as the customer sees it, no key needed.
    const page = await t.app.inject({ method: 'GET', url: path! });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-robots-tag']).toContain('noindex');
    for (const text of [
      'Invoice #',
      'Maple HOA',
      'Sealcoat lot',
      '$1,200.10',
      '$45.50',
      '$1,545.60',
      'Net 30',
      '1 Yard Rd, Springfield',
      'Checks payable',
    ])
      expect(page.body).toContain(text);
    expect(page.body).not.toContain('by card');
    const pdf = await t.app.inject({ method: 'GET', url: `${path}/pdf` });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await readPdf(pdf.rawPayload)).text;
    for (const s of ['Invoice #', 'Sealcoat lot', '$1,545.60', 'Remit to', 'Acme Paving LLC'])
      expect(text).toContain(s);

    // Re-sending: the same link again, nothing else moves.
    const again = await w.api.post(`/v1/invoices/${inv.id}/send`);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'sent', issued_at: r.body.data.issued_at });
    const second = (await peer.waitFor(before + 2))[before + 1];
    expect(linkIn(second.parsed.text ?? '')).toBe(path);
    // Paid invoices may be sent again too (a copy for the customer's records).
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-paid`));
    expect((await w.api.post(`/v1/invoices/${inv.id}/send`)).body.data.status).toBe('paid');
  });

  it('422 without client_email; 409 for a void invoice; 404 for another workspace’s', async () => {
    const inv = await draft({ client_email: null });
    const none = await w.api.post(`/v1/invoices/${inv.id}/send`);
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error: 'invoice has no client_email', code: 'no_customer_email' });
    await ok(w.api.post(`/v1/invoices/${inv.id}/void`));
    const voided = await w.api.post(`/v1/invoices/${inv.id}/send`);
    expect(voided.status).toBe(409);
    expect(voided.body.code).toBe('invalid_transition');
    const other = await t.workspace({ name: 'Other' });
    expect((await other.api.post(`/v1/invoices/${inv.id}/send`)).status).toBe(404);
    expect((await w.api.raw.post(`/v1/invoices/${inv.id}/send`, { to: 'x@y.z' })).status).toBe(400);
  });

  it('502 and nothing recorded when the mail server refuses the message', async () => {
    const inv = await draft({ client_email: 'bounce@maple.test' });
    peer.refuse.add('bounce@maple.test');
    try {
      const r = await w.api.post(`/v1/invoices/${inv.id}/send`);
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({
        error: 'Invoice email not delivered',
        code: 'mail_not_delivered',
        retryable: false,
      });
      const after = (await ok(w.api.get(`/v1/invoices/${inv.id}`))).data;
      expect(after).toMatchObject({ status: 'draft', issued_at: null, updated_at: inv.updated_at });
    } finally {
      peer.refuse.delete('bounce@maple.test');
    }
  });

  it('the page of a voided invoice says so (410); one moved back to draft shows nothing until it is issued again', async () => {
    const inv = await draft();
    const before = peer.received.length;
    await ok(w.api.post(`/v1/invoices/${inv.id}/send`));
    const path = linkIn((await peer.waitFor(before + 1))[before].parsed.text ?? '')!;
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-draft`));
    const revising = await t.app.inject({ method: 'GET', url: path });
    expect(revising.statusCode).toBe(410);
    expect(revising.body).toContain('revising');
    await ok(w.api.post(`/v1/invoices/${inv.id}/void`));
    const gone = await t.app.inject({ method: 'GET', url: path });
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('voided');
    expect((await t.app.inject({ method: 'GET', url: `${path.slice(0, -3)}abc` })).statusCode).toBe(404);
  });
});

describe('GET /v1/invoices/{id}/pdf', () => {
  it('is the PDF of the invoice, named by its number', async () => {
    const inv = await draft();
    const r = await t.app.inject({ method: 'GET', url: `/v1/invoices/${inv.id}/pdf`, headers: { 'x-api-key': w.key } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="invoice-${inv.invoice_number}.pdf"`);
    const text = (await readPdf(r.rawPayload)).text;
    expect(text).toContain(`Invoice #${inv.invoice_number}`);
    expect(text).toContain('Page 1 of 1');
  });
});

// An invoice's client_email (issue 24): checked like every other email field (platform/email-phone.ts)
// on create, PATCH and request-payment, so "not an email" is a 400 naming the field and never stored;
// and an address the mail library refuses outright (an invoice stored before the check) is a 502
// that is not retryable: sending it again can never succeed.
describe('client_email', () => {
  const INVALID = {
    error: 'client_email does not look like an email address',
    code: 'invalid_email',
    field: 'client_email',
  };

  it('POST /v1/invoices: "not an email" is 400 naming the field; nothing is stored', async () => {
    const before = (await ok(w.api.get('/v1/invoices'))).pagination.total;
    const j = await job(w, { name: `Maple HOA lot ${++serial}` });
    const body = { job_id: j.id, line_items: [{ description: 'Sealcoat lot', amount: 1200 }] };
    const r = await w.api.post('/v1/invoices', { ...body, client_email: 'not an email' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
    expect((await ok(w.api.get('/v1/invoices'))).pagination.total).toBe(before);
    const made = (await ok(w.api.post('/v1/invoices', { ...body, client_email: '  ap@maple.test ' }))).data;
    expect(made.client_email).toBe('ap@maple.test');
  });

  it('PATCH /v1/invoices/{id}: "not an email" is 400 and the invoice keeps its address; blank clears it', async () => {
    const inv = await draft();
    const r = await w.api.patch(`/v1/invoices/${inv.id}`, { client_email: 'ap at maple' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
    expect((await ok(w.api.get(`/v1/invoices/${inv.id}`))).data).toMatchObject({
      client_email: 'ap@maple.test',
      updated_at: inv.updated_at,
    });
    expect((await ok(w.api.patch(`/v1/invoices/${inv.id}`, { client_email: '' }))).data.client_email).toBeNull();
  });

  it('POST /v1/estimates/{id}/request-payment: "not an email" is 400 before anything else', async () => {
    const j = await job(w, { name: `Online lot ${++serial}` });
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    const r = await w.api.post(`/v1/estimates/${estimate.id}/request-payment`, { client_email: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
  });

  it('an address the mail library refuses (stored before the check) is a 502 that is not retryable', async () => {
    const inv = await draft();
    // Invoices written before client_email was checked may hold anything.
    await t.database.db
      .updateTable('invoices')
      .set({ client_email: 'not an email' })
      .where('id', '=', inv.id)
      .execute();
    const r = await w.api.post(`/v1/invoices/${inv.id}/send`);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'mail_not_delivered', retryable: false });
    expect((await ok(w.api.get(`/v1/invoices/${inv.id}`))).data).toMatchObject({ status: 'draft', issued_at: null });
  });
});
