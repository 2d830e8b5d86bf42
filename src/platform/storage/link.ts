// The local adapter's keyless links: GET /v1/objects/<signature>?key=…&expires=…&type=…&disposition=…
// The signature is HMAC-SHA256, under the storage secret (secret.ts), of everything the answer
// depends on: the key, the expiry (Unix seconds), the Content-Type and the Content-Disposition
// header. Changing any of them breaks the signature, so a link can neither reach another object,
// live longer nor serve its bytes as another type. Nothing is stored per link.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';

/** What a link carries (the route's path and query). */
export interface ObjectLink {
  signature: string;
  key: string;
  /** Unix seconds. */
  expires: number;
  type: string;
  /** The Content-Disposition header value. */
  disposition: string;
}

/** A link checked and its object opened: what the route answers with. */
export interface OpenedLink {
  body: Readable;
  bytes: number;
  contentType: string;
  disposition: string;
  /** Seconds the link still works: the Cache-Control max-age. */
  remainingSeconds: number;
}

/** The version prefix lets the format change later without old signatures matching new fields. */
function message(link: Omit<ObjectLink, 'signature'>): string {
  return JSON.stringify(['gw-object-link-1', link.key, link.expires, link.type, link.disposition]);
}

export function signLink(secret: Buffer, link: Omit<ObjectLink, 'signature'>): string {
  return createHmac('sha256', secret).update(message(link)).digest('base64url');
}

/** Constant-time comparison, so timing tells an attacker nothing about how close a guess was. */
export function signatureMatches(secret: Buffer, link: ObjectLink): boolean {
  const expected = Buffer.from(signLink(secret, link), 'base64url');
  const given = Buffer.from(link.signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The absolute URL on `base` (the origin the caller used). */
export function linkUrl(base: string, link: ObjectLink): string {
  const query = new URLSearchParams({
    key: link.key,
    expires: String(link.expires),
    type: link.type,
    disposition: link.disposition,
  });
  return `${base.replace(/\/+$/, '')}/v1/objects/${link.signature}?${query}`;
}
