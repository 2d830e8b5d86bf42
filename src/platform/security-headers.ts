// Security headers on every answer, set by @fastify/helmet. API answers are JSON that no browser
// should render, frame or sniff as something else, so their Content-Security-Policy allows
// nothing. The reference UI at /v1/docs replaces it with swagger-ui's own policy (scripts, styles
// and images from this server only; see app.ts), and customer pages will send their own.
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

// Spelled as helmet writes it, so the baseline below matches what helmet sends.
export const API_CSP = "default-src 'none';frame-ancestors 'none'";

export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // The server speaks plain HTTP; HSTS belongs to the TLS terminator in front of it (browsers
    // ignore the header over http anyway, and a LAN install may never have TLS).
    strictTransportSecurity: false,
  });
}

/**
 * The headers helmet sends on API answers, for the few answers Fastify makes before any hook runs
 * (a malformed or over-long path: error-handler.ts). A test checks they match helmet's.
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
