// Finding the link a page was opened with, and retiring links. Every link kind keeps its live
// links in its own table (with the token's hash); a link that stopped moves its hash to
// retired_links with the reason, so its page can say what happened (410) instead of "no such link"
// (404). Expiry needs no row here: the live row knows its expires_at.
import type { Kysely } from 'kysely';
import type { DB } from '#db/tables.ts';
import { linkTokenHash } from './link-tokens.ts';
import { now } from './time.ts';

/** Link kinds, as retired_links and the token derivation (platform/link-tokens.ts) name them. */
export type LinkKind =
  | 'photo_report'
  | 'photo_selection'
  | 'assessment_report'
  | 'capital_plan'
  | 'customer_portal'
  | 'review'
  | 'proposal'
  | 'invoice'
  | 'change_order';

/** Why a link stopped, as its 410 page explains. */
export type RetiredReason = 'disabled' | 'rotated' | 'revoked' | 'replaced';

export async function retireLink(
  db: Kysely<DB>,
  link: { firmId: number; kind: LinkKind; tokenHash: string; reason: RetiredReason },
): Promise<void> {
  await db
    .insertInto('retired_links')
    .values({
      token_hash: link.tokenHash,
      firm_id: link.firmId,
      kind: link.kind,
      reason: link.reason,
      retired_at: now(),
    })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

/** What a token that opens no live link shows: its link's 410 (and why it stopped), or a 404. */
export type DeadLinkVisit = { state: 'gone'; why: RetiredReason } | { state: 'unknown' };

/**
 * The visit of a token no live link of `kind` answers: gone with the reason its link stopped, when
 * it was one (retired_links), else unknown. Every page kind ends its lookup here.
 */
export async function deadLinkVisit(db: Kysely<DB>, kind: LinkKind, token: string): Promise<DeadLinkVisit> {
  const hash = linkTokenHash(token);
  if (!hash) return { state: 'unknown' };
  const row = await db
    .selectFrom('retired_links')
    .select('reason')
    .where('token_hash', '=', hash)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row ? { state: 'gone', why: row.reason as RetiredReason } : { state: 'unknown' };
}
