// The Stripe adapter against a local server speaking Stripe's wire format (test/helpers/stripe-server.ts):
// what a checkout sends, how Stripe's refusals and outages reach the invoice page, and which
// signed webhooks become a PaymentEvent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#src/config.ts';
import { buildDeps } from '#platform/deps.ts';
import {
  type CheckoutRequest,
  PaymentsUnavailable,
  type ProcessorPayments,
  WebhookSignatureError,
} from '#platform/payments/processor.ts';
import { paymentsFor } from '#platform/payments/select.ts';
import { stripeHostOptions, stripePayments } from '#platform/payments/stripe.ts';
import { testModePayments } from '#platform/payments/test-mode.ts';
import {
  type CheckoutSession,
  signatureHeader,
  signedEvent,
  startStripeServer,
  type StripeServer,
  stripeId,
} from '#test/helpers/stripe-server.ts';
import { envVars } from '#test/helpers/env-vars.ts';

const WEBHOOK_SECRET = `whsec_${stripeId('x', 32).slice(2)}`;

let server: StripeServer;
let payments: ProcessorPayments;
beforeAll(async () => {
  server = await startStripeServer();
  payments = stripePayments({ secretKey: server.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: server.url });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

let counter = 0;
function checkout(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  counter += 1;
  return {
    firmId: 7,
    invoiceId: 1042,
    amountCents: 125050,
    currency: 'USD',
    description: 'Invoice 1042 — Northgate Plaza',
    customerEmail: 'pat@example.com',
    successUrl: 'https://groundwork.example/pay/abc/paid',
    cancelUrl: 'https://groundwork.example/pay/abc',
    idempotencyKey: `checkout-test-${counter}-${Date.now()}`,
    account: null,
    ...overrides,
  };
}

/** A session made through the adapter and paid on the server: what Stripe's event would carry. */
async function paidSession(overrides: Partial<CheckoutRequest> = {}, status: 'paid' | 'unpaid' = 'paid') {
  const { reference } = await payments.startCheckout(checkout(overrides));
  return server.completeSession(reference, status);
}

function webhook(
  type: string,
  object: object,
  options: { secret?: string; timestamp?: number; account?: string } = {},
) {
  const { payload, signature, event } = signedEvent(type, object, options.secret ?? WEBHOOK_SECRET, options);
  return { body: Buffer.from(payload), signature, event };
}

async function refusal(promise: Promise<unknown>): Promise<PaymentsUnavailable> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentsUnavailable);
  return error as PaymentsUnavailable;
}

