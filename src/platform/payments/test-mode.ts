// The built-in test mode of online payments (guide, "Outside services": the embedded default). The
// invoice page offers a card form clearly marked TEST MODE; it takes the well-known test card
// numbers Stripe publishes (https://docs.stripe.com/testing, "Test card numbers" and "Declined
// payments") with the same outcomes, so an integrator sees the behaviour they will later see from
// Stripe, and nothing is ever charged. A number that is not a test card is refused even when it is a
// valid card number: a real card typed into a test page must never look accepted.
//
// A card that goes through becomes a PaymentEvent that the billing area applies exactly as it
// applies a processor's webhook (billing/online-payments/apply.ts).
import type { TestModePayments } from './processor.ts';

export const testModePayments: TestModePayments = { name: 'test', testMode: true };

export type CardOutcome =
  | { ok: true; brand: string; last4: string }
  | {
      ok: false;
      /** Stripe's decline or error code for the same card. */
      code:
        | 'incorrect_number'
        | 'invalid_expiry'
        | 'expired_card'
        | 'invalid_cvc'
        | 'incorrect_cvc'
        | 'card_declined'
        | 'insufficient_funds'
        | 'lost_card'
        | 'stolen_card'
        | 'processing_error'
        | 'not_a_test_card';
      message: string;
    };

/** Test cards that pay, by number, with their brand (Stripe's list). */
const PAYING: Readonly<Record<string, string>> = {
  '4242424242424242': 'Visa',
  '4000056655665556': 'Visa (debit)',
  '5555555555554444': 'Mastercard',
  '2223003122003222': 'Mastercard',
  '378282246310005': 'American Express',
  '6011111111111117': 'Discover',
};

/** Test cards that are declined, with the decline Stripe gives them. */
const DECLINED: Readonly<Record<string, Extract<CardOutcome, { ok: false }>>> = {
  '4000000000000002': { ok: false, code: 'card_declined', message: 'Your card was declined.' },
  '4000000000009995': { ok: false, code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000009987': { ok: false, code: 'lost_card', message: 'Your card was declined.' },
  '4000000000009979': { ok: false, code: 'stolen_card', message: 'Your card was declined.' },
  '4000000000000069': { ok: false, code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { ok: false, code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000000000000119': {
    ok: false,
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

/** The Luhn checksum every card number carries (ISO/IEC 7812-1). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardInput {
  number: string;
  /** MM/YY or MM/YYYY as typed. */
  expiry: string;
  cvc: string;
}

/**
 * What charging this card would do in test mode, checked in the order a processor checks: the
 * number, the expiry (against `today`, YYYY-MM-DD), the security code, then the card's own outcome.
 */
export function chargeTestCard(card: CardInput, today: string): CardOutcome {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number))
    return { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12)
    return { ok: false, code: 'invalid_expiry', message: "Your card's expiration date is incomplete (MM/YY)." };
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (year < thisYear || (year === thisYear && month < thisMonth))
    return { ok: false, code: 'expired_card', message: 'Your card has expired.' };
  const amex = number.startsWith('34') || number.startsWith('37');
  if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc.trim()))
    return { ok: false, code: 'invalid_cvc', message: "Your card's security code is incomplete." };
  const declined = DECLINED[number];
  if (declined) return declined;
  const brand = PAYING[number];
  if (!brand)
    return {
      ok: false,
      code: 'not_a_test_card',
      message: 'This page is in test mode and takes test cards only, such as 4242 4242 4242 4242. Nothing is charged.',
    };
  return { ok: true, brand, last4: number.slice(-4) };
}
