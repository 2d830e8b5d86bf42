// Which payments a process uses: Stripe when GROUNDWORK_STRIPE_SECRET_KEY is set (config.ts checks
// its webhook secret and API URL at start), the built-in test mode otherwise. Built once per
// process into the dependency bag (deps.ts), never per request.
import type { Payments } from './processor.ts';
import { stripePayments, type StripeSettings } from './stripe.ts';
import { testModePayments } from './test-mode.ts';

export interface PaymentSettings {
  /** GROUNDWORK_STRIPE_*: null keeps the built-in test mode. */
  stripe: StripeSettings | null;
}

export function paymentsFor(settings: PaymentSettings | null): Payments {
  return settings?.stripe ? stripePayments(settings.stripe) : testModePayments;
}
