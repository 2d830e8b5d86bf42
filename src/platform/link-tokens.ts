// The tokens in customer links (photo reports, photo selections, assessment reports, capital
// plans, and later proposals, invoices and change orders). A link must be shown again (GET
// /v1/jobs/{id}/photo-share-link answers its share_url) yet the database must not hold a usable
// token (GUIDE "Customer pages": stored hashed). So a token is derived, not stored: a row keeps a
// random salt and the token's SHA-256; the token is HMAC-SHA256(server secret, kind + salt), made
// again from the salt whenever the link is shown. A copy of the database alone opens no page; the
// server finds a link by hashing the token it is sent.
//
// The server secret is the one that signs local storage links (GROUNDWORK_STORAGE_SECRET, else
// <dataDir>/storage-secret), under its own label so the two uses never share a MAC key. Replacing
// that secret stops every link, as it stops every signed file link.
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** 16 random bytes as the salt; the token is the HMAC's 32 bytes in base64url (43 characters). */
const SALT_BYTES = 16;
/** A token is exactly this long: anything else is refused before a lookup. */
export const LINK_TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface LinkTokens {
  /** A new link: the salt and hash to store, and the token to put in the URL. */
  issue(kind: string): Promise<{ salt: string; hash: string; token: string }>;
  /** The token of a stored link (kind and salt as issued). */
  tokenOf(kind: string, salt: string): Promise<string>;
}

/** The hash a link row stores and is looked up by; null when the text cannot be a token. */
export function linkTokenHash(token: string): string | null {
  return TOKEN_SHAPE.test(token) ? createHash('sha256').update(token).digest('hex') : null;
}

export function linkTokensFrom(secret: () => Promise<Buffer>): LinkTokens {
  const derive = async (kind: string, salt: string) =>
    createHmac('sha256', await secret())
      .update(`groundwork customer link\0${kind}\0${salt}`)
      .digest('base64url');
  return {
    async issue(kind) {
      const salt = randomBytes(SALT_BYTES).toString('hex');
      const token = await derive(kind, salt);
      return { salt, token, hash: linkTokenHash(token) as string };
    },
    tokenOf: derive,
  };
}
