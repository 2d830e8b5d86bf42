// Check invoices over HTTP (document 3: Invoice, Invoice (check) state table, Invoices and
// payments; document 1: invoice_created and payment_received; docs/api-decisions.md, "Invoices").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, job, ok, Z_SECONDS } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ settings: { remit_to: { name: 'Acme Paving LLC', address: '1 Yard Rd, Springfield' } } });
});
afterAll(() => t.close());

const LINES = [{ description: 'Sealcoat lot', amount: 1200.1 }];

async function invoice(ws: Workspace, body: Record<string, unknown>) {
  const res = await ws.api.raw.post('/v1/invoices', { line_items: LINES, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const todayUtc = () => new Date().toISOString().slice(0, 10);

async function feedOf(ws: Workspace, type: string) {
  const events = (await ok(ws.api.get('/v1/events?limit=200'))).data as any[];
  return events.filter((e) => e.event_type === type);
}

describe('POST /v1/invoices', () => {
  it('makes a draft check invoice with the defaults, exact money and invoice_created in the feed', async () => {
    const customer = await account(w, 'Maple HOA', { email: 'ap@maple.test', address: '9 Maple Ave' });
    const j = await job(w, { client_account_id: customer.id, address: '12 Main St', bill_to_name: 'Maple HOA Board' });
    const inv = await invoice(w, {
      job_id: j.id,
      line_items: [
        { description: 'Sealcoat', amount: 0.1 },
        { description: 'Crack fill', amount: 0.2 },
        { description: 'Striping', amount: 1234.56 },
      ],
      discount: 0.05,
      tax: 10.01,
    });
    expect(inv).toMatchObject({
      job_id: j.id,
      doc_number: null,
      estimate_id: null,
      status: 'draft',
      payment_method: 'check',
      billing_type: 'line_items',
      currency: 'USD',
      description: '3 line items',
      subtotal: 1234.86,
      subtotal_cents: 123486,
      discount: 0.05,
      discount_cents: 5,
      tax: 10.01,
      tax_cents: 1001,
      amount: 1244.82,
      amount_cents: 124482,
      due_days: 30,
      payment_terms: 'Net 30',
      issued_at: null,
      paid_at: null,
      client_name: 'Maple HOA Board',
      client_email: 'ap@maple.test',
      client_address: '9 Maple Ave',
      project_name: j.name,
      project_address: '12 Main St',
      remit_to_name: 'Acme Paving LLC',
      remit_to_address: '1 Yard Rd, Springfield',
      sender_name: expect.any(String),
      sender_email: expect.stringContaining('@'),
      created_by: { id: w.ownerId, name: expect.any(String) },
      quickbooks: { has_invoice: false, has_payment: false, invoice_synced_at: null, sync_error: null },
    });
    expect(inv.line_items).toEqual([
      { description: 'Sealcoat', amount: 0.1, amount_cents: 10 },
      { description: 'Crack fill', amount: 0.2, amount_cents: 20 },
      { description: 'Striping', amount: 1234.56, amount_cents: 123456 },
    ]);
    expect(inv.created_at).toMatch(Z_SECONDS);
    // The workspace is in UTC unless set otherwise: due 30 days from today.
    expect(inv.due_date).toBe(addDays(todayUtc(), 30));
    const [event] = (await feedOf(w, 'invoice_created')).filter((e) => e.data.invoice_id === inv.id);
    expect(event).toMatchObject({
      data: { invoice_id: inv.id, doc_number: null, amount_cents: 124482, status: 'draft' },
    });
    expect(await ok(w.api.get(`/v1/invoices/${inv.id}`))).toEqual({ data: inv });
  });

  it('takes client, project and remit-to fields as sent; due on receipt; one line is the description', async () => {
    const j = await job(w);
    const inv = await invoice(w, {
      job_id: j.id,
      client_name: 'Pat Jones',
      client_email: 'pat@example.com',
      client_address: '5 Elm St',
      billing_type: 'deposit',
      due_days: 0,
      memo: 'Thanks!',
      reference_number: 'PO-77',
      project_name: 'Front lot',
      project_address: '7 Oak St',
      remit_to_name: 'Acme Remit',
      remit_to_address: 'PO Box 9',
      payment_instructions: 'Checks to Acme',
    });
    expect(inv).toMatchObject({
      description: 'Sealcoat lot',
      billing_type: 'deposit',
      due_days: 0,
      payment_terms: 'Due on receipt',
      due_date: todayUtc(),
      client_name: 'Pat Jones',
      client_email: 'pat@example.com',
      client_address: '5 Elm St',
      memo: 'Thanks!',
      reference_number: 'PO-77',
      project_name: 'Front lot',
      project_address: '7 Oak St',
      remit_to_name: 'Acme Remit',
      remit_to_address: 'PO Box 9',
      payment_instructions: 'Checks to Acme',
      amount: 1200.1,
      amount_cents: 120010,
    });
    // The last used remit-to is the default now, ahead of the workspace setting.
    const next = await invoice(w, { job_id: j.id });
    expect(next).toMatchObject({ remit_to_name: 'Acme Remit', remit_to_address: 'PO Box 9' });
  });

  it('falls back to the company, then the contact, for the client', async () => {
    const j = await job(w, { company: 'Birch Co', contact_name: 'Sam Birch', contact_email: 'sam@birch.test' });
    const inv = await invoice(w, { job_id: j.id });
    expect(inv).toMatchObject({ client_name: 'Birch Co', client_email: 'sam@birch.test' });
    const j2 = await job(w, { contact_name: 'Sam Birch' });
    expect((await invoice(w, { job_id: j2.id })).client_name).toBe('Sam Birch');
  });

  it("bills from an estimate of the same job with the estimate's number", async () => {
    const j = await job(w);
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: j.id }))).data;
    const inv = await invoice(w, { job_id: j.id, estimate_id: estimate.id, billing_type: 'full' });
    expect(inv).toMatchObject({ estimate_id: estimate.id, doc_number: estimate.doc_number });
    expect(typeof inv.doc_number).toBe('number');
    const other = await job(w);
    const res = await w.api.post('/v1/invoices', { job_id: other.id, estimate_id: estimate.id, line_items: LINES });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'estimate_other_job', field: 'estimate_id' });
  });

  it('answers 400 for missing or invalid line items, a discount above the subtotal and a total of zero', async () => {
    const j = await job(w);
    const post = (body: Record<string, unknown>) => w.api.raw.post('/v1/invoices', { job_id: j.id, ...body });
    for (const body of [
      {},
      { line_items: [] },
      { line_items: [{ description: 'x', amount: 0 }] },
      { line_items: [{ description: 'x', amount: -5 }] },
      { line_items: [{ description: 'x' }] },
      { line_items: [{ description: '', amount: 5 }] },
      { line_items: [{ description: 'x', amount: 5, qty: 1 }] },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const blank = await post({ line_items: [{ description: '   ', amount: 5 }] });
    expect(blank.body).toMatchObject({ code: 'invalid_line_items' });
    const tiny = await post({ line_items: [{ description: 'x', amount: 0.001 }] });
    expect(tiny.status).toBe(400);
    expect(tiny.body).toMatchObject({ code: 'invalid_line_items' });
    const over = await post({ line_items: LINES, discount: 1200.11 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'discount_exceeds_subtotal', field: 'discount' });
    const zero = await post({ line_items: LINES, discount: 1200.1 });
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ code: 'zero_total' });
    const unknown = await post({ line_items: LINES, paid: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_fields');
    expect((await post({ line_items: LINES, due_days: -1 })).status).toBe(400);
    expect((await post({ line_items: LINES, billing_type: 'recurring' })).status).toBe(400);
  });

  it('needs a remit-to address when the workspace has none on file, then defaults to it', async () => {
    const fresh = await t.workspace();
    const j = await job(fresh);
    const res = await fresh.api.post('/v1/invoices', { job_id: j.id, line_items: LINES });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Missing remit-to address', code: 'remit_to_required' });
    expect((await fresh.api.get('/v1/invoices')).body.pagination.total).toBe(0);
    expect(await feedOf(fresh, 'invoice_created')).toEqual([]);
    const first = await invoice(fresh, { job_id: j.id, remit_to_address: '3 Depot Ln' });
    expect(first.remit_to_address).toBe('3 Depot Ln');
    expect(first.remit_to_name).toBe(res.status === 400 ? first.remit_to_name : null);
    expect((await invoice(fresh, { job_id: j.id })).remit_to_address).toBe('3 Depot Ln');
  });

  it('answers 404 for an unknown job or estimate', async () => {
    const missing = await w.api.post('/v1/invoices', { job_id: 999999, line_items: LINES });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Job not found');
    const j = await job(w);
    const noEstimate = await w.api.post('/v1/invoices', { job_id: j.id, estimate_id: 999999, line_items: LINES });
    expect(noEstimate.status).toBe(404);
    expect(noEstimate.body.error).toBe('Estimate not found');
  });
});

