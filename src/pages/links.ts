// Finding the link a page was opened with, and retiring links. Every link kind keeps its live
// links in its own table (with the token's hash); a link that stopped moves its hash to
// retired_links with the reason, so its page can say what happened (410) instead of "no such link"
// (404). Expiry needs no row here: the live row knows its expires_at.
import type { Kysely } from 'kysely';
import type { DB } from '#db/tables.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { now } from '#platform/time.ts';

/** Link kinds, as retired_links and the token derivation (platform/link-tokens.ts) name them. */
export type LinkKind = 'photo_report' | 'photo_selection' | 'assessment_report' | 'capital_plan';

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

/** Why the link with this token stopped, when it did (and is of this kind); null otherwise. */
export async function retiredReason(db: Kysely<DB>, kind: LinkKind, token: string): Promise<RetiredReason | null> {
  const hash = linkTokenHash(token);
  if (!hash) return null;
  const row = await db
    .selectFrom('retired_links')
    .select('reason')
    .where('token_hash', '=', hash)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return (row?.reason as RetiredReason | undefined) ?? null;
}
