// The demo workspace's invoices (src/seed/demo-invoice.ts): a paid deposit invoice, a progress
// invoice sent to the customer (its email in the outbox, linking its page), and an online invoice
// requested from the proposal whose page takes the test card out of the box.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoWorkspace } from '#src/seed/demo.ts';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('has a paid deposit invoice, a sent progress invoice, an open online invoice and one payment', async () => {
  const demo = await seedDemoWorkspace(t.env, 'http://groundwork.test');
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
  expect(progress.issued_at).not.toBeNull();
  expect(progress.doc_number).toEqual(expect.any(Number));
  const payments = (await api.get('/v1/payments')).body.data;
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ amount: 4250 });

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
}, 60_000);
