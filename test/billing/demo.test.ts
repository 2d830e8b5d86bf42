// The demo workspace's invoices (src/seed/demo-invoice.ts): a paid deposit invoice and a sent
// progress invoice on the walked job, billed from its estimate.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoWorkspace } from '#src/seed/demo.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('has a paid deposit invoice, a sent progress invoice and one payment', async () => {
  const demo = await seedDemoWorkspace(t.env, 'http://groundwork.test');
  const api = t.as(demo!.key);
  const invoices = (await api.get('/v1/invoices')).body.data;
  expect(invoices.map((i: any) => [i.billing_type, i.status]).sort()).toEqual([
    ['deposit', 'paid'],
    ['milestone', 'sent'],
  ]);
  const progress = invoices.find((i: any) => i.billing_type === 'milestone');
  expect(progress).toMatchObject({
    amount: 4925.5,
    amount_cents: 492550,
    description: '2 line items',
    payment_terms: 'Net 30',
  });
  expect(progress.doc_number).toEqual(expect.any(Number));
  const payments = (await api.get('/v1/payments')).body.data;
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ amount: 4250 });
}, 60_000);
