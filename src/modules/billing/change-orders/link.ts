// A change order's customer link (document 3: send "EMAILS CUSTOMER a review-and-sign link"):
// made by the first send (or a move to a sent stage), as proposals make theirs: a random salt and
// the token's hash are stored, the token is derived again from the salt whenever the link is shown
// (platform/link-tokens.ts). It stays the same for later sends. A void change order's page says it
// was withdrawn; the link has no expiry of its own, because it shows a decision once made.
import type { ChangeOrder } from '#db/tables.ts';
import type { Deps } from '#platform/deps.ts';

export const CHANGE_ORDER_LINK_KIND = 'change_order';

export const changeOrderPagePath = (token: string) => `/share/change-orders/${token}`;

/** The page's address, or null before the first send. */
export async function shareUrlOf(
  deps: Pick<Deps, 'links'>,
  co: Pick<ChangeOrder, 'token_salt'>,
  origin: string,
): Promise<string | null> {
  if (co.token_salt === null) return null;
  return `${origin}${changeOrderPagePath(await deps.links.tokenOf(CHANGE_ORDER_LINK_KIND, co.token_salt))}`;
}

/** The change order's link: its stored salt and hash, or a new one (stored by the caller's write). */
export async function linkFor(
  deps: Pick<Deps, 'links'>,
  co: Pick<ChangeOrder, 'token_salt' | 'token_hash'>,
  origin: string,
): Promise<{ url: string; salt: string; hash: string }> {
  if (co.token_salt !== null && co.token_hash !== null)
    return { url: (await shareUrlOf(deps, co, origin))!, salt: co.token_salt, hash: co.token_hash };
  const issued = await deps.links.issue(CHANGE_ORDER_LINK_KIND);
  return { url: `${origin}${changeOrderPagePath(issued.token)}`, salt: issued.salt, hash: issued.hash };
}
