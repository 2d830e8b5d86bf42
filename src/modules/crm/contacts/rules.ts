// Pure rules of the contact record (document 2, Contact): phone formatting, email shape, the
// value keys that spot duplicates, display names, and the option lists.
import { nameKey } from '#platform/text.ts';

export const CHANNEL_KINDS = ['phone', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_LABELS = ['mobile', 'work', 'office', 'home', 'fax', 'other'] as const;
export const DEFAULT_LABEL: Record<ChannelKind, string> = { phone: 'mobile', email: 'work' };

export const LINK_ROLES = ['decision_maker', 'property_manager', 'site_contact', 'billing', 'accounts_payable', 'board_member', 'other'] as const;

/** Roles of a person on a job; the first six are the spec's, `other` is ours (docs: decisions). */
export const JOB_ROLES = ['billing', 'onsite', 'decision_maker', 'property_manager', 'estimator', 'operations', 'other'] as const;

export const PREFERRED_CHANNELS = ['call', 'text', 'email'] as const;

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

export function valueKey(kind: ChannelKind, value: string): string {
  return kind === 'email' ? emailKey(value) : phoneDigits(value);
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
  const readable = trimmed.replace(/[^\d\s().\-+]/g, '').replace(/\s+/g, ' ').trim();
  return { ok: true, value: plus ? readable : readable.replace(/^\+*/, '') };
}

/** A phone for the contact record itself: formatted when it can be, otherwise kept as typed. */
export function tidyPhone(text: string): string {
  const r = formatPhone(text);
  return r.ok ? r.value : text.trim();
}

/** Name, or company when no name; a person known only by email or phone shows that. */
export function displayNameOf(c: { name: string | null; company: string | null; email: string | null; phone: string | null }): string {
  return c.name?.trim() || c.company?.trim() || c.email?.trim() || c.phone?.trim() || 'Unnamed contact';
}

export function sortKeyOf(c: { name: string | null; company: string | null; email: string | null; phone: string | null }): string {
  return nameKey(displayNameOf(c));
}
