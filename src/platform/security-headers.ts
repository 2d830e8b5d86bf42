// Security headers on every answer. API answers are JSON that no browser should render, frame or
// sniff as something else, so their Content-Security-Policy allows nothing. The reference UI at
// /v1/docs replaces it with swagger-ui's own policy (scripts, styles and images from this server
// only; see app.ts), and customer pages will send their own.
//
// The set is helmet's (@fastify/helmet) with those choices, written as one constant by one hook:
// helmet composes a dozen middlewares per answer, which cost a third of a cached job read (26 µs
// of ~50 µs, bench/jobs.ts) for headers that never vary.
import type { FastifyInstance, FastifyReply } from 'fastify';

export const API_CSP = "default-src 'none';frame-ancestors 'none'";

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    withBaselineHeaders(reply);
    done();
  });
}

/**
 * The headers of every answer: helmet's defaults with no HSTS (the server speaks plain HTTP; HSTS
 * belongs to the TLS terminator in front of it) and no-referrer, DENY and the CSP above. Also
 * set on the few answers Fastify makes before any hook runs (a malformed or over-long path:
 * error-handler.ts).
 */
export const BASELINE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': API_CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

export function withBaselineHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(BASELINE_SECURITY_HEADERS);
}
