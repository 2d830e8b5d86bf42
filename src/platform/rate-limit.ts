// Rate limits (docs/api-decisions.md, Rate limits): a fixed window per bucket, counted once the
// caller is known. A call whose key the server knows counts against that key (its id), so neither
// a forged key sharing its public prefix nor a random one can spend it. A call without a usable key
// (missing, malformed, unknown or revoked) counts against its client address, so a flood of made-up
// keys is limited like any one caller. Keys and addresses are counted in separate stores: a flood
// from many addresses can push out only other addresses' counters, never a key's. The operator's
// /admin/v1 counts per address. The window store is @fastify/rate-limit's (in memory, per process).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { ApiError } from './errors.ts';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

/** Counts one call against a bucket: sets the x-ratelimit-* headers, or throws 429 when over. */
export type CountCall = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface ApiLimits {
  /** A call by the key with this id, or (null) a call without a usable key, by its address. */
  count(request: FastifyRequest, reply: FastifyReply, keyId: number | null): Promise<void>;
  /**
   * For calls counted only when they succeed (document 1: each successful condition rating counts
   * as one call; errors are not counted): 429 when the key has no call left in its window, without
   * spending one. `charge` spends it once the call has succeeded.
   */
  peek(request: FastifyRequest, reply: FastifyReply, keyId: number): Promise<void>;
  charge(request: FastifyRequest, reply: FastifyReply, keyId: number): Promise<void>;
  /** An /admin/v1 call, by its address. */
  admin: CountCall;
}

/** The client's address (IPv6 by its /64, one host's network), as the trusted-proxy setting resolves it. */
const addressOf = (request: FastifyRequest) => `ip:${normalizeIP(request.ip)}`;

function tooMany(max: number, windowMs: number, resetSeconds: number) {
  return new ApiError(429, 'Too many requests', {
    message: `Rate limit of ${max} calls per ${windowMs / 1000} s reached; retry after ${resetSeconds} s`,
    code: 'rate_limited',
    usage: { limit: max, remaining: 0, reset_seconds: resetSeconds },
  });
}

/** One window store; `bucketOf` names the bucket a request counts in. */
function counter(app: FastifyInstance, config: RateLimitConfig) {
  const buckets = new WeakMap<FastifyRequest, string>();
  const check = app.createRateLimit({
    max: config.max,
    timeWindow: config.windowMs,
    keyGenerator: (request) => buckets.get(request)!,
  });
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    bucket: string,
    mode: 'count' | 'peek' | 'charge' = 'count',
  ): Promise<void> => {
    buckets.set(request, bucket);
    const result = await check(request, mode === 'peek' ? { increment: false } : undefined);
    if (result.isAllowed) return;
    // A charge comes after the answer is decided: it spends the call and never refuses.
    if (mode === 'charge') return;
    // A peek refuses when the next call would be over: no call is left in the window.
    if (mode === 'peek' && result.remaining <= 0) {
      reply.header('retry-after', Math.max(1, result.ttlInSeconds));
      throw tooMany(result.max, config.windowMs, Math.max(1, result.ttlInSeconds));
    }
    const reset = Math.max(1, result.ttlInSeconds);
    reply.header('x-ratelimit-limit', result.max);
    reply.header('x-ratelimit-remaining', result.remaining);
    reply.header('x-ratelimit-reset', reset);
    if (!result.isExceeded) return;
    reply.header('retry-after', reset);
    throw tooMany(result.max, config.windowMs, reset);
  };
}

export async function installRateLimits(
  app: FastifyInstance,
  api: RateLimitConfig,
  admin: RateLimitConfig = api,
): Promise<ApiLimits> {
  // Registered only for its window store (createRateLimit); no route gets the plugin's own hook.
  await app.register(rateLimit, { global: false });
  const keys = counter(app, api);
  const addresses = counter(app, api);
  const operator = counter(app, admin);
  return {
    count: (request, reply, keyId) =>
      keyId === null ? addresses(request, reply, addressOf(request)) : keys(request, reply, `key:${keyId}`),
    peek: (request, reply, keyId) => keys(request, reply, `key:${keyId}`, 'peek'),
    charge: (request, reply, keyId) => keys(request, reply, `key:${keyId}`, 'charge'),
    admin: (request, reply) => operator(request, reply, addressOf(request)),
  };
}
