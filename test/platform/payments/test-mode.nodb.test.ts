// The built-in test mode's cards (platform/payments/test-mode.ts) against Stripe's published test
// numbers (https://docs.stripe.com/testing): the ones that pay, the declines with Stripe's codes, the
// checks made first (number, expiry, security code), and that a valid real card is never accepted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeTestCard, luhnValid } from '#platform/payments/test-mode.ts';

const TODAY = '2026-11-27';
const card = (number: string, expiry = '12/30', cvc = '123') => chargeTestCard({ number, expiry, cvc }, TODAY);

describe('chargeTestCard', () => {
  it('pays with the published success cards, spaced or not', () => {
    expect(card('4242 4242 4242 4242')).toEqual({ ok: true, brand: 'Visa', last4: '4242' });
    expect(card('4000-0566-5566-5556')).toMatchObject({ ok: true, brand: 'Visa (debit)' });
    expect(card('5555555555554444')).toMatchObject({ ok: true, brand: 'Mastercard' });
    expect(card('378282246310005', '12/30', '1234')).toMatchObject({ ok: true, brand: 'American Express' });
  });

  it('declines the published decline cards with Stripe’s codes', () => {
    expect(card('4000000000000002')).toMatchObject({ ok: false, code: 'card_declined' });
    expect(card('4000000000009995')).toMatchObject({ ok: false, code: 'insufficient_funds' });
    expect(card('4000000000009987')).toMatchObject({ ok: false, code: 'lost_card' });
    expect(card('4000000000000069')).toMatchObject({ ok: false, code: 'expired_card' });
    expect(card('4000000000000127')).toMatchObject({ ok: false, code: 'incorrect_cvc' });
    expect(card('4000000000000119')).toMatchObject({ ok: false, code: 'processing_error' });
  });

  it('checks the number, then the expiry, then the security code', () => {
    expect(card('4242424242424241')).toMatchObject({ code: 'incorrect_number' });
    expect(card('4242')).toMatchObject({ code: 'incorrect_number' });
    expect(card('4242424242424242', '13/30')).toMatchObject({ code: 'invalid_expiry' });
    expect(card('4242424242424242', 'soon')).toMatchObject({ code: 'invalid_expiry' });
    expect(card('4242424242424242', '10/26')).toMatchObject({ code: 'expired_card' });
    expect(card('4242424242424242', '11/2026')).toMatchObject({ ok: true });
    expect(card('4242424242424242', '12/30', '12')).toMatchObject({ code: 'invalid_cvc' });
    expect(card('378282246310005', '12/30', '123')).toMatchObject({ code: 'invalid_cvc' });
  });

  it('refuses a valid card number that is not a test card', () => {
    expect(card('4111111111111111')).toMatchObject({ ok: false, code: 'not_a_test_card' });
  });

  it('luhnValid: appending the check digit makes any number valid, and changing one digit breaks it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 18 }),
        fc.nat(),
        (digits, at) => {
          const body = digits.join('');
          const check = [...Array(10).keys()].find((d) => luhnValid(`${body}${d}`));
          expect(check).toBeDefined();
          const valid = `${body}${check}`;
          const i = at % valid.length;
          const changed = `${valid.slice(0, i)}${(Number(valid[i]) + 1) % 10}${valid.slice(i + 1)}`;
          expect(luhnValid(changed)).toBe(false);
        },
      ),
    );
  });
});
