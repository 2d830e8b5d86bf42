// Online payments (guide, "Outside services"; document 3, Request payment online): one small
// interface in front of whoever takes the customer's money. The embedded default is the built-in
// test mode (test-mode.ts): the invoice page offers a clearly marked test card form and nothing is
// charged. The production adapter is Stripe (stripe.ts), chosen by GROUNDWORK_STRIPE_SECRET_KEY.
//
// Either way a payment reaches the invoice the same way: the processor reports a PaymentEvent
// (Stripe through its signed webhook, test mode from its own card form) and the billing area applies
// it once per event id (billing/online-payments/apply.ts).

/** What the invoice page asks the processor for when the customer presses Pay. */
export interface CheckoutRequest {
  firmId: number;
  invoiceId: number;
  amountCents: number;
  /** ISO 4217, upper case as stored (USD). */
  currency: string;
  /** The line the customer sees at the processor ("Invoice 1042 — Northgate Plaza"). */
  description: string;
  customerEmail: string | null;
  /** Where the processor sends the customer back after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
  /** Repeating a request with the same key gives the same checkout (a double click opens one). */
  idempotencyKey: string;
  /** A connected account to charge on behalf of (Stripe Connect), or null for the platform's own. */
  account: string | null;
}

export interface Checkout {
  /** The processor's page the customer is sent to. */
  url: string;
  /** The processor's id of the checkout (Stripe: the Checkout Session id). */
  reference: string;
}

/** Statuses an online invoice takes; only the processor sets them (document 3, Invoice). */
export type OnlineOutcome = 'paid' | 'void' | 'uncollectible';

/** A processor's report that concerns one of our invoices. */
export interface PaymentEvent {
  processor: 'test' | 'stripe';
  /** The processor's id of this event: an event applied once stays applied (replays change nothing). */
  eventId: string;
  firmId: number;
  invoiceId: number;
  outcome: OnlineOutcome;
  /** What the processor collected, in the smallest unit of `currency`. */
  amountCents: number;
  currency: string;
  /** The processor's id of the payment (Stripe: the Checkout Session id), kept on the invoice. */
  reference: string | null;
  /**
   * The connected account the payment went to (Stripe Connect), null for the server's own. An event
   * pays an invoice only when this is the workspace's account: the owner of another connected
   * account could otherwise make a checkout naming someone else's invoice and pay it to themselves.
   */
  account: string | null;
}

/** A webhook whose signature does not verify (forged, altered, or signed with another secret). */
export class WebhookSignatureError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookSignatureError';
  }
}

/** The processor could not be reached or refused the request (a 502 for the customer's page). */
export class PaymentsUnavailable extends Error {
  readonly retryable: boolean;
  constructor(reason: string, retryable = true) {
    super(reason);
    this.name = 'PaymentsUnavailable';
    this.retryable = retryable;
  }
}

/** The built-in test mode: customers pay with test cards on our own page; nothing is charged. */
export interface TestModePayments {
  readonly name: 'test';
  readonly testMode: true;
}

/** A real processor: a hosted checkout page, and signed webhooks telling us what happened. */
export interface ProcessorPayments {
  readonly name: 'stripe';
  readonly testMode: false;
  startCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Verifies the signature of a webhook body as received (raw bytes) and reads it: the event when
   * it reports a payment outcome for one of our invoices, null for events that do not (others are
   * acknowledged and ignored). Throws WebhookSignatureError when the signature does not verify.
   */
  readWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent | null>;
}

export type Payments = TestModePayments | ProcessorPayments;
