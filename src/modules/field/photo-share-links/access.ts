// The access code of a photo report link (docs/api-decisions.md, Photo share links): kept as a
// scrypt hash with its own salt and parameters, checked in constant time; what a visitor's cookie
// holds once they typed it; and the per-link count of wrong codes that stops guessing.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Executor } from '#db/dialect.ts';
import type { LinkTokens } from '#platform/link-tokens.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';

/**
 * scrypt at N = 2^15, r = 8, p = 1: 32 MiB and some 50 to 100 ms a check here. A stolen database
 * makes every guess of a short code cost that much; the parameters are stored with the hash, so
 * stronger ones can come later without breaking the codes already set.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(code: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(code.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$<salt hex>$<key hex>` of an access code. */
export async function hashAccessCode(code: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(code, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('hex'), key.toString('hex')].join('$');
}

/** Whether `code` is the one `stored` was made from (constant time in the key). */
export async function accessCodeMatches(stored: string, code: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'hex');
  const actual = await derive(code, Buffer.from(salt, 'hex'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * What the visitor's cookie holds after the right code: an HMAC with the server secret (through
 * the link-token derivation, under its own label) over the link, its token and the code's hash.
 * Another code, a new token or another link makes another value, so changing the code or turning
 * the link off and on again asks everyone for the code again. A copied database forges none.
 */
export function accessPass(
  links: LinkTokens,
  link: { id: number; token_salt: string; access_code_hash: string },
): Promise<string> {
  return links.tokenOf('photo_report_access', `${link.id}\0${link.token_salt}\0${link.access_code_hash}`);
}

export function passMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Wrong codes a link accepts in one window; the next attempt waits until the window has passed. */
export const MAX_WRONG_CODES = 10;
export const WRONG_CODE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Takes one attempt from the link's allowance before the code is checked, in one statement (so it
 * holds across processes and concurrent posts): the count starts again at 1 when the window has
 * passed, and nothing is taken once MAX_WRONG_CODES are used in the window. Answers false then.
 * A right code gives its attempt back (releaseAttempt), so only wrong ones stay counted.
 */
export async function takeAttempt(db: Executor, linkId: number): Promise<boolean> {
  const at = now();
  const windowOpenedBefore = storedAt(millisOf(at) - WRONG_CODE_WINDOW_MS);
  const result = await db
    .updateTable('photo_share_links')
    .set((eb) => {
      const fresh = eb.or([eb('failed_window_start', 'is', null), eb('failed_window_start', '<=', windowOpenedBefore)]);
      return {
        failed_attempts: eb
          .case()
          .when(fresh)
          .then(1)
          .else(eb('failed_attempts', '+', 1))
          .end(),
        failed_window_start: eb.case().when(fresh).then(at).else(eb.ref('failed_window_start')).end(),
      };
    })
    .where('id', '=', linkId)
    .where((eb) =>
      eb.or([
        eb('failed_window_start', 'is', null),
        eb('failed_window_start', '<=', windowOpenedBefore),
        eb('failed_attempts', '<', MAX_WRONG_CODES),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function releaseAttempt(db: Executor, linkId: number): Promise<void> {
  await db
    .updateTable('photo_share_links')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '-', 1) }))
    .where('id', '=', linkId)
    .where('failed_attempts', '>', 0)
    .execute();
}

/** Seconds until a link refusing attempts takes them again (its window's end). */
export function secondsUntilRetry(windowStart: string | null): number {
  if (windowStart === null) return 0;
  return Math.max(1, Math.ceil((millisOf(windowStart) + WRONG_CODE_WINDOW_MS - millisOf(now())) / 1000));
}
