// The Stripe adapter of the payments interface (processor.ts): a hosted Checkout Session per
// payment attempt, and the signed webhook that tells us it was paid. One Stripe account serves the
// whole server (GROUNDWORK_STRIPE_SECRET_KEY); a workspace may name a connected account
// (CheckoutRequest.account) to be charged through Stripe Connect instead.
//
// The SDK's own HTTP client talks to Stripe, not platform/outbound.ts: the host is the operator's
// setting (api.stripe.com, or GROUNDWORK_STRIPE_API_URL), never a URL a workspace supplied, and
// the SDK brings Stripe's retry rules (idempotency keys on every retry, Stripe-Should-Retry).
import Stripe from 'stripe';
import {
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  PaymentsUnavailable,
  type ProcessorPayments,
  WebhookSignatureError,
} from './processor.ts';

export interface StripeSettings {
  /** sk_live_… / sk_test_… (or a restricted rk_… key allowed to create Checkout Sessions). */
  secretKey: string;
  /** The signing secret of the webhook endpoint (whsec_…), from the Dashboard or `stripe listen`. */
  webhookSecret: string;
  /** Another host speaking Stripe's API (`http://127.0.0.1:12111`); unset = https://api.stripe.com. */
  apiUrl?: string | null;
  /** How long one attempt may take, in milliseconds (20 s unless given). */
  timeoutMs?: number;
}

/** How far a webhook's signed time may be from ours, either way (Stripe's default for the past). */
export const WEBHOOK_TOLERANCE_SECONDS = Stripe.webhooks.DEFAULT_TOLERANCE;

/** The signed time (`t=`) of a Stripe-Signature header the SDK has verified. */
function signedAt(header: string): number {
  const t = header
    .split(',')
    .map((item) => item.trim().split('='))
    .find(([key]) => key === 't')?.[1];
  return Number(t);
}

/** Metadata keys on the session and its PaymentIntent: how a webhook finds its invoice. */
const FIRM_KEY = 'groundwork_firm_id';
const INVOICE_KEY = 'groundwork_invoice_id';

/** host/port/protocol options of the SDK from an operator's URL (its path is not used: Stripe's is /v1). */
export function stripeHostOptions(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : url.protocol === 'https:' ? 'https' : null;
  if (!protocol) throw new Error(`The Stripe API URL must be http:// or https://, got "${url.protocol}"`);
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
  // URL keeps IPv6 literals bracketed; the SDK hands the host to node:http, which wants them bare.
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, protocol };
}

export function stripePayments(settings: StripeSettings): ProcessorPayments {
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.apiUrl ? stripeHostOptions(settings.apiUrl) : {}),
    // A customer waits on the Pay button: a couple of retries (each with the same idempotency key),
    // then a clear "try again" rather than the SDK's 80 s default.
    maxNetworkRetries: 2,
    timeout: settings.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: 'Groundwork' },
  });
  const redact = (text: string) => redactKeys(text, settings.secretKey);

  return {
    name: 'stripe',
    testMode: false,

    async startCheckout(request: CheckoutRequest): Promise<Checkout> {
      const metadata = { [FIRM_KEY]: String(request.firmId), [INVOICE_KEY]: String(request.invoiceId) };
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.amountCents,
                  product_data: { name: request.description },
                },
                quantity: 1,
              },
            ],
            customer_email: request.customerEmail ?? undefined,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            client_reference_id: `${request.firmId}:${request.invoiceId}`,
            metadata,
            // The PaymentIntent carries them too, so the payment reads as ours in the Dashboard and
            // in any report made from payments rather than sessions.
            payment_intent_data: { metadata },
          },
          {
            idempotencyKey: request.idempotencyKey,
            ...(request.account ? { stripeAccount: request.account } : {}),
          },
        );
        if (!session.url) throw new PaymentsUnavailable('Stripe answered a Checkout Session without a url', false);
        return { url: session.url, reference: session.id };
      } catch (error) {
        throw unavailable(error, redact);
      }
    },

    async readWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent | null> {
      if (!signature) throw new WebhookSignatureError('No Stripe-Signature header');
      let event: Stripe.Event;
      try {
        // Checks the HMAC of the exact bytes received and that the signed time is at most 300 s old.
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new WebhookSignatureError(redact(error.message));
        // Signed by Stripe but not an event we can read (not JSON, or a v2 event notification):
        // authentic, so acknowledged, and nothing in it for an invoice.
        return null;
      }
      // The SDK lets any time ahead of ours through: one signed for later would stay replayable
      // until then. The same 300 s tolerance applies that way too (clocks a little apart are fine).
      const ahead = signedAt(signature) - Math.floor(Date.now() / 1000);
      if (ahead > WEBHOOK_TOLERANCE_SECONDS)
        throw new WebhookSignatureError(`Timestamp outside the tolerance zone: signed ${ahead} s in the future`);
      return paymentEventOf(event);
    },
  };
}

