// An invoice's client_email (issue 24): checked like every other email field (platform/email-phone.ts)
// on create, PATCH and request-payment, so "not an email" is a 400 naming the field and never
// stored; and an address the mail library refuses outright (an invoice stored before the check)
// is a 502 that is not retryable: sending it again can never succeed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
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

const INVALID = {
  error: 'client_email does not look like an email address',
  code: 'invalid_email',
  field: 'client_email',
};

let serial = 0;
async function invoiceBody(body: Record<string, unknown> = {}) {
  const j = await job(w, { name: `Maple HOA lot ${++serial}` });
  return { job_id: j.id, line_items: [{ description: 'Sealcoat lot', amount: 1200 }], ...body };
}

describe('client_email', () => {
  it('POST /v1/invoices: "not an email" is 400 naming the field; nothing is stored', async () => {
    const before = (await ok(w.api.get('/v1/invoices'))).pagination.total;
    const r = await w.api.post('/v1/invoices', await invoiceBody({ client_email: 'not an email' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
    expect((await ok(w.api.get('/v1/invoices'))).pagination.total).toBe(before);
    // A good address is kept trimmed; blank falls back to the job's.
    const made = (await ok(w.api.post('/v1/invoices', await invoiceBody({ client_email: '  ap@maple.test ' })))).data;
    expect(made.client_email).toBe('ap@maple.test');
  });

  it('PATCH /v1/invoices/{id}: "not an email" is 400 and the invoice keeps its address', async () => {
    const inv = (await ok(w.api.post('/v1/invoices', await invoiceBody({ client_email: 'ap@maple.test' })))).data;
    const r = await w.api.patch(`/v1/invoices/${inv.id}`, { client_email: 'ap at maple' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
    expect((await ok(w.api.get(`/v1/invoices/${inv.id}`))).data).toMatchObject({
      client_email: 'ap@maple.test',
      updated_at: inv.updated_at,
    });
    const cleared = (await ok(w.api.patch(`/v1/invoices/${inv.id}`, { client_email: '' }))).data;
    expect(cleared.client_email).toBeNull();
  });

  it('POST /v1/estimates/{id}/request-payment: "not an email" is 400 before anything else', async () => {
    const j = await job(w, { name: 'Online lot' });
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    const r = await w.api.post(`/v1/estimates/${estimate.id}/request-payment`, { client_email: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(INVALID);
  });

  it('an address the mail library refuses (stored before the check) is a 502 that is not retryable', async () => {
    const inv = (await ok(w.api.post('/v1/invoices', await invoiceBody({ client_email: 'ap@maple.test' })))).data;
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
