// POST /v1/estimates/{id}/request-payment over HTTP (document 3, Invoices and payments; docs/api-decisions.md,
// "Online payments"): the four kinds and their figures, the client and due defaults, the 409s in the
// spec's order (Online payments not set up, No proposal yet, duplicate_invoice, over_contract) and
// confirm_duplicate, ten concurrent identical requests making one invoice, the pay-page email, the
// online invoice refusing every office move, and paying it on the built-in test-mode page over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';
import { startSmtpPeer, type SmtpPeer } from '#test/helpers/smtp.ts';

let peer: SmtpPeer;
let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport('billing@groundwork.test', 5_000) });
  w = await t.workspace({
    name: 'Acme Paving',
    settings: { online_payments_connected: true, operations_enabled: true },
    job_stages: [{ key: 'completed', label: 'Completed', type: 'won', completed: true }],
  });
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

const request = (estimateId: number, body: Record<string, unknown> = {}, ws = w) =>
  ws.api.post(`/v1/estimates/${estimateId}/request-payment`, body);

async function requested(estimateId: number, body: Record<string, unknown> = {}) {
  const r = await request(estimateId, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data as { invoice: any; payment_url: string; emailed: boolean; message: string };
}

async function feedOf(type: string, jobId: number) {
  return (await eventsOf(t.database, jobId)).filter((e) => e.event_type === type && e.in_feed === 1);
}

/** A page of the app, without a key. */
const page = (url: string, init: { method?: string; form?: Record<string, string> } = {}) =>
  t.app.inject({
    method: (init.method ?? 'GET') as 'GET' | 'POST',
    url: new URL(url, 'http://localhost').pathname + new URL(url, 'http://localhost').search,
    ...(init.form
      ? {
          payload: new URLSearchParams(init.form).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }
      : {}),
  });

describe('request-payment: the kinds and their figures', () => {
  it('full: an open online invoice for the proposal total, issued now, with the customer and terms from the proposal, emailed', async () => {
    const m = await proposalOnJob(w, { patch: { payment_due_days: 15 } });
    const before = peer.received.length;
    const r = await requested(m.proposal.estimate_id, { memo: 'Thank you', reference_number: 'PO-77' });
    const total = m.proposal.totals.total;
    expect(r.invoice).toMatchObject({
      job_id: m.job.id,
      estimate_id: m.proposal.estimate_id,
      doc_number: m.proposal.doc_number,
      status: 'open',
      payment_method: 'online',
      billing_type: 'full',
      amount: total,
      amount_cents: Math.round(total * 100),
      subtotal: m.proposal.totals.subtotal,
      tax: m.proposal.totals.tax,
      due_days: 15,
      payment_terms: 'Net 15',
      client_name: m.proposal.client_name,
      client_email: m.job.contact_email,
      memo: 'Thank you',
      reference_number: 'PO-77',
      paid_at: null,
    });
    expect(r.invoice.issued_at).toMatch(/Z$/);
    expect(r.invoice.line_items).toEqual([
      { description: m.proposal.title, amount: m.proposal.totals.subtotal, amount_cents: expect.any(Number) },
    ]);
    // The payment link is never on the invoice object (document 3).
    expect(JSON.stringify(r.invoice)).not.toContain('/share/invoices/');
    expect(r.payment_url).toMatch(/^http:\/\/localhost(:\d+)?\/share\/invoices\/[A-Za-z0-9_-]{43}$/);
    expect(r.emailed).toBe(true);
    expect(r.message).toContain(m.job.contact_email);
    const [mail] = (await peer.waitFor(before + 1)).slice(before);
    expect(mail.envelopeTo).toEqual([m.job.contact_email]);
    expect(mail.parsed.text).toContain(r.payment_url);
    expect(mail.parsed.subject).toContain('Acme Paving');
    // invoice_created in the feed, in the same shape as a check invoice's.
    const created = (await feedOf('invoice_created', m.job.id)).filter((e) => e.entity_id === r.invoice.id);
    expect(created).toHaveLength(1);
    expect(created[0].data).toMatchObject({
      invoice_id: r.invoice.id,
      amount_cents: r.invoice.amount_cents,
      status: 'open',
    });
  });

  it("deposit: the proposal's deposit_percent of the total, to the cent; 409 no_deposit without one", async () => {
    const m = await proposalOnJob(w, { patch: { deposit_percent: 33.33 } });
    const r = await requested(m.proposal.estimate_id, { kind: 'deposit', due_days: 0 });
    const totalCents = Math.round(m.proposal.totals.total * 100);
    expect(r.invoice).toMatchObject({
      billing_type: 'deposit',
      amount_cents: Math.floor((totalCents * 3333 + 5000) / 10_000),
      payment_terms: 'Due on receipt',
      tax_cents: 0,
    });
    expect(r.invoice.line_items[0].description).toBe(`Deposit (33.33%): ${m.proposal.title}`);

    const none = await proposalOnJob(w);
    const refused = await request(none.proposal.estimate_id, { kind: 'deposit' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('no_deposit');
  });

  it('progress: work done (percent_complete, or all once the job is completed) minus what is billed; never past the contract', async () => {
    const m = await proposalOnJob(w, { patch: { deposit_percent: 25 } });
    const id = m.proposal.estimate_id;
    const totalCents = Math.round(m.proposal.totals.total * 100);
    const deposit = await requested(id, { kind: 'deposit' });
    const unknown = await request(id, { kind: 'progress' });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({ code: 'nothing_to_bill' });
    expect(unknown.body.message).toContain('percent_complete');

    const progress = await requested(id, { kind: 'progress', percent_complete: 60 });
    expect(progress.invoice).toMatchObject({
      billing_type: 'milestone',
      amount_cents: Math.floor((totalCents * 6000 + 5000) / 10_000) - deposit.invoice.amount_cents,
    });
    // 20% done is less than the 60% billed: nothing to bill.
    const behind = await request(id, { kind: 'progress', percent_complete: 20 });
    expect(behind.status).toBe(409);
    expect(behind.body.code).toBe('nothing_to_bill');
    // The job completed: the rest of the contract, exactly.
    await ok(w.api.patch(`/v1/jobs/${m.job.id}`, { status: 'completed' }));
    const rest = await requested(id, { kind: 'progress' });
    const invoices = (await ok(w.api.get(`/v1/jobs/${m.job.id}/invoices`))) as any;
    expect(invoices.totals.invoiced_cents).toBe(totalCents);
    expect(rest.invoice.amount_cents).toBe(totalCents - deposit.invoice.amount_cents - progress.invoice.amount_cents);
  });

  it("progress without percent_complete: what the job's work orders have done, line by line, by price", async () => {
    const job = (await ok(w.api.post('/v1/jobs', { name: 'Work-order lot', contact_email: 'lot@example.com' }))).data;
    const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
    const line = async (name: string, unit: string, quantity: number, unit_cost: number) =>
      (await ok(w.api.post(`/v1/estimates/${estimate.id}/line-items`, { name, unit, quantity, unit_cost })))
        .line_item_id;
    const sealcoat = await line('Sealcoat', 'SF', 8000, 0.25);
    const striping = await line('Striping', 'EA', 40, 15);
    const proposal = (await ok(w.api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
    expect((await w.api.post(`/v1/proposals/${proposal.id}/send`, {})).status).toBe(200);
    // The line prices the customer was offered (frozen in the proposal).
    const stored = await t.database.db
      .selectFrom('proposals')
      .select(['priced', 'total_cents'])
      .where('id', '=', proposal.id)
      .executeTakeFirstOrThrow();
    const price = new Map(
      (JSON.parse(stored.priced).lines as { line_id: number; price_cents: number }[]).map((l) => [
        l.line_id,
        l.price_cents,
      ]),
    );
    const [a, b] = [price.get(sealcoat)!, price.get(striping)!];
    const totalCents = Number(stored.total_cents);

    const none = await request(estimate.id, { kind: 'progress' });
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('no work orders');
    const wo = async (title: string, lineId: number) =>
      (await ok(w.api.post('/v1/work-orders', { job_id: job.id, title, estimate_service_id: lineId }))).data;
    const first = await wo('Sealcoat', sealcoat);
    await wo('Striping', striping);
    const notYet = await request(estimate.id, { kind: 'progress' });
    expect(notYet.status).toBe(409);
    expect(notYet.body).toMatchObject({ code: 'nothing_to_bill' });
    expect(notYet.body.message).toContain('/allocation');

    // 6,000 of the 8,000 SF sealcoated: three quarters of the sealcoat line's price is done.
    await ok(w.api.post(`/v1/work-orders/${first.id}/complete`, { completed_qty: 6000 }));
    const percent = Math.floor(((a * 0.75) / (a + b)) * 10_000 + 0.5) / 100;
    const billed = await requested(estimate.id, { kind: 'progress' });
    const workDone = Math.floor((totalCents * Math.round(percent * 100) + 5000) / 10_000);
    expect(billed.invoice).toMatchObject({ billing_type: 'milestone', amount_cents: workDone });
    expect(billed.invoice.line_items[0].description).toContain(`Progress billing, ${percent}% complete`);
    // Nothing more done: nothing more to bill; the office's percent_complete still overrides.
    expect((await request(estimate.id, { kind: 'progress' })).body.code).toBe('nothing_to_bill');
    const more = await requested(estimate.id, { kind: 'progress', percent_complete: 90 });
    expect(more.invoice.amount_cents).toBe(Math.floor((totalCents * 9000 + 5000) / 10_000) - workDone);
  });

  it('itemized: the proposal lines (optional ones left out) and its tax, billing the contract exactly', async () => {
    const m = await proposalOnJob(w);
    const r = await requested(m.proposal.estimate_id, { kind: 'itemized' });
    expect(r.invoice.billing_type).toBe('line_items');
    const names = r.invoice.line_items.map((l: any) => l.description);
    expect(names).toContain('Sealcoat main lot');
    expect(names).toContain('Restripe stalls');
    expect(names).not.toContain('Crack fill');
    expect(r.invoice.amount).toBe(m.proposal.totals.total);
    expect(r.invoice.subtotal_cents - r.invoice.discount_cents + r.invoice.tax_cents).toBe(r.invoice.amount_cents);
  });

  it('bills the revised contract: approved change orders join the full invoice and the over_contract limit', async () => {
    const m = await proposalOnJob(w);
    const co = await w.api.post('/v1/change-orders', {
      job_id: m.job.id,
      title: 'Extra drain inlet',
      amount_delta: 500,
    });
    expect(co.status, JSON.stringify(co.body)).toBe(201);
    await ok(w.api.post(`/v1/change-orders/${co.body.data.id}/approve`));
    const r = await requested(m.proposal.estimate_id);
    const totalCents = Math.round(m.proposal.totals.total * 100);
    expect(r.invoice.amount_cents).toBe(totalCents + 50_000);
    expect(r.invoice.line_items.map((l: any) => [l.description, l.amount])).toEqual([
      [m.proposal.title, m.proposal.totals.subtotal],
      ['Approved change orders (1)', 500],
    ]);
    // The whole revised contract is billed: one more cent is over it.
    const more = await request(m.proposal.estimate_id, { kind: 'progress', percent_complete: 100 });
    expect(more.body.code).toBe('nothing_to_bill');
  });

  it('client fields sent win; emailed false (share the link) without any customer email', async () => {
    const m = await proposalOnJob(w);
    const r = await requested(m.proposal.estimate_id, {
      client_name: 'Board Treasurer',
      client_email: 'treasurer@hoa.test',
    });
    expect(r.invoice).toMatchObject({ client_name: 'Board Treasurer', client_email: 'treasurer@hoa.test' });
    expect(r.emailed).toBe(true);

    const noMail = await proposalOnJob(w, { send: false, patch: { client_email: null } });
    await ok(w.api.patch(`/v1/jobs/${noMail.job.id}`, { contact_email: null }));
    const silent = await requested(noMail.proposal.estimate_id);
    expect(silent.emailed).toBe(false);
    expect(silent.message).toContain('share payment_url');
    expect(silent.invoice.client_email).toBeNull();
  });
});

describe('request-payment: refusals', () => {
  it('409 Online payments not set up, before anything else; 404 for an unknown or another workspace’s estimate', async () => {
    const other = await t.workspace({ name: 'No payments', settings: { online_payments_connected: false } });
    const m = await proposalOnJob(other);
    const r = await request(m.proposal.estimate_id, {}, other);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: 'Online payments not set up', code: 'online_payments_not_set_up' });
    expect((await request(m.proposal.estimate_id)).status).toBe(404);
    expect((await request(99_999_999)).body).toMatchObject({ error: 'Estimate not found' });
  });

  it('409 No proposal yet for an estimate without one or with a void one', async () => {
    const m = await proposalOnJob(w, { send: false });
    const bare = (await ok(w.api.post('/v1/estimates', { job_id: m.job.id }))).data;
    const r = await request(bare.id);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: 'No proposal yet', code: 'no_proposal' });
    await ok(w.api.post(`/v1/proposals/${m.proposal.id}/void`));
    expect((await request(m.proposal.estimate_id)).body.code).toBe('no_proposal');
  });

  it('400 for unknown fields and bad values, with nothing made', async () => {
    const m = await proposalOnJob(w);
    for (const body of [{ kind: 'half' }, { surprise: 1 }, { percent_complete: 101 }, { due_days: -1 }]) {
      const r = await request(m.proposal.estimate_id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await ok(w.api.get(`/v1/invoices?job_id=${m.job.id}`))).data).toHaveLength(0);
  });

  it('403 without pricing access', async () => {
    const m = await proposalOnJob(w);
    const crew = await t.user(w.firmId, { role: 'member', pricing_access: false });
    const r = await crew.api.post(`/v1/estimates/${m.proposal.estimate_id}/request-payment`, {});
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('pricing_access_required');
  });

  it('409 duplicate_invoice for the same invoice within 10 minutes, over_contract past the contract; confirm_duplicate makes it', async () => {
    pauseClock();
    try {
      const m = await proposalOnJob(w);
      const id = m.proposal.estimate_id;
      const first = await requested(id);
      const twin = await request(id);
      expect(twin.status).toBe(409);
      expect(twin.body).toMatchObject({
        error: 'Duplicate invoice',
        code: 'duplicate_invoice',
        invoice_id: first.invoice.id,
      });
      advanceClock(10 * 60 * 1000 + 1000);
      // No longer a duplicate, but a second full invoice bills twice the contract.
      const over = await request(id);
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({
        error: 'Over contract',
        code: 'over_contract',
        contract: m.proposal.totals.total,
      });
      const confirmed = await requested(id, { confirm_duplicate: true });
      expect(confirmed.invoice.amount).toBe(m.proposal.totals.total);
      expect((await ok(w.api.get(`/v1/invoices?job_id=${m.job.id}`))).data).toHaveLength(2);
    } finally {
      resumeClock();
    }
  });

  it('ten identical requests at once make one invoice; the other nine are duplicate_invoice', async () => {
    const m = await proposalOnJob(w);
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(m.proposal.estimate_id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(9);
    for (const a of refused) expect(a.body.code).toBe('duplicate_invoice');
    expect((await ok(w.api.get(`/v1/invoices?job_id=${m.job.id}`))).data).toHaveLength(1);
    expect(await feedOf('invoice_created', m.job.id)).toHaveLength(1);
  });

  it('an online invoice answers 409 online_invoice to every office change', async () => {
    const m = await proposalOnJob(w);
    const { invoice } = await requested(m.proposal.estimate_id);
    const calls = [
      w.api.patch(`/v1/invoices/${invoice.id}`, { memo: 'x' }),
      w.api.post(`/v1/invoices/${invoice.id}/send`),
      ...['mark-sent', 'mark-paid', 'void', 'mark-draft'].map((move) =>
        w.api.post(`/v1/invoices/${invoice.id}/${move}`),
      ),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('online_invoice');
    }
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data).toMatchObject({
      status: 'open',
      updated_at: invoice.updated_at,
    });
  });
});

describe('paying on the built-in test-mode page', () => {
  it('shows the invoice marked TEST MODE; a declined test card changes nothing; 4242… pays it once, through the webhook path', async () => {
    const m = await proposalOnJob(w);
    const { invoice, payment_url } = await requested(m.proposal.estimate_id);
    const shown = await page(payment_url);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    expect(shown.body).toContain(`Invoice #${invoice.invoice_number}`);
    expect(shown.body).toContain('TEST MODE');
    expect(shown.body).toContain('href="/share/invoices/');

    const form = await page(`${payment_url}/pay`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('TEST MODE');
    const attempt = /name="attempt" value="([0-9a-f]{32})"/.exec(form.body)![1];
    const card = (number: string) => ({ attempt, number, expiry: '12/40', cvc: '123', name: 'Robin Vega' });

    const declined = await page(`${payment_url}/pay`, { method: 'POST', form: card('4000 0000 0000 0002') });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    const real = await page(`${payment_url}/pay`, { method: 'POST', form: card('4111 1111 1111 1111') });
    expect(real.statusCode).toBe(402);
    expect(real.body).toContain('test cards only');
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data.status).toBe('open');

    const paid = await page(`${payment_url}/pay`, { method: 'POST', form: card('4242 4242 4242 4242') });
    expect(paid.statusCode).toBe(303);
    const after = (await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data;
    expect(after).toMatchObject({ status: 'paid' });
    expect(after.paid_at).toMatch(/Z$/);
    // The same form posted again is the same event: applied once.
    await page(`${payment_url}/pay`, { method: 'POST', form: card('4242 4242 4242 4242') });
    const received = (await feedOf('payment_received', m.job.id)).filter((e) => e.entity_id === invoice.id);
    expect(received).toHaveLength(1);
    expect(received[0].data).toMatchObject({ invoice_id: invoice.id, status: 'paid', paid_at: after.paid_at });
    const payments = (await ok(w.api.get(`/v1/payments?job_id=${m.job.id}`))).data;
    expect(payments).toEqual([
      expect.objectContaining({ invoice_id: invoice.id, amount: invoice.amount, payment_method: 'online' }),
    ]);
    const again = await page(payment_url);
    expect(again.body).toContain('Paid');
    expect(again.body).not.toContain('by card</a>');
    const pdf = await page(`${payment_url}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});

describe('POST /payments/stripe/webhook in test mode', () => {
  it('is 404: no processor is configured, so nothing can be paid by a posted event', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/payments/stripe/webhook',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(r.statusCode).toBe(404);
  });
});
