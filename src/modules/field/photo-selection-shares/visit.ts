// The customer's side of a chosen-photo link (its page is src/pages/photo-selection.ts): which
// link a token opens and in what state, and the photos it shows.
import type { Database } from '#db/database.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { isPast, senderOf, type LinkSender, type SharedPhoto } from '#field/photo-share-links/shared.ts';
import { findShareByTokenHash, selectionPhotos, type PhotoSelectionShare } from './repo.ts';

export type SelectionVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason | 'expired' }
  | { state: 'open'; share: PhotoSelectionShare; sender: LinkSender };

/** The share `token` opens: live, gone (revoked or expired: 410) or never one (404). */
export async function visitSelection(database: Database, token: string): Promise<SelectionVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const share = await findShareByTokenHash(database.db, hash);
  if (share) {
    if (share.revoked_at !== null) return { state: 'gone', why: 'revoked' };
    if (isPast(share.expires_at)) return { state: 'gone', why: 'expired' };
    const sender = await senderOf(database.db, share.firm_id, share.job_id);
    if (sender) return { state: 'open', share, sender };
  }
  return deadLinkVisit(database.db, 'photo_selection', token);
}

export const photosOfSelection = (database: Database, share: PhotoSelectionShare): Promise<SharedPhoto[]> =>
  selectionPhotos(database.db, share);
