// Document 1, Retry rules: retry network errors, 429, 500, 502, 503 and 504 with exponential
// backoff and jitter (about 1, 2, 4, 8 seconds, up to five tries), honour Retry-After, and never
// retry 400, 401, 402, 403, 404, 409, 422 (nor any other 4xx): the same call would fail the same way.
//
// withRetry wraps a function rather than a request so each try builds its call afresh (a body
// stream can be sent only once). Which calls are safe to repeat is the caller's decision (rule 3
// and 4: GET, PATCH and DELETE are; a create POST is when it carries an external_ref).

/** What the wrapped function may return: a fetch Response or an openapi-fetch result. */
export type Attempt = Response | { response: Response };

export interface RetryOptions {
  /** Tries in all, the first included. Default 5. */
  maxAttempts?: number;
  /** The backoff cap before the first retry; doubles per retry (1, 2, 4, 8 s). Default 1000. */
  baseDelayMs?: number;
  /** The largest backoff cap. Default 8000. */
  maxDelayMs?: number;
  /**
   * A Retry-After longer than this is not waited out: the answer is returned for the caller to
   * decide (a silent hour-long wait is worse than an error). Default 60000.
   */
  maxRetryAfterMs?: number;
  /** Whether a thrown error is a network failure worth another try. Default: see isNetworkError. */
  retryOnError?: (error: unknown) => boolean;
  /** Called before each wait; for logging. */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; error?: unknown }) => void;
  /** Waits; injectable so tests need not. Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
  /** The clock in ms, for Retry-After given as an HTTP date. Default Date.now. */
  now?: () => number;
}

const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/** 429, 500, 502, 503 and 504; everything else (other 4xx, other 5xx, success) is final. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status);
}

/**
 * fetch rejects with a TypeError when the connection fails (refused, reset, DNS) and with a
 * TimeoutError from AbortSignal.timeout(); an AbortError is the caller cancelling, not a failure.
 */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError');
}

/** Retry-After in ms from seconds or an HTTP date (never negative); undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now: number = Date.now()): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const responseOf = (result: Attempt): Response => (result instanceof Response ? result : result.response);

/** A raw Response not returned holds its connection until read; openapi-fetch has read its own. */
async function discard(result: Attempt): Promise<void> {
  if (result instanceof Response && !result.bodyUsed) await result.body?.cancel().catch(() => {});
}

/**
 * Calls `fn` until it gives a final answer or the tries run out, and returns that answer: a
 * success, a non-retryable error, or the last retryable one. A network error thrown by the last
 * try (or one `retryOnError` refuses) is thrown. `fn` gets the try number, from 1.
 */
export async function withRetry<T extends Attempt>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const retryOnError = options.retryOnError ?? isNetworkError;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  for (let attempt = 1; ; attempt++) {
    // Full jitter: anywhere up to the doubled cap, so many clients failing at once spread out.
    const backoff = Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
    let result: T;
    try {
      result = await fn(attempt);
    } catch (error) {
      if (attempt >= maxAttempts || !retryOnError(error)) throw error;
      options.onRetry?.({ attempt, delayMs: backoff, error });
      await sleep(backoff);
      continue;
    }
    const response = responseOf(result);
    if (attempt >= maxAttempts || !isRetryableStatus(response.status)) return result;
    const told = retryAfterMs(response, now());
    if (told !== undefined && told > maxRetryAfterMs) return result;
    const delayMs = told ?? backoff;
    await discard(result);
    options.onRetry?.({ attempt, delayMs, status: response.status });
    await sleep(delayMs);
  }
}
