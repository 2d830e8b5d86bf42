// The pure rules of leads: states and their labels, what a submission reads as (answers, services),
// the auto-spam rule and the address parts routing reads. No I/O here; intake.ts and routing.ts apply them.

export const LEAD_STATUSES = ['new', 'contacted', 'converted', 'dismissed', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_FILTERS = ['all', 'open', ...LEAD_STATUSES] as const;

export const STATUS_LABEL: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  converted: 'Moving forward',
  dismissed: 'Dismissed',
  spam: 'Spam',
};

/** Open leads are in the inbox: nobody has closed them. */
export const OPEN_STATUSES: readonly LeadStatus[] = ['new', 'contacted'];
export const CLOSED_BY_DISMISSAL: readonly LeadStatus[] = ['dismissed', 'spam'];

export const SOURCE_KINDS = ['form', 'portal', 'api', 'manual'] as const;

export const TIMINGS = ['asap', '30_days', 'this_season', 'budgeting', 'unsure'] as const;
export const TIMING_LABEL: Record<(typeof TIMINGS)[number], string> = {
  asap: 'As soon as possible',
  '30_days': 'Within 30 days',
  this_season: 'This season',
  budgeting: 'Just budgeting',
  unsure: 'Not sure yet',
};

export const CONTACT_HOWS = ['call', 'email', 'text', 'meeting', 'other'] as const;
export type ContactHow = (typeof CONTACT_HOWS)[number];
/** first_contact_kind: how someone first reached out (task: the follow-up was completed; marked: POST contacted with how other). */
export type FirstContactKind = 'call' | 'email' | 'text' | 'meeting' | 'task' | 'marked';

/** Logged interactions that count as reaching out (document 2, Lead states). */
export const REACHING_OUT: readonly string[] = ['call', 'email', 'meeting'];

export const FOLLOW_UP_TITLE = 'Call new lead';

/** Phone numbers of a lead: 10 to 15 digits. */
export const PHONE_DIGITS = { min: 10, max: 15 } as const;

export interface Answer {
  label: string;
  value: string;
}

/** What the submission said beyond the person's own details, as label and value pairs. */
export function answersOf(s: {
  message: string | null;
  services: readonly string[];
  timing: string | null;
  property_type: string | null;
}): Answer[] {
  const out: Answer[] = [];
  if (s.services.length > 0) out.push({ label: 'Services', value: s.services.join(', ') });
  if (s.timing) out.push({ label: 'Timing', value: TIMING_LABEL[s.timing as keyof typeof TIMING_LABEL] ?? s.timing });
  if (s.property_type) out.push({ label: 'Property type', value: s.property_type });
  if (s.message) out.push({ label: 'Message', value: s.message });
  return out;
}

// ---- auto-spam ---------------------------------------------------------------------------------

/**
 * Throwaway-inbox domains: the ten best-known entries of the community list at
 * github.com/disposable-email-domains/disposable-email-domains (disposable_email_blocklist.conf).
 */
export const DISPOSABLE_EMAIL_DOMAINS: readonly string[] = [
  '10minutemail.com',
  'dispostable.com',
  'getnada.com',
  'guerrillamail.com',
  'mailinator.com',
  'maildrop.cc',
  'sharklasers.com',
  'temp-mail.org',
  'trashmail.com',
  'yopmail.com',
];

/** More links than this in the message is spam. */
export const MAX_LINKS_IN_MESSAGE = 2;

const LINK = /\b(?:https?:\/\/|www\.)\S+/gi;

export function linksIn(text: string): number {
  return (text.match(LINK) ?? []).length;
}

/**
 * Why a submission is spam, or null (docs/api-decisions.md, "Leads: auto_spam"). Deterministic: the
 * same submission always gets the same answer.
 */
export function autoSpamReason(s: { name: string; email: string | null; message: string | null }): string | null {
  if (linksIn(s.name) > 0) return 'the name holds a link';
  if (s.email) {
    const domain = s.email.slice(s.email.lastIndexOf('@') + 1).toLowerCase();
    if (DISPOSABLE_EMAIL_DOMAINS.includes(domain)) return `the email is at a throwaway domain (${domain})`;
  }
  if (s.message) {
    const links = linksIn(s.message);
    if (links > MAX_LINKS_IN_MESSAGE) return `the message holds ${links} links`;
    if (links > 0 && s.message.replace(LINK, '').trim() === '') return 'the message is only links';
  }
  return null;
}

// ---- address parts for territory rules ---------------------------------------------------------

export { zipOf } from '#platform/address-parts.ts';

/**
 * Whether `city` is the address's city: a comma-separated part of the address equals it (any case),
 * as written or once a trailing ZIP, or state and ZIP, are taken off ("Columbus, OH 43215" and
 * "Columbus OH 43215" both name Columbus).
 */
export function addressInCity(address: string | null, city: string): boolean {
  if (!address) return false;
  const want = city.trim().replace(/\s+/g, ' ').toLowerCase();
  for (const raw of address.split(',')) {
    const part = raw.trim().replace(/\s+/g, ' ').toLowerCase();
    const noZip = part.replace(/\s*\d{5}(?:-\d{4})?$/, '').trim();
    const noState = noZip.replace(/\s+[a-z]{2}$/, '').trim();
    if (part === want || noZip === want || noState === want) return true;
  }
  return false;
}
