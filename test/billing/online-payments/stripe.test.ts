// Online payments through the Stripe adapter, end to end against a local server speaking Stripe's
// wire format (test/helpers/stripe-server.ts): the invoice page's Pay sends the customer to a
// Checkout Session for the invoice; Stripe's signed webhook (POST /payments/stripe/webhook) marks it
// paid with one payment_received; a replayed event is applied once; a forged or altered signature is
// refused with the invoice unchanged; a payment taken by another connected account pays nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripePayments } from '#platform/payments/stripe.ts';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { signedEvent, startStripeServer, type StripeServer, stripeId } from '#test/helpers/stripe-server.ts';
import { proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

const WEBHOOK_SECRET = `whsec_${stripeId('x', 32).slice(2)}`;
let stripe: StripeServer;
let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  stripe = await startStripeServer();
  t = await startApp({
    payments: stripePayments({ secretKey: stripe.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: stripe.url }),
  });
  w = await t.workspace({ name: 'Acme Paving', settings: { online_payments_connected: true } });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const pathOf = (url: string) => new URL(url).pathname;

/** An open online invoice and the Checkout Session its Pay button started. */
async function checkedOut() {
  const m = await proposalOnJob(w);
  const r = await w.api.post(`/v1/estimates/${m.proposal.estimate_id}/request-payment`, {});
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const { invoice, payment_url } = r.body.data;
  const page = await t.app.inject({ method: 'GET', url: pathOf(payment_url) });
  expect(page.body).not.toContain('TEST MODE');
  const pay = await t.app.inject({ method: 'GET', url: `${pathOf(payment_url)}/pay` });
  expect(pay.statusCode).toBe(303);
  const session = [...stripe.sessions.values()].find((s) => s.url === pay.headers.location);
  expect(session, 'the Pay button sends the customer to the session Stripe made').toBeDefined();
  return { m, invoice, paymentUrl: payment_url as string, session: session! };
}

function deliver(payload: string, signature: string | undefined) {
  return t.app.inject({
    method: 'POST',
    url: '/payments/stripe/webhook',
    payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
  });
}

const paymentsReceived = async (jobId: number) =>
  (await eventsOf(t.database, jobId)).filter((e) => e.event_type === 'payment_received');

describe('Stripe checkout and webhook', () => {
  it('the Pay button starts a Checkout Session for exactly the invoice', async () => {
    const { invoice, session, paymentUrl } = await checkedOut();
    expect(session).toMatchObject({
      amount_total: invoice.amount_cents,
      currency: 'usd',
      client_reference_id: `${w.firmId}:${invoice.id}`,
      customer_email: invoice.client_email,
      mode: 'payment',
      success_url: `${paymentUrl}?paid=1`,
      cancel_url: paymentUrl,
    });
    expect(session.metadata).toMatchObject({
      groundwork_firm_id: String(w.firmId),
      groundwork_invoice_id: String(invoice.id),
    });
    // Back from Stripe before the webhook: the page says the payment is being confirmed.
    const back = await t.app.inject({ method: 'GET', url: `${pathOf(paymentUrl)}?paid=1` });
    expect(back.body).toContain('being confirmed');
  });

  it('a signed checkout.session.completed pays the invoice once; the replayed event changes nothing', async () => {
    const { m, invoice, session } = await checkedOut();
    const paid = stripe.completeSession(session.id);
    const { payload, signature } = signedEvent('checkout.session.completed', paid, WEBHOOK_SECRET);
    const first = await deliver(payload, signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, applied: true });
    const after = (await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data;
    expect(after).toMatchObject({ status: 'paid' });
    const replay = await deliver(payload, signature);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, applied: false });
    expect(await paymentsReceived(m.job.id)).toHaveLength(1);
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data.paid_at).toBe(after.paid_at);
    const row = await t.database.db
      .selectFrom('invoices')
      .select(['payment_processor', 'payment_reference'])
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ payment_processor: 'stripe', payment_reference: session.id });
  });

  it('a forged, altered, unsigned or future-dated webhook is 400 and the invoice stays open', async () => {
    const { m, invoice, session } = await checkedOut();
    const paid = stripe.completeSession(session.id);
    const forged = signedEvent('checkout.session.completed', paid, 'whsec_not_the_endpoint_secret');
    expect((await deliver(forged.payload, forged.signature)).statusCode).toBe(400);
    const real = signedEvent('checkout.session.completed', paid, WEBHOOK_SECRET);
    const altered = real.payload.replace(`"amount_total": ${paid.amount_total}`, '"amount_total": 1');
    expect(altered).not.toBe(real.payload);
    const r = await deliver(altered, real.signature);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'Invalid signature' });
    expect((await deliver(real.payload, undefined)).statusCode).toBe(400);
    // Genuinely signed, but for ten minutes from now: refused as an old one is.
    const ahead = signedEvent('checkout.session.completed', paid, WEBHOOK_SECRET, {
      timestamp: Math.floor(Date.now() / 1000) + 600,
    });
    const early = await deliver(ahead.payload, ahead.signature);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ error: 'Invalid signature' });
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data.status).toBe('open');
    expect(await paymentsReceived(m.job.id)).toHaveLength(0);
  });

  it('a payment taken by another connected account, or short of the amount, pays nothing; unrelated events are acknowledged', async () => {
    const { m, invoice, session } = await checkedOut();
    const paid = stripe.completeSession(session.id);
    const elsewhere = signedEvent('checkout.session.completed', paid, WEBHOOK_SECRET, { account: 'acct_1Someoneelse' });
    expect((await deliver(elsewhere.payload, elsewhere.signature)).json()).toEqual({ received: true, applied: false });
    const short = signedEvent('checkout.session.completed', { ...paid, amount_total: 100 }, WEBHOOK_SECRET);
    expect((await deliver(short.payload, short.signature)).json()).toEqual({ received: true, applied: false });
    const other = signedEvent('customer.created', { id: 'cus_1', object: 'customer' }, WEBHOOK_SECRET);
    expect((await deliver(other.payload, other.signature)).json()).toEqual({ received: true, applied: false });
    expect((await ok(w.api.get(`/v1/invoices/${invoice.id}`))).data.status).toBe('open');
    expect(await paymentsReceived(m.job.id)).toHaveLength(0);
  });

  it('502 page when Stripe cannot be reached; nothing is charged or changed', async () => {
    const m = await proposalOnJob(w);
    const r = await w.api.post(`/v1/estimates/${m.proposal.estimate_id}/request-payment`, {});
    stripe.failNext({ status: 500, message: 'down', shouldRetry: false }, 5);
    const pay = await t.app.inject({ method: 'GET', url: `${pathOf(r.body.data.payment_url)}/pay` });
    expect(pay.statusCode).toBe(502);
    expect(pay.body).toContain('Nothing was charged');
  });
});