describe('startCheckout', () => {
  it('creates a payment-mode Checkout Session with exactly the expected parameters and headers', async () => {
    const request = checkout();
    const result = await payments.startCheckout(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers.authorization).toBe(`Bearer ${server.secretKey}`);
    expect(sent.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent.headers['idempotency-key']).toBe(request.idempotencyKey);
    expect(sent.headers['stripe-account']).toBeUndefined();
    // On the wire: flat form pairs in Stripe's bracket notation.
    expect(new URLSearchParams(sent.rawBody).get('line_items[0][price_data][unit_amount]')).toBe('125050');
    const metadata = { groundwork_firm_id: '7', groundwork_invoice_id: '1042' };
    expect(sent.form).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: 'usd',
            unit_amount: '125050',
            product_data: { name: 'Invoice 1042 — Northgate Plaza' },
          },
          quantity: '1',
        },
      ],
      customer_email: 'pat@example.com',
      success_url: 'https://groundwork.example/pay/abc/paid',
      cancel_url: 'https://groundwork.example/pay/abc',
      client_reference_id: '7:1042',
      metadata,
      payment_intent_data: { metadata },
    });

    const session = server.sessions.get(result.reference) as CheckoutSession;
    expect(result).toEqual({ url: session.url, reference: session.id });
    expect(session).toMatchObject({
      object: 'checkout.session',
      amount_total: 125050,
      currency: 'usd',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      metadata,
    });
    expect(session.id).toMatch(/^cs_test_/);
  });

  it('charges through a connected account with Stripe-Account, and sends no email when there is none', async () => {
    const result = await payments.startCheckout(checkout({ account: 'acct_1Nv0FGQ9RKHgCVdK', customerEmail: null }));
    const sent = server.requests[0];
    expect(sent.headers['stripe-account']).toBe('acct_1Nv0FGQ9RKHgCVdK');
    expect(sent.form).not.toHaveProperty('customer_email');
    expect(server.sessions.get(result.reference)?.customer_email).toBeNull();
  });

  it('gives the same session for a repeated idempotency key (a double click opens one checkout)', async () => {
    const request = checkout();
    const first = await payments.startCheckout(request);
    const again = await payments.startCheckout(request);
    expect(again).toEqual(first);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      request.idempotencyKey,
      request.idempotencyKey,
    ]);
    const other = await payments.startCheckout({ ...request, idempotencyKey: `${request.idempotencyKey}-2` });
    expect(other.reference).not.toBe(first.reference);
    // The same key for other parameters is Stripe's idempotency_error: a bug of ours, not an outage.
    const changed = await refusal(payments.startCheckout({ ...request, amountCents: 1 }));
    expect(changed.retryable).toBe(false);
    expect(changed.message).toContain('Keys for idempotent requests can only be used with the same parameters');
  });

  it('rides out one 500: the SDK retries with the same idempotency key and one session is made', async () => {
    const before = server.sessions.size;
    server.failNext({ status: 500 });
    const request = checkout();
    const result = await payments.startCheckout(request);
    expect(server.requests.map((r) => [r.status, r.headers['idempotency-key']])).toEqual([
      [500, request.idempotencyKey],
      [200, request.idempotencyKey],
    ]);
    expect(server.sessions.size).toBe(before + 1);
    expect(server.sessions.has(result.reference)).toBe(true);
  });

  it('answers PaymentsUnavailable (retryable) when Stripe keeps failing', async () => {
    server.failNext({ status: 500 }, 3);
    const error = await refusal(payments.startCheckout(checkout()));
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(3); // the first try and maxNetworkRetries (2)
  });

  it('answers PaymentsUnavailable (retryable) when Stripe limits the rate', async () => {
    server.failNext({ status: 429 });
    const error = await refusal(payments.startCheckout(checkout()));
    expect(error.retryable).toBe(true);
  });

  it('answers PaymentsUnavailable (retryable) when Stripe cannot be reached', async () => {
    const gone = await startStripeServer();
    await gone.close();
    const unreachable = stripePayments({ secretKey: gone.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: gone.url });
    const error = await refusal(unreachable.startCheckout(checkout()));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('Stripe could not be reached');
  });

  it('answers PaymentsUnavailable (not retryable) for a refused key, without the key in the message', async () => {
    const wrongKey = 'sk_test_51WrongKeyForGroundworkTests0000000000000000wxyz';
    const wrong = stripePayments({ secretKey: wrongKey, webhookSecret: WEBHOOK_SECRET, apiUrl: server.url });
    const error = await refusal(wrong.startCheckout(checkout()));
    expect(server.requests[0].status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(wrongKey);
    expect(error.message).not.toContain('wxyz'); // not even the part Stripe shows
    expect(error.message).toMatch(/GROUNDWORK_STRIPE_SECRET_KEY/);

    // Whatever Stripe says about the key, its text is not passed on.
    server.failNext({ status: 401, message: `Invalid API Key provided: ${server.secretKey}` });
    const echoed = await refusal(payments.startCheckout(checkout()));
    expect(echoed.retryable).toBe(false);
    expect(echoed.message).not.toContain(server.secretKey);
  });

  it('answers PaymentsUnavailable (not retryable) when Stripe refuses the parameters, with its reason', async () => {
    const error = await refusal(payments.startCheckout(checkout({ currency: 'US' })));
    expect(server.requests[0].status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Invalid currency');

    server.failNext({ status: 400, message: `No such key: ${server.secretKey} (account restricted)` });
    const leaked = await refusal(payments.startCheckout(checkout()));
    expect(leaked.message).toContain('account restricted');
    expect(leaked.message).not.toContain(server.secretKey);

    server.failNext({ status: 402, type: 'card_error', message: 'Your account cannot currently make live charges.' });
    expect((await refusal(payments.startCheckout(checkout()))).retryable).toBe(false);
  });
});