describe('PATCH /v1/invoices/{id}', () => {
  it('replaces the line items, works the figures out again and keeps the due date on the issue date', async () => {
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id, tax: 5 });
    const patched = (
      await ok(
        w.api.patch(`/v1/invoices/${inv.id}`, {
          line_items: [
            { description: 'A', amount: 100 },
            { description: 'B', amount: 50.5 },
          ],
          discount: 10,
          due_days: 15,
          memo: 'Net fifteen',
          client_name: null,
        }),
      )
    ).data;
    expect(patched).toMatchObject({
      subtotal_cents: 15050,
      discount_cents: 1000,
      tax_cents: 500,
      amount: 145.5,
      amount_cents: 14550,
      description: '2 line items',
      due_days: 15,
      payment_terms: 'Net 15',
      due_date: addDays(inv.created_at.slice(0, 10), 15),
      memo: 'Net fifteen',
      client_name: null,
    });
    expect(patched.line_items).toHaveLength(2);
    // Issued later: the due date counts from the issue date, and an edit keeps it there.
    pauseClock();
    try {
      advanceClock(3 * 86_400_000);
      const sent = (await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`))).data;
      const issuedOn = sent.issued_at!.slice(0, 10);
      expect(issuedOn).toBe(addDays(inv.created_at.slice(0, 10), 3));
      expect(sent.due_date).toBe(addDays(issuedOn, 15));
      const edited = (await ok(w.api.patch(`/v1/invoices/${inv.id}`, { due_days: 0 }))).data;
      expect(edited).toMatchObject({ due_date: issuedOn, payment_terms: 'Due on receipt', status: 'sent' });
    } finally {
      resumeClock();
    }
  });

  it('refuses a discount above the new subtotal, job_id and estimate_id, and edits of paid or void invoices', async () => {
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id, discount: 100 });
    const over = await w.api.patch(`/v1/invoices/${inv.id}`, { line_items: [{ description: 'x', amount: 50 }] });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('discount_exceeds_subtotal');
    expect((await w.api.raw.patch(`/v1/invoices/${inv.id}`, { job_id: j.id })).status).toBe(400);
    expect((await w.api.raw.patch(`/v1/invoices/${inv.id}`, { estimate_id: null })).status).toBe(400);
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`));
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-paid`));
    const paid = await w.api.patch(`/v1/invoices/${inv.id}`, { memo: 'x' });
    expect(paid.status).toBe(409);
    expect(paid.body).toMatchObject({ code: 'invoice_closed', status: 'paid' });
    await ok(w.api.post(`/v1/invoices/${inv.id}/void`));
    expect((await w.api.patch(`/v1/invoices/${inv.id}`, { memo: 'x' })).body).toMatchObject({
      code: 'invoice_closed',
      status: 'void',
    });
    expect((await w.api.patch('/v1/invoices/999999', { memo: 'x' })).status).toBe(404);
  });
});

describe('status moves', () => {
  it('draft -> sent -> paid -> sent -> paid -> draft, with payment_received and the payments list', async () => {
    const j = await job(w, { name: 'Paid job' });
    const inv = await invoice(w, { job_id: j.id, client_name: 'Payer' });
    const sent = (await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`))).data;
    expect(sent).toMatchObject({ status: 'sent', paid_at: null });
    expect(sent.issued_at).toMatch(Z_SECONDS);
    const paid = (await ok(w.api.post(`/v1/invoices/${inv.id}/mark-paid`, {}))).data;
    expect(paid.status).toBe('paid');
    expect(paid.paid_at).toMatch(Z_SECONDS);
    const received = (await feedOf(w, 'payment_received')).filter((e) => e.data.invoice_id === inv.id);
    expect(received).toHaveLength(1);
    expect(received[0].data).toEqual({
      invoice_id: inv.id,
      doc_number: null,
      amount_cents: 120010,
      status: 'paid',
      paid_at: paid.paid_at,
    });
    const payments = (await ok(w.api.get(`/v1/payments?job_id=${j.id}`))).data;
    expect(payments).toEqual([
      {
        invoice_id: inv.id,
        job_id: j.id,
        doc_number: null,
        amount: 1200.1,
        amount_cents: 120010,
        currency: 'USD',
        paid_at: paid.paid_at,
        payment_method: 'check',
        client_name: 'Payer',
        accounting: { has_payment: false, payment_synced_at: null },
      },
    ]);
    // mark-sent moves a paid invoice back to unpaid, keeping its issue date.
    const unpaid = (await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`))).data;
    expect(unpaid).toMatchObject({ status: 'sent', paid_at: null, issued_at: sent.issued_at });
    expect((await ok(w.api.get(`/v1/payments?job_id=${j.id}`))).data).toEqual([]);
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-paid`));
    const draft = (await ok(w.api.post(`/v1/invoices/${inv.id}/mark-draft`))).data;
    expect(draft).toMatchObject({ status: 'draft', paid_at: null, issued_at: null });
    expect((await ok(w.api.get(`/v1/payments?job_id=${j.id}`))).data).toEqual([]);
  });

  it('answers 409 invalid_transition for moves the state table does not allow', async () => {
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id });
    const expect409 = async (move: string, status: string) => {
      const res = await w.api.post(`/v1/invoices/${inv.id}/${move}`);
      expect(res.status, `${move} on ${status}`).toBe(409);
      expect(res.body).toMatchObject({ code: 'invalid_transition', status, allowed_from: expect.any(Array) });
    };
    await expect409('mark-paid', 'draft');
    await expect409('mark-draft', 'draft');
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`));
    await expect409('mark-sent', 'sent');
    await ok(w.api.post(`/v1/invoices/${inv.id}/void`));
    await expect409('void', 'void');
    await expect409('mark-sent', 'void');
    await expect409('mark-paid', 'void');
    expect((await ok(w.api.post(`/v1/invoices/${inv.id}/mark-draft`))).data.status).toBe('draft');
    // Any status voids: a draft and a paid invoice.
    expect((await ok(w.api.post(`/v1/invoices/${inv.id}/void`))).data.status).toBe('void');
    const paid = await invoice(w, { job_id: j.id });
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-sent`));
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-paid`));
    expect((await ok(w.api.post(`/v1/invoices/${paid.id}/void`))).data.status).toBe('void');
    expect((await ok(w.api.get(`/v1/payments?job_id=${j.id}`))).data).toEqual([]);
    expect((await w.api.post('/v1/invoices/999999/void')).status).toBe(404);
    expect((await w.api.raw.post(`/v1/invoices/${inv.id}/void`, { reason: 'x' })).status).toBe(400);
  });

  it('refuses every change to an online invoice (409 online_invoice)', async () => {
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id });
    await t.database.db
      .updateTable('invoices')
      .set({ payment_method: 'online', status: 'open' })
      .where('id', '=', inv.id)
      .execute();
    for (const move of ['mark-sent', 'mark-paid', 'void', 'mark-draft']) {
      const res = await w.api.post(`/v1/invoices/${inv.id}/${move}`);
      expect(res.status, move).toBe(409);
      expect(res.body.code).toBe('online_invoice');
    }
    const patch = await w.api.patch(`/v1/invoices/${inv.id}`, { memo: 'x' });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('online_invoice');
    expect((await ok(w.api.get(`/v1/invoices/${inv.id}`))).data).toMatchObject({
      status: 'open',
      payment_method: 'online',
      memo: null,
    });
  });

  it('has no DELETE', async () => {
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id });
    expect((await w.api.delete(`/v1/invoices/${inv.id}`)).status).toBe(404);
    expect((await w.api.get(`/v1/invoices/${inv.id}`)).status).toBe(200);
  });
});

describe('GET /v1/invoices', () => {
  it('filters by job, status and payment method, newest first, and pages by updated_after oldest first', async () => {
    const ws = await t.workspace({ settings: { remit_to: { name: 'R', address: 'A' } } });
    const j1 = await job(ws);
    const j2 = await job(ws);
    pauseClock();
    let a: Record<string, any>;
    let b: Record<string, any>;
    let c: Record<string, any>;
    try {
      a = await invoice(ws, { job_id: j1.id });
      b = await invoice(ws, { job_id: j1.id });
      c = await invoice(ws, { job_id: j2.id });
      await ok(ws.api.post(`/v1/invoices/${a.id}/mark-sent`));
      // updated_after holds back the running second: let it end.
      advanceClock(1000);
    } finally {
      resumeClock();
    }
    const ids = (path: string) => ok(ws.api.get(path)).then((r) => r.data.map((i: any) => i.id));
    expect(await ids('/v1/invoices')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`/v1/invoices?job_id=${j1.id}`)).toEqual([b.id, a.id]);
    expect(await ids('/v1/invoices?status=sent')).toEqual([a.id]);
    expect(await ids('/v1/invoices?payment_method=check')).toHaveLength(3);
    expect(await ids('/v1/invoices?payment_method=online')).toEqual([]);
    expect(await ids('/v1/invoices?updated_after=2000-01-01T00:00:00Z')).toEqual([b.id, c.id, a.id]);
    const paged = await ok(ws.api.get('/v1/invoices?limit=1&offset=1'));
    expect(paged.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
    expect(paged.data[0].line_items).toHaveLength(1);
    const bad = await ws.api.get('/v1/invoices?status=unpaid');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_status' });
    expect((await ws.api.get('/v1/invoices?payment_method=cash')).status).toBe(400);
    const badAfter = await ws.api.get('/v1/invoices?updated_after=yesterday');
    expect(badAfter.status).toBe(400);
    expect(badAfter.body.code).toBe('invalid_updated_after');
    expect((await ws.api.get('/v1/invoices?limit=201')).status).toBe(400);
    expect((await ok(ws.api.get('/v1/invoices?limit=200'))).pagination.limit).toBe(200);
  });

  it('answers 404 for an unknown invoice', async () => {
    const res = await w.api.get('/v1/invoices/999999');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Invoice not found');
  });
});

describe('GET /v1/jobs/{id}/invoices and GET /v1/payments', () => {
  it("lists a job's invoices without line items and adds them up", async () => {
    const j = await job(w);
    const draft = await invoice(w, { job_id: j.id, line_items: [{ description: 'd', amount: 1 }] });
    const sent = await invoice(w, { job_id: j.id, line_items: [{ description: 's', amount: 200.25 }] });
    const paid = await invoice(w, { job_id: j.id, line_items: [{ description: 'p', amount: 100.1 }] });
    const voided = await invoice(w, { job_id: j.id, line_items: [{ description: 'v', amount: 7 }] });
    await ok(w.api.post(`/v1/invoices/${sent.id}/mark-sent`));
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-sent`));
    await ok(w.api.post(`/v1/invoices/${paid.id}/mark-paid`));
    await ok(w.api.post(`/v1/invoices/${voided.id}/void`));
    const body = await ok(w.api.get(`/v1/jobs/${j.id}/invoices`));
    expect(body.data.map((i: any) => [i.id, i.status])).toEqual([
      [draft.id, 'draft'],
      [sent.id, 'sent'],
      [paid.id, 'paid'],
      [voided.id, 'void'],
    ]);
    expect(body.data[0]).not.toHaveProperty('line_items');
    expect(body.data[1]).toMatchObject({ description: 's', amount: 200.25, quickbooks: { has_invoice: false } });
    expect(body.totals).toEqual({
      invoiced: 300.35,
      invoiced_cents: 30035,
      paid: 100.1,
      paid_cents: 10010,
      outstanding: 200.25,
      outstanding_cents: 20025,
    });
    expect((await w.api.get('/v1/jobs/999999/invoices')).status).toBe(404);
  });

  it('lists payments most recently paid first, filtered by job and paid_after', async () => {
    const ws = await t.workspace({ settings: { remit_to: { name: 'R', address: 'A' } } });
    const j1 = await job(ws);
    const j2 = await job(ws);
    const pay = async (jobId: number) => {
      const inv = await invoice(ws, { job_id: jobId });
      await ok(ws.api.post(`/v1/invoices/${inv.id}/mark-sent`));
      return (await ok(ws.api.post(`/v1/invoices/${inv.id}/mark-paid`))).data;
    };
    pauseClock();
    try {
      const first = await pay(j1.id);
      advanceClock(2000);
      const second = await pay(j2.id);
      advanceClock(2000);
      const third = await pay(j1.id);
      await invoice(ws, { job_id: j1.id }); // a draft is no payment
      const ids = (path: string) => ok(ws.api.get(path)).then((r) => r.data.map((p: any) => p.invoice_id));
      expect(await ids('/v1/payments')).toEqual([third.id, second.id, first.id]);
      expect(await ids(`/v1/payments?job_id=${j1.id}`)).toEqual([third.id, first.id]);
      expect(await ids(`/v1/payments?paid_after=${first.paid_at}`)).toEqual([third.id, second.id]);
      expect((await ok(ws.api.get('/v1/payments?limit=1'))).pagination).toEqual({ total: 3, limit: 1, offset: 0 });
      const bad = await ws.api.get('/v1/payments?paid_after=soon');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'paid_after' });
    } finally {
      resumeClock();
    }
  });
});

