// The typed Groundwork client: openapi-fetch over the types generated from the server's OpenAPI
// document (schema.d.ts), with the key and, for partner keys, the workspace added to every call.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
export type { VerifyWebhookOptions, WebhookFailure } from './webhooks.js';
export {
  withRetry,
  isNetworkError,
  isRetryableStatus,
  retryAfterMs,
  type Attempt,
  type RetryOptions,
} from './retry.js';

export interface GroundworkClientOptions {
  /** The server's origin, e.g. `https://groundwork.example.com` (paths carry their own `/v1`). */
  baseUrl: string;
  /** A workspace key or a partner key, sent as `X-API-Key`. */
  apiKey: string;
  /** For partner keys: the workspace to act for, sent as `firm_id` on every call. */
  firmId?: number;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: (input: Request) => Promise<Response>;
}

export type GroundworkClient = Client<paths>;

/**
 * Partner keys must name the workspace on every call (document 1, Authentication). The query
 * string works for reads and writes alike, so one middleware covers every operation without
 * touching bodies (multipart ones included).
 */
function firmIdMiddleware(firmId: number): Middleware {
  return {
    onRequest({ request }) {
      const url = new URL(request.url);
      url.searchParams.set('firm_id', String(firmId));
      // The request itself as init keeps method, headers, body and signal.
      return new Request(url, request);
    },
  };
}

export function createGroundworkClient(options: GroundworkClientOptions): GroundworkClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { 'X-API-Key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.firmId !== undefined) client.use(firmIdMiddleware(options.firmId));
  return client;
}