describe('readWebhook', () => {
  it('reads a signed checkout.session.completed that is paid as a PaymentEvent', async () => {
    const session = await paidSession();
    const { body, signature, event } = webhook('checkout.session.completed', session);
    expect(await payments.readWebhook(body, signature)).toEqual({
      processor: 'stripe',
      eventId: event.id,
      firmId: 7,
      invoiceId: 1042,
      outcome: 'paid',
      amountCents: 125050,
      currency: 'USD',
      reference: session.id,
      account: null,
    });
  });

  it("names the connected account an event came from, so only that workspace's invoices can be paid by it", async () => {
    const session = await paidSession();
    const { body, signature } = webhook('checkout.session.completed', session, { account: 'acct_1Connected' });
    expect(await payments.readWebhook(body, signature)).toMatchObject({ invoiceId: 1042, account: 'acct_1Connected' });
  });

  it('reads a bank debit that succeeds later (async_payment_succeeded) as paid, and its pending completion as nothing', async () => {
    const pending = await paidSession({ invoiceId: 88, amountCents: 990, currency: 'eur' }, 'unpaid');
    const completed = webhook('checkout.session.completed', pending);
    expect(await payments.readWebhook(completed.body, completed.signature)).toBeNull();

    const succeeded = webhook('checkout.session.async_payment_succeeded', { ...pending, payment_status: 'paid' });
    expect(await payments.readWebhook(succeeded.body, succeeded.signature)).toMatchObject({
      eventId: succeeded.event.id,
      invoiceId: 88,
      outcome: 'paid',
      amountCents: 990,
      currency: 'EUR',
      reference: pending.id,
    });
  });

  it('answers null for the events it does not read', async () => {
    const session = await paidSession();
    for (const type of [
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
      'payment_intent.succeeded',
      'charge.refunded',
    ]) {
      const { body, signature } = webhook(type, session);
      expect(await payments.readWebhook(body, signature), type).toBeNull();
    }
    // Signed by Stripe but not an event at all: acknowledged, nothing to apply.
    const text = 'not json';
    expect(await payments.readWebhook(Buffer.from(text), signatureHeader(text, WEBHOOK_SECRET))).toBeNull();
  });

  it('finds the invoice by the client reference when the metadata is missing, and answers null for sessions not ours', async () => {
    const session = await paidSession({ firmId: 12, invoiceId: 5 });
    const read = async (object: object) => {
      const { body, signature } = webhook('checkout.session.completed', object);
      return payments.readWebhook(body, signature);
    };
    expect(await read({ ...session, metadata: {} })).toMatchObject({ firmId: 12, invoiceId: 5 });
    expect(await read({ ...session, metadata: null })).toMatchObject({ firmId: 12, invoiceId: 5 });
    expect(await read({ ...session, metadata: {}, client_reference_id: null })).toBeNull();
    expect(await read({ ...session, metadata: {}, client_reference_id: 'order-55' })).toBeNull();
    for (const garbage of ['abc', '0', '-3', '1.5', '007', '99999999999999999999', ' 5', '5:6']) {
      const metadata = { groundwork_firm_id: garbage, groundwork_invoice_id: garbage };
      expect(await read({ ...session, metadata, client_reference_id: null }), garbage).toBeNull();
      expect(await read({ ...session, metadata, client_reference_id: `${garbage}:${garbage}` }), garbage).toBeNull();
    }
    expect(await read({ ...session, mode: 'subscription' })).toBeNull();
  });

  it('throws WebhookSignatureError for a forged, altered, unsigned or old webhook', async () => {
    const session = await paidSession();
    const expectForged = async (body: Buffer, signature: string | undefined) => {
      await expect(payments.readWebhook(body, signature)).rejects.toBeInstanceOf(WebhookSignatureError);
    };
    const forged = webhook('checkout.session.completed', session, { secret: 'whsec_someoneElse' });
    await expectForged(forged.body, forged.signature);

    const genuine = webhook('checkout.session.completed', session);
    const altered = Buffer.from(genuine.body.toString().replace('"amount_total": 125050', '"amount_total": 1'));
    expect(altered.equals(genuine.body)).toBe(false);
    await expectForged(altered, genuine.signature);

    await expectForged(genuine.body, undefined);
    await expectForged(genuine.body, '');
    await expectForged(genuine.body, 'garbage');

    // Stripe's tolerance is 300 s: a replay of an event signed ten minutes ago is refused.
    const old = webhook('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await expectForged(old.body, old.signature);
    // …while one signed a minute ago is fine.
    const recent = webhook('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 60 });
    expect(await payments.readWebhook(recent.body, recent.signature)).not.toBeNull();
  });

  it('refuses a webhook signed for a time beyond the same 300 s ahead, and takes one a little ahead', async () => {
    const session = await paidSession();
    const now = Math.floor(Date.now() / 1000);
    // Signed for ten minutes (or a day) from now: it would otherwise stay replayable until then.
    for (const ahead of [600, 24 * 3600]) {
      const future = webhook('checkout.session.completed', session, { timestamp: now + ahead });
      const error = await payments.readWebhook(future.body, future.signature).catch((e: unknown) => e);
      expect(error, String(ahead)).toBeInstanceOf(WebhookSignatureError);
      expect((error as Error).message).toMatch(/in the future/);
    }
    // A clock a minute ahead of ours is within the tolerance.
    const skewed = webhook('checkout.session.completed', session, { timestamp: now + 60 });
    expect(await payments.readWebhook(skewed.body, skewed.signature)).not.toBeNull();
  });
});

describe('paymentsFor and the GROUNDWORK_STRIPE_* settings', () => {
  const NAMES = ['GROUNDWORK_STRIPE_SECRET_KEY', 'GROUNDWORK_STRIPE_WEBHOOK_SECRET', 'GROUNDWORK_STRIPE_API_URL'];
  const set = envVars(NAMES);
  const KEY = 'sk_test_51SettingsTestKey00000000000000000000abcd';

  it('choose the built-in test mode without a key, and Stripe with one', () => {
    expect(paymentsFor(null)).toBe(testModePayments);
    expect(paymentsFor({ stripe: null })).toBe(testModePayments);
    expect(buildDeps({}).payments).toBe(testModePayments);
    const stripe = paymentsFor({ stripe: { secretKey: KEY, webhookSecret: WEBHOOK_SECRET } });
    expect(stripe).toMatchObject({ name: 'stripe', testMode: false });
    expect(buildDeps({ paymentSettings: { stripe: { secretKey: KEY, webhookSecret: 'whsec_x' } } }).payments.name).toBe(
      'stripe',
    );
    expect(buildDeps({ payments }).payments).toBe(payments);
  });

  it('read the key, the webhook secret and the API URL from the environment', () => {
    set({});
    expect(loadConfig().payments).toEqual({ stripe: null });
    set({
      GROUNDWORK_STRIPE_SECRET_KEY: KEY,
      GROUNDWORK_STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      GROUNDWORK_STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(loadConfig().payments).toEqual({
      stripe: { secretKey: KEY, webhookSecret: 'whsec_abc', apiUrl: 'http://127.0.0.1:12111' },
    });
    expect(stripeHostOptions('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeHostOptions('https://stripe.internal/')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
  });

  it('stop the start on a key without its webhook secret, a publishable key, a bad URL or settings without a key', () => {
    set({ GROUNDWORK_STRIPE_SECRET_KEY: KEY });
    expect(() => loadConfig()).toThrow(
      /GROUNDWORK_STRIPE_SECRET_KEY is set, so GROUNDWORK_STRIPE_WEBHOOK_SECRET must be set too/,
    );
    try {
      loadConfig();
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
    set({ GROUNDWORK_STRIPE_SECRET_KEY: 'pk_test_abc', GROUNDWORK_STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(() => loadConfig()).toThrow(/must be a secret key/);
    set({
      GROUNDWORK_STRIPE_SECRET_KEY: KEY,
      GROUNDWORK_STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      GROUNDWORK_STRIPE_API_URL: 'ftp://127.0.0.1/v1',
    });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_STRIPE_API_URL must be an http:\/\/ or https:\/\/ URL with no path/);
    set({ GROUNDWORK_STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(() => loadConfig()).toThrow('GROUNDWORK_STRIPE_WEBHOOK_SECRET set but GROUNDWORK_STRIPE_SECRET_KEY is not');
  });
});
