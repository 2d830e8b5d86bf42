// Document 1, Retries: 7 attempts; after failure n the next waits at least RETRY_DELAYS_MS[n-1].
export const MAX_ATTEMPTS = 7;

const MINUTE = 60_000;
export const RETRY_DELAYS_MS = [
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  120 * MINUTE,
  360 * MINUTE,
  1440 * MINUTE,
] as const;

/** When attempt `failures + 1` may go out after the `failures`-th failure at `failedAt`, or null: give up. */
export function nextAttemptAfter(failures: number, failedAt: number): number | null {
  if (failures >= MAX_ATTEMPTS) return null;
  return failedAt + RETRY_DELAYS_MS[failures - 1]!;
}