/**
 * The PaymentEvent a verified Stripe event reports, or null. A session is paid when it completes
 * with payment_status 'paid' (cards), or later by async_payment_succeeded (bank debits, which
 * complete 'unpaid' first). Failures and expiries change nothing on the invoice: the customer can
 * press Pay again, which starts a new session.
 */
export function paymentEventOf(event: Stripe.Event): PaymentEvent | null {
  let session: Stripe.Checkout.Session;
  if (event.type === 'checkout.session.completed') {
    session = event.data.object;
    if (session.payment_status !== 'paid') return null;
  } else if (event.type === 'checkout.session.async_payment_succeeded') {
    session = event.data.object;
  } else {
    return null;
  }
  if (session.mode !== 'payment' || session.amount_total === null || !session.currency) return null;
  const ids = invoiceOf(session);
  if (!ids) return null;
  return {
    processor: 'stripe',
    eventId: event.id,
    firmId: ids.firmId,
    invoiceId: ids.invoiceId,
    outcome: 'paid',
    amountCents: session.amount_total,
    currency: session.currency.toUpperCase(),
    reference: session.id,
    // A connected account's events arrive on the platform's endpoint too: which account took the
    // money decides whether the event may pay the invoice (apply.ts compares the workspace's).
    account: event.account ?? null,
  };
}

/** Our metadata, else the client reference `<firmId>:<invoiceId>`; null for a session that is not ours. */
function invoiceOf(session: Stripe.Checkout.Session): { firmId: number; invoiceId: number } | null {
  const firmId = positiveId(session.metadata?.[FIRM_KEY]);
  const invoiceId = positiveId(session.metadata?.[INVOICE_KEY]);
  if (firmId && invoiceId) return { firmId, invoiceId };
  const [firm, invoice, ...rest] = (session.client_reference_id ?? '').split(':');
  const fromReference = { firmId: positiveId(firm), invoiceId: positiveId(invoice) };
  return rest.length === 0 && fromReference.firmId && fromReference.invoiceId
    ? { firmId: fromReference.firmId, invoiceId: fromReference.invoiceId }
    : null;
}

function positiveId(text: string | undefined): number | null {
  if (!text || !/^[1-9][0-9]{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A Stripe failure as PaymentsUnavailable: retryable when Stripe could not be reached, failed on
 * its side or asked us to slow down; not when it refused the request (a bad key, a bad parameter,
 * a connected account that cannot take payments), which only the operator can fix.
 */
function unavailable(error: unknown, redact: (text: string) => string): unknown {
  const E = Stripe.errors;
  // Anything else (ours, or a bug) is passed on as it is rather than dressed as an outage.
  if (!(error instanceof E.StripeError)) return error;
  if (error instanceof E.StripeConnectionError) return new PaymentsUnavailable('Stripe could not be reached', true);
  if (error instanceof E.StripeRateLimitError)
    return new PaymentsUnavailable('Stripe is limiting the rate of requests', true);
  if (error instanceof E.StripeAuthenticationError)
    // Stripe's own message names (part of) the key it was sent: never repeated.
    return new PaymentsUnavailable('Stripe refused the secret key (check GROUNDWORK_STRIPE_SECRET_KEY)', false);
  if (error instanceof E.StripePermissionError)
    return new PaymentsUnavailable(`Stripe refused the request: ${redact(error.message)}`, false);
  const status = error.statusCode ?? 0;
  if (status >= 500 || status === 409 || error instanceof E.StripeAPIError)
    return new PaymentsUnavailable(`Stripe failed (${status || 'no status'}); try again`, true);
  return new PaymentsUnavailable(`Stripe refused the request (${status}): ${redact(error.message)}`, false);
}

/** The key itself and anything shaped like a Stripe secret (sk_/rk_ keys, whsec_ secrets). */
function redactKeys(text: string, secretKey: string): string {
  return text
    .split(secretKey)
    .join('[redacted]')
    .replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9*]+/g, '[redacted]')
    .replace(/\bwhsec_[A-Za-z0-9]+/g, '[redacted]');
}