describe('merges and visibility', () => {
  it('a job merge moves the invoices to the kept job', async () => {
    const kept = await job(w);
    const away = await job(w);
    const inv = await invoice(w, { job_id: away.id });
    await ok(w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id }));
    expect((await ok(w.api.get(`/v1/invoices/${inv.id}`))).data.job_id).toBe(kept.id);
  });

  it("another workspace's invoices are 404 and not listed", async () => {
    const other = await t.workspace();
    const j = await job(w);
    const inv = await invoice(w, { job_id: j.id });
    expect((await other.api.get(`/v1/invoices/${inv.id}`)).status).toBe(404);
    expect((await other.api.post(`/v1/invoices/${inv.id}/mark-sent`)).status).toBe(404);
    expect((await other.api.get('/v1/invoices')).body.data).toEqual([]);
    expect((await other.api.post('/v1/invoices', { job_id: j.id, line_items: LINES })).status).toBe(404);
  });

  it('a read-only key cannot create or move invoices', async () => {
    const reader = await t.user(w.firmId, { name: 'Reader', email: `reader${Date.now()}@example.com` }, ['read_jobs']);
    const j = await job(w);
    expect((await reader.api.post('/v1/invoices', { job_id: j.id, line_items: LINES })).status).toBe(403);
    expect((await reader.api.get('/v1/invoices')).status).toBe(200);
  });
});

describe('edits racing a payment', () => {
  it('an edit worked out before a payment never changes the paid invoice: the payment records the amount that stays', async () => {
    const j = await job(w, { name: `Race job ${Date.now()}` });
    const inv = await invoice(w, { job_id: j.id });
    await ok(w.api.post(`/v1/invoices/${inv.id}/mark-sent`));
    const edits = Array.from({ length: 8 }, (_, i) =>
      w.api.patch(`/v1/invoices/${inv.id}`, { line_items: [{ description: 'Sealcoat lot', amount: 1300 + i }] }),
    );
    const [paid, ...edited] = await Promise.all([w.api.post(`/v1/invoices/${inv.id}/mark-paid`), ...edits]);
    expect(paid.status).toBe(200);
    // Each edit either landed before the payment, or was refused: never a 500.
    for (const e of edited) expect([200, 409]).toContain(e.status);
    const after = (await ok(w.api.get(`/v1/invoices/${inv.id}`))).data;
    expect(after.status).toBe('paid');
    const [payment] = (await feedOf(w, 'payment_received')).filter((e) => e.data.invoice_id === inv.id);
    expect(payment.data.amount_cents).toBe(after.amount_cents);
  });
});
