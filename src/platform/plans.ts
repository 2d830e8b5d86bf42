// Plans and billing states (document 1, Authentication: Plan).
export const PLANS = ['trial', 'bronze', 'silver', 'gold', 'platinum'] as const;
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'trial_ended', 'past_due', 'canceled'] as const;
export type Plan = (typeof PLANS)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** API access needs Gold or higher. A trial runs with the full product, so it includes the API. */
export function planIncludesApi(plan: string): boolean {
  return plan === 'gold' || plan === 'platinum' || plan === 'trial';
}

/** Past due, canceled and ended trials are refused with 402. */
export function billingBlocked(status: string): boolean {
  return status === 'past_due' || status === 'canceled' || status === 'trial_ended';
}

/** Features the plan gates beyond API access (document 1: Blueprint takeoffs and Manual Aerial need Gold or higher). */
export type PlanFeature = 'blueprint_takeoffs' | 'manual_aerial';

/**
 * Whether the plan includes a gated feature. Both need Gold or higher, the same plans as API
 * access, so a key that got past the plan check always has them; the checks stay where the spec
 * puts them so a plan table that parts them later changes one function.
 */
export function planIncludes(plan: string, _feature: PlanFeature): boolean {
  return planIncludesApi(plan);
}
