// Pure rules of the contact record (document 2, Contact): the value keys that spot duplicates,
// display names and the option lists. Email and phone rules are platform/email-phone.ts.
import { emailKey, phoneDigits } from '#platform/email-phone.ts';
import { nameKey } from '#platform/text.ts';

export const CHANNEL_KINDS = ['phone', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_LABELS = ['mobile', 'work', 'office', 'home', 'fax', 'other'] as const;
export const DEFAULT_LABEL: Record<ChannelKind, string> = { phone: 'mobile', email: 'work' };

export const LINK_ROLES = [
  'decision_maker',
  'property_manager',
  'site_contact',
  'billing',
  'accounts_payable',
  'board_member',
  'other',
] as const;

/** Roles of a person on a job; the first six are the spec's, `other` is ours (docs: decisions). */
export const JOB_ROLES = [
  'billing',
  'onsite',
  'decision_maker',
  'property_manager',
  'estimator',
  'operations',
  'other',
] as const;

export const PREFERRED_CHANNELS = ['call', 'text', 'email'] as const;

export function valueKey(kind: ChannelKind, value: string): string {
  return kind === 'email' ? emailKey(value) : phoneDigits(value);
}

/** Name, or company when no name; a person known only by email or phone shows that. */
export function displayNameOf(c: {
  name: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
}): string {
  return c.name?.trim() || c.company?.trim() || c.email?.trim() || c.phone?.trim() || 'Unnamed contact';
}

export function sortKeyOf(c: {
  name: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
}): string {
  return nameKey(displayNameOf(c));
}
