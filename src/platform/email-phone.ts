// The one rule for each kind of contact value, used by every route that takes one: contacts and
// their channels, people added to jobs, customers, a job's contact and billing fields, and the
// admin API's users (its `format: 'email'` is this rule too, see ajv.ts).
import { badRequest } from './errors.ts';

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** True when `text` has the shape of an email address (something@domain.tld). */
export function looksLikeEmail(text: string): boolean {
  return EMAIL.test(text.trim());
}

export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

export type PhoneResult = { ok: true; value: string } | { ok: false; reason: 'short' | 'long' };

const us = (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;

/**
 * Formats a phone number: 10 digits are a US number `(555) 123-4567`; 11 starting with 1 are
 * `+1 (555) 123-4567`; any other number written with a leading + (8 to 15 digits) keeps the
 * caller's grouping with spacing tidied. Without a +, fewer than 10 digits is not a whole number.
 */
export function formatPhone(text: string): PhoneResult {
  const trimmed = text.trim();
  const digits = phoneDigits(trimmed);
  const plus = trimmed.startsWith('+');
  if (digits.length > 15) return { ok: false, reason: 'long' };
  if (digits.length === 10 && !plus) return { ok: true, value: us(digits) };
  if (digits.length === 11 && digits.startsWith('1')) return { ok: true, value: `+1 ${us(digits.slice(1))}` };
  if (digits.length < (plus ? 8 : 10)) return { ok: false, reason: 'short' };
  // Kept readable: digits and the usual separators, one space between groups.
  const readable = trimmed
    .replace(/[^\d\s().\-+]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { ok: true, value: plus ? readable : readable.replace(/^\+*/, '') };
}

/** Trimmed text, blank meaning none (null); undefined stays undefined (not sent). */
function blankToNull(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : value === null ? null : value.trim() || null;
}

/**
 * An email field of a body: trimmed, blank clears it (null), otherwise an address or
 * `400 {error, code: invalid_email, field}`. `error` is the endpoint's documented sentence.
 */
export function emailField(
  value: string | null | undefined,
  field: string,
  error = `${field} does not look like an email address`,
): string | null | undefined {
  const email = blankToNull(value);
  if (email && !looksLikeEmail(email)) throw badRequest(error, { code: 'invalid_email', field });
  return email;
}

/**
 * A phone field of a body: trimmed, blank clears it (null), otherwise stored formatted
 * (formatPhone) or `400 {error, code: invalid_phone, field}` with the channel endpoint's sentences.
 */
export function phoneField(value: string | null | undefined, field: string): string | null | undefined {
  const phone = blankToNull(value);
  if (!phone) return phone;
  const result = formatPhone(phone);
  if (!result.ok) {
    throw badRequest(
      result.reason === 'short' ? 'Type the whole phone number.' : 'That phone number has too many digits.',
      { code: 'invalid_phone', field },
    );
  }
  return result.value;
}
