// A proposal's customer link (document 3, Proposal `share_url` and `link`): made with the proposal
// ("customer link ready"), turned off and on again without changing (PATCH …/link enabled), given
// an expiry date (expires_on), replaced by POST …/share-link with regenerate (the old one stops:
// retired as `replaced`). share_url is null while the link is off or past its expiry; a void
// proposal's link shows the customer that it was withdrawn.
//
// The office previews the customer's page through the same address with a second token derived
// from the link's salt under its own label (`?preview=`): it is never in what the customer is
// sent, and a preview neither counts as a view nor offers the accept form.
import type { Proposal } from '#db/tables.ts';
import type { Deps } from '#platform/deps.ts';

export const PROPOSAL_LINK_KIND = 'proposal';
export const PROPOSAL_PREVIEW_KIND = 'proposal_preview';

export const proposalPagePath = (token: string) => `/share/proposals/${token}`;

/** The executed PDF of an accepted proposal, behind the page's own token. */
export const signedPdfPath = (token: string) => `${proposalPagePath(token)}/signed.pdf`;

type LinkFields = Pick<Proposal, 'link_enabled' | 'link_expires_on' | 'status'>;

/** Past its expires_on (the link works through that whole day). */
export const linkExpired = (p: LinkFields, today: string) => p.link_expires_on !== null && p.link_expires_on < today;

/** The customer can open it: on, not expired, not void. */
export const linkActive = (p: LinkFields, today: string) =>
  p.link_enabled === 1 && !linkExpired(p, today) && p.status !== 'void';

export function previewToken(deps: Pick<Deps, 'links'>, p: Pick<Proposal, 'token_salt'>): Promise<string> {
  return deps.links.tokenOf(PROPOSAL_PREVIEW_KIND, p.token_salt);
}

export async function shareUrlOf(
  deps: Pick<Deps, 'links'>,
  p: Proposal,
  origin: string,
  today: string,
): Promise<string | null> {
  if (p.link_enabled !== 1 || linkExpired(p, today)) return null;
  return `${origin}${proposalPagePath(await deps.links.tokenOf(PROPOSAL_LINK_KIND, p.token_salt))}`;
}

/** The `link` object of a single proposal. */
export async function linkObjectOf(deps: Pick<Deps, 'links'>, p: Proposal, origin: string, today: string) {
  const page = `${origin}${proposalPagePath(await deps.links.tokenOf(PROPOSAL_LINK_KIND, p.token_salt))}`;
  return {
    has_link: true,
    enabled: p.link_enabled === 1,
    expires_on: p.link_expires_on,
    active: linkActive(p, today),
    preview_url: `${page}?preview=${await previewToken(deps, p)}`,
  };
}
