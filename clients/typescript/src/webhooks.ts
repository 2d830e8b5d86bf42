// Receiving a webhook delivery (document 1, Receiving a delivery and Signature): the signature is
// HMAC-SHA256 keyed with the subscription secret over `<X-Service-Timestamp>.<raw body>`, sent as
// `sha256=<lowercase hex>`. Verified over the exact bytes received, never a re-serialised body, in
// constant time, and only within a tolerance of the signing time so a captured delivery cannot
// be replayed later. node:crypto, because the client targets Node.js 20 and later, where it is
// synchronous and needs no WebCrypto key import.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a delivery was refused. */
export type WebhookFailure =
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'malformed_body';

/** Thrown by verifyWebhook; `reason` says which check failed (log it, answer 400). */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/**
 * What every delivery body carries. The rest depends on the event type (job and proposal events
 * carry `job`, business events their record); new fields may appear without notice.
 */
export interface WebhookEvent {
  event_type: string;
  event_id: string;
  [field: string]: unknown;
}

/** Node's `req.headers` (any case, repeated headers as arrays), a plain object, or a fetch Headers. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way, in seconds. Document 1's reference: 300. */
  toleranceSeconds?: number;
  /** The time to check against (tests, or a queue that verifies later). Default: the clock. */
  now?: Date;
}

/**
 * A header's value, undefined when absent. The sender sends each header once: a repeated one
 * (an array here, a comma-joined list in Headers) fails the format checks as malformed.
 */
function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}

const encoder = new TextEncoder();

/**
 * Verifies a delivery and returns its parsed body; throws WebhookVerificationError otherwise.
 * Pass the body exactly as received (a Buffer or the string of those bytes): a body parsed and
 * serialised again will not verify.
 */
export function verifyWebhook<T extends WebhookEvent = WebhookEvent>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): T {
  // An empty secret (an unset environment variable) would accept anything signed with ''.
  if (typeof secret !== 'string' || secret === '') throw new TypeError('verifyWebhook needs the subscription secret');
  const tolerance = options.toleranceSeconds ?? 300;

  const timestamp = header(headers, 'x-service-timestamp');
  if (timestamp === undefined) throw new WebhookVerificationError('missing_timestamp', 'No X-Service-Timestamp header');
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError('malformed_timestamp', 'X-Service-Timestamp is not Unix seconds');
  }
  const signature = header(headers, 'x-service-signature');
  if (signature === undefined) {
    throw new WebhookVerificationError('missing_signature', 'No X-Service-Signature header (is a secret set?)');
  }
  const hex = /^sha256=([0-9a-f]{64})$/.exec(signature)?.[1];
  if (hex === undefined) {
    throw new WebhookVerificationError('malformed_signature', 'X-Service-Signature is not sha256=<64 lowercase hex>');
  }

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  // Both are 32 bytes (the pattern above), as timingSafeEqual requires.
  if (!timingSafeEqual(Buffer.from(hex, 'hex'), expected)) {
    throw new WebhookVerificationError('signature_mismatch', 'X-Service-Signature does not match the body');
  }

  // Checked after the signature, so this reason always means an authentic delivery replayed late.
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `X-Service-Timestamp is more than ${tolerance} seconds from now`,
    );
  }

  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as T;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The signed body is not JSON');
  }
}
