// Rate limits (docs/api-decisions.md, Rate limits): a fixed window per bucket, counted once the
// caller is known. A call whose key the server knows counts against that key (its id), so neither
// a forged key sharing its public prefix nor a random one can spend it. A call without a usable key
// (missing, malformed, unknown or revoked) counts against its client address, so a flood of made-up
// keys is limited like any one caller. Keys and addresses are counted in separate stores: a flood
// from many addresses can push out only other addresses' counters, never a key's. The operator's
// /admin/v1 counts per address. The windows are kept in memory, per process (window-store.ts),
// and counted synchronously: every /v1 call passes here, and an asynchronous count cost about 5%
// of a cached job read (docs/performance.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import { ApiError } from './errors.ts';
import { WindowStore } from './window-store.ts';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
}

/** Counts one call against a bucket: sets the x-ratelimit-* headers, or throws 429 when over. */
export type CountCall = (request: FastifyRequest, reply: FastifyReply) => void;

export interface ApiLimits {
  /** A call by the key with this id, or (null) a call without a usable key, by its address. */
  count(request: FastifyRequest, reply: FastifyReply, keyId: number | null): void;
  /**
   * For calls counted only when they succeed (document 1: each successful condition rating counts
   * as one call; errors are not counted): 429 when the key has no call left in its window, without
   * spending one. `charge` spends it once the call has succeeded.
   */
  peek(request: FastifyRequest, reply: FastifyReply, keyId: number): void;
  charge(request: FastifyRequest, reply: FastifyReply, keyId: number): void;
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

/** One window store, counting in the bucket it is given; throws 429 when the caller is over. */
function counter(config: RateLimitConfig) {
  const store = new WindowStore(config.windowMs);
  const { max, windowMs } = config;
  return (reply: FastifyReply, bucket: string, mode: 'count' | 'peek' | 'charge' = 'count'): void => {
    const window = store.hit(bucket, mode !== 'peek');
    // A charge comes after the answer is decided: it spends the call and never refuses.
    if (mode === 'charge') return;
    const reset = Math.max(1, Math.ceil(window.remainingMs / 1000));
    // A peek refuses when the next call would be over: no call is left in the window.
    if (mode === 'peek') {
      if (window.count < max) return;
      reply.header('retry-after', reset);
      throw tooMany(max, windowMs, reset);
    }
    reply.header('x-ratelimit-limit', max);
    reply.header('x-ratelimit-remaining', Math.max(0, max - window.count));
    reply.header('x-ratelimit-reset', reset);
    if (window.count <= max) return;
    reply.header('retry-after', reset);
    throw tooMany(max, windowMs, reset);
  };
}

export function installRateLimits(api: RateLimitConfig, admin: RateLimitConfig = api): ApiLimits {
  const keys = counter(api);
  const addresses = counter(api);
  const operator = counter(admin);
  return {
    count: (request, reply, keyId) =>
      keyId === null ? addresses(reply, addressOf(request)) : keys(reply, `key:${keyId}`),
    peek: (_request, reply, keyId) => keys(reply, `key:${keyId}`, 'peek'),
    charge: (_request, reply, keyId) => keys(reply, `key:${keyId}`, 'charge'),
    admin: (request, reply) => operator(reply, addressOf(request)),
  };
}
