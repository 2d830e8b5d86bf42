// The demo workspace's invoices (src/seed/demo-invoice.ts): a paid deposit invoice, a progress
// invoice sent to the customer (its email in the outbox, linking its page), and an online invoice
// requested from the proposal whose page takes the test card out of the box; and its change orders
// (src/seed/demo-change-orders.ts): an approved quick one and a sent tm one with its email in the outbox.
// Its figures agree with each other: the deposit invoice bills the signed proposal's deposit, and a
// job is won exactly when its proposal was accepted (src/seed/demo-proposal.ts), as the API and the
// pages show them.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { seedDemoWorkspace } from '#src/seed/demo.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
let demo: Awaited<ReturnType<typeof seedDemoWorkspace>>;
beforeAll(async () => {
  t = await startApp();
  demo = await seedDemoWorkspace(t.env, 'http://groundwork.test');
}, 60_000);
afterAll(() => t.close());

it('has a paid deposit invoice, a sent progress invoice, an open online invoice and one payment', async () => {
  const api = t.as(demo!.key);
  const invoices = (await api.get('/v1/invoices')).body.data;
  expect(invoices.map((i: any) => [i.billing_type, i.status, i.payment_method]).sort()).toEqual([
    ['deposit', 'paid', 'check'],
    ['milestone', 'open', 'online'],
    ['milestone', 'sent', 'check'],
  ]);
  const progress = invoices.find((i: any) => i.payment_method === 'check' && i.billing_type === 'milestone');
  expect(progress).toMatchObject({
    amount: 4925.5,
    amount_cents: 492550,
    description: '2 line items',
    payment_terms: 'Net 30',
  });
  expect(progress!.issued_at).not.toBeNull();
  expect(progress!.doc_number).toEqual(expect.any(Number));
  const payments = (await api.get('/v1/payments')).body.data;
  expect(payments).toHaveLength(1);
  const deposit = invoices.find((i: any) => i.billing_type === 'deposit');
  expect(payments[0]).toMatchObject({ invoice_id: deposit!.id, amount: deposit!.amount });

  // The progress invoice's email is in the outbox, and its link opens the invoice page.
  const mails = await Promise.all(
    (await listOutbox(t.dataDir)).map(async (m) => simpleParser((await readOutboxMessage(t.dataDir, m.name))!)),
  );
  const invoiceMail = mails.find((m) => m.subject?.includes('for $4,925.50'));
  expect(invoiceMail).toBeDefined();
  const sentPath = /http:\/\/groundwork\.test(\/share\/invoices\/[A-Za-z0-9_-]{43})/.exec(invoiceMail!.text ?? '')![1]!;
  expect((await t.app.inject({ method: 'GET', url: sentPath })).body).toContain('PO-5521');

  // The online invoice's page is printed by serve, and takes the test card.
  const page = demo!.pages.find((p) => p.label.startsWith('Invoice (online'));
  expect(page?.path).toMatch(/^\/share\/invoices\//);
  const shown = await t.app.inject({ method: 'GET', url: page!.path });
  expect(shown.body).toContain('TEST MODE');
});

it('has an approved quick change order and a sent tm one, with its email in the outbox and its page listed', async () => {
  const api = t.as(demo!.key);
  const list = (await api.get('/v1/change-orders')).body;
  expect(list.total).toBe(2);
  const [tm, quick] = list.change_orders;
  expect(quick).toMatchObject({ kind: 'quick', status: 'approved', co_number: 1, amount_delta: 1850, days_delta: 1 });
  expect(tm).toMatchObject({ kind: 'tm', status: 'sent', co_number: 2, pricing_mode: 'additive', days_delta: 2 });
  expect(tm.amount_delta).toBeGreaterThan(0);
  const detail = (await api.get(`/v1/change-orders/${tm.id}`)).body.data;
  expect(detail.lines.map((l: any) => l.cost_code)).toEqual(['02-630', '31-220']);
  // The contract they revise is the walked job's signed proposal (its latest accepted one).
  const signed = ((await api.get(`/v1/proposals?job_id=${tm.job_id}&status=accepted`)).body.data as any[])[0];
  const contract = (await api.get(`/v1/proposals/${signed.id}`)).body.data.totals.total;
  const cents = (n: number) => Math.round(n * 100);
  const approved = (await api.get(`/v1/change-orders/${quick.id}`)).body.data;
  expect(approved.revised_contract).toBe((cents(contract) + 185000) / 100);
  expect(detail.revised_contract).toBe((cents(contract) + 185000 + cents(tm.amount_delta)) / 100);
  expect(approved).toMatchObject({ approval_source: 'office', decision_comment: 'Approved by Marcus on site' });
  const events = (await api.get('/v1/events?limit=200')).body.data.filter(
    (e: any) => e.event_type === 'change_order_approved',
  );
  expect(events).toHaveLength(1);
  expect(demo!.pages).toContainEqual({
    label: 'Change order (sent, ready to sign)',
    path: new URL(detail.share_url!).pathname,
  });
  const outbox = await listOutbox(t.dataDir);
  const texts = await Promise.all(
    outbox.map(async (m) => {
      const raw = await readOutboxMessage(t.dataDir, m.name);
      return raw === null ? '' : ((await simpleParser(raw)).text ?? '');
    }),
  );
  // The email links where the demo's server answers.
  const link = `http://groundwork.test${new URL(detail.share_url!).pathname}`;
  expect(texts.some((text) => text.includes(link) && text.includes('change order'))).toBe(true);
});

it("agrees with itself: the deposit invoice is the signed proposal's deposit, and a job is won exactly when its proposal is accepted", async () => {
  const api = t.as(demo!.key);
  const proposals = (await api.get('/v1/proposals?limit=200')).body.data as any[];
  const jobs = (await api.get('/v1/jobs?limit=100')).body.data as any[];
  const wonStages = new Set(
    ((await api.get('/v1/job-stages')).body.data as any[]).filter((s) => s.type === 'won').map((s) => s.key),
  );
  // The walked job's contract: signed, and its deposit invoice bills exactly its deposit.
  const invoices = (await api.get('/v1/invoices')).body.data as any[];
  const deposit = invoices.find((i) => i.billing_type === 'deposit');
  const contract = (await api.get(`/v1/proposals/${proposals.find((p) => p.estimate_id === deposit.estimate_id).id}`))
    .body.data;
  expect(contract).toMatchObject({ status: 'accepted', job_id: deposit.job_id, sections: { deposit_percent: 25 } });
  expect(deposit.amount_cents).toBe(Math.round(contract.totals.deposit! * 100));
  expect(deposit.status).toBe('paid');
  // Every job with a proposal is in a won stage exactly when a proposal of it was accepted, and no
  // job is won without one.
  for (const job of jobs) {
    const own = proposals.filter((p) => p.job_id === job.id);
    const accepted = own.some((p) => p.status === 'accepted');
    expect(wonStages.has(job.status), `${job.name} (${job.status})`).toBe(accepted);
  }
  expect(proposals.filter((p) => p.status === 'accepted').length).toBeGreaterThanOrEqual(3);
  expect(proposals.filter((p) => p.status === 'sent')).toHaveLength(1);

  // The pages say the same: the signed contract shows its outcome and serves the signed PDF, the
  // other proposal waits for a signature.
  const signed = demo!.pages.find((p) => p.label === 'Proposal (accepted, with the signed PDF)')!;
  expect(signed.path).toBe(new URL(contract.share_url!).pathname);
  const signedPage = (await t.app.inject({ url: signed.path })).body;
  expect(signedPage).toContain('Signed by Marcus Lee');
  expect(signedPage).toContain(
    `Deposit:</strong> 25% ($${contract.totals.deposit!.toLocaleString('en-US', { minimumFractionDigits: 2 })})`,
  );
  const pdf = await t.app.inject({ url: `${signed.path}/signed.pdf` });
  expect(pdf.headers['content-type']).toBe('application/pdf');
  const ready = demo!.pages.find((p) => p.label === 'Proposal (sent, ready to sign)')!;
  expect((await t.app.inject({ url: ready.path })).body).toContain('Accept and sign');
});
