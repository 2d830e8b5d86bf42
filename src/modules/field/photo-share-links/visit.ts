// The customer's side of a photo report link (its page is src/pages/photo-report.ts): which link a
// token opens and in what state, the photos it shows, and the access code check with its
// per-link allowance of wrong codes.
import type { Database } from '#db/database.ts';
import { linkTokenHash, type LinkTokens } from '#platform/link-tokens.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import {
  accessCodeMatches,
  accessPass,
  passMatches,
  releaseAttempt,
  secondsUntilRetry,
  takeAttempt,
} from './access.ts';
import { findLinkByTokenHash, reportPhotos, type PhotoShareLink } from './repo.ts';
import { isPast, senderOf, type LinkSender, type SharedPhoto } from './shared.ts';

export type ReportVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason | 'expired' }
  | { state: 'open'; link: PhotoShareLink; sender: LinkSender };

/** The link `token` opens: live, gone (turned off, replaced or expired: 410) or never one (404). */
export async function visitReport(database: Database, token: string): Promise<ReportVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const link = await findLinkByTokenHash(database.db, hash);
  if (link && link.enabled === 1) {
    if (isPast(link.expires_at)) return { state: 'gone', why: 'expired' };
    const sender = await senderOf(database.db, link.firm_id, link.job_id);
    if (sender) return { state: 'open', link, sender };
  }
  return deadLinkVisit(database.db, 'photo_report', token);
}

export const photosOfReport = (database: Database, link: PhotoShareLink): Promise<SharedPhoto[]> =>
  reportPhotos(database.db, link.firm_id, link.job_id);

/** Whether the visitor may see the photos: a public link, or a code link and the pass its code gave. */
export async function mayView(links: LinkTokens, link: PhotoShareLink, pass: string | undefined): Promise<boolean> {
  if (link.access_code_hash === null) return true;
  return passMatches(await accessPass(links, { ...link, access_code_hash: link.access_code_hash }), pass);
}

export type CodeCheck =
  | { result: 'right'; pass: string }
  | { result: 'wrong' }
  | { result: 'locked'; retryAfterSeconds: number };

/**
 * Checks a typed access code against the link, within its allowance of wrong codes
 * (access.ts: MAX_WRONG_CODES in WRONG_CODE_WINDOW_MS). A link without a code has nothing to check.
 */
export async function checkAccessCode(
  database: Database,
  links: LinkTokens,
  link: PhotoShareLink,
  code: string,
): Promise<CodeCheck> {
  if (link.access_code_hash === null) return { result: 'right', pass: '' };
  if (!(await takeAttempt(database.db, link.id))) {
    const row = await database.db
      .selectFrom('photo_share_links')
      .select('failed_window_start')
      .where('id', '=', link.id)
      .executeTakeFirst();
    return { result: 'locked', retryAfterSeconds: secondsUntilRetry(row?.failed_window_start ?? null) };
  }
  if (!(await accessCodeMatches(link.access_code_hash, code.trim()))) return { result: 'wrong' };
  await releaseAttempt(database.db, link.id);
  return { result: 'right', pass: await accessPass(links, { ...link, access_code_hash: link.access_code_hash }) };
}
