// The event names of document 1 (Events) and what a subscription's event_type receives.

/** Business events: in the feed, deliverable by webhook. */
export const BUSINESS_EVENTS = [
  'job_won',
  'job_lost',
  'job_cancelled',
  'job_completed',
  'job_scheduled',
  'work_order_completed',
  'estimate_created',
  'estimate_issued',
  'estimate_revised',
  'estimate_approved',
  'estimate_declined',
  'change_order_approved',
  'invoice_created',
  'payment_received',
] as const;

/** Job and proposal events: delivered by webhook only (the feed keeps its own raw job events). */
export const JOB_PROPOSAL_EVENTS = [
  'job_created',
  'job_updated',
  'job_status_changed',
  'proposal_sent',
  'proposal_viewed',
  'proposal_accepted',
  'proposal_declined',
] as const;

/** What the feed holds: the two raw job events and the business events. */
export const FEED_EVENTS: readonly string[] = ['job_created', 'job_status_changed', ...BUSINESS_EVENTS];

export type BusinessEvent = (typeof BUSINESS_EVENTS)[number];
export type JobProposalEvent = (typeof JOB_PROPOSAL_EVENTS)[number];

/** The dotted alias of a business event: its entity, a dot, its verb (estimate.revised). */
const DOTTED: Record<BusinessEvent, string> = {
  job_won: 'job.won',
  job_lost: 'job.lost',
  job_cancelled: 'job.cancelled',
  job_completed: 'job.completed',
  job_scheduled: 'job.scheduled',
  work_order_completed: 'work_order.completed',
  estimate_created: 'estimate.created',
  estimate_issued: 'estimate.issued',
  estimate_revised: 'estimate.revised',
  estimate_approved: 'estimate.approved',
  estimate_declined: 'estimate.declined',
  change_order_approved: 'change_order.approved',
  invoice_created: 'invoice.created',
  payment_received: 'payment.received',
};

const FROM_DOTTED = new Map(Object.entries(DOTTED).map(([name, alias]) => [alias, name]));
const BUSINESS = new Set<string>(BUSINESS_EVENTS);
const JOB_PROPOSAL = new Set<string>(JOB_PROPOSAL_EVENTS);

/** Every accepted subscription name, in the order the 400 lists them. */
export const SUBSCRIPTION_NAMES: readonly string[] = [
  'all',
  '*',
  ...BUSINESS_EVENTS,
  ...BUSINESS_EVENTS.map((e) => DOTTED[e]),
  ...JOB_PROPOSAL_EVENTS,
];

export const DEFAULT_SUBSCRIPTION = 'job_status_changed';

/**
 * What a subscription's event_type may name and what `all` and `*` receive, listed from the
 * catalogue itself: the OpenAPI document shows this, so it can never drift from what is delivered.
 */
export const SUBSCRIPTION_NAMES_TEXT =
  `One event by name (a business event also by its dotted alias, estimate.revised), or a family: ` +
  `\`all\` receives every business event, exactly ${BUSINESS_EVENTS.join(', ')}; ` +
  `\`*\` receives every job and proposal event, exactly ${JOB_PROPOSAL_EVENTS.join(', ')}. ` +
  `\`all\` never sends a job or proposal event (so no proposal_accepted) and \`*\` never sends a business event: ` +
  `to receive everything, create two subscriptions. Omitted: ${DEFAULT_SUBSCRIPTION} only.`;

/** The stored form of a subscription name (dotted aliases become underscore names), or null. */
export function canonicalSubscription(name: string): string | null {
  if (name === 'all' || name === '*' || BUSINESS.has(name) || JOB_PROPOSAL.has(name)) return name;
  return FROM_DOTTED.get(name) ?? null;
}

/** An event name given as itself or as its dotted alias, as the underscore name. */
export function eventNameOf(name: string): string {
  return FROM_DOTTED.get(name) ?? name;
}

/**
 * Whether an event can go out by webhook at all: business events (from the feed) and the
 * webhook-only job and proposal events. The feed's raw job_created / job_status_changed have
 * webhook-only twins and are never delivered themselves.
 */
export function isDeliverable(type: string, inFeed: boolean): boolean {
  return inFeed ? BUSINESS.has(type) : JOB_PROPOSAL.has(type);
}

/** Subscription names that receive a deliverable event: its own name and its family's wildcard. */
export function subscriptionsReceiving(type: string, inFeed: boolean): string[] {
  if (!isDeliverable(type, inFeed)) return [];
  return [type, inFeed ? 'all' : '*'];
}
