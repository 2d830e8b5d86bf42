// An invoice's customer link (document 3: POST /v1/invoices/{id}/send emails "a view link"; request
// payment answers `payment_url`): one link per invoice, made the first time it is needed and the
// same afterwards, so a re-send or a second request mails the link the customer already has. The
// token is derived from the stored salt (platform/link-tokens.ts); only its hash is kept. The page
// behind it is src/pages/invoice.ts. The link is never on the invoice object (document 3: the
// payment link is returned only by Request payment online).
import type { Invoice } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import type { Deps } from '#platform/deps.ts';

export const INVOICE_LINK_KIND = 'invoice';

export const invoicePagePath = (token: string) => `/share/invoices/${token}`;

/** The invoice page's address for a token; the PDF, the pay page and the card form sit under it. */
export const invoicePageUrl = (origin: string, token: string) => `${origin}${invoicePagePath(token)}`;

/**
 * The invoice's link token, making the link when it has none. The salt is written only where none
 * is (a conditional update), so two first sends at once end with one link, the one both mail.
 */
export async function invoiceToken(
  db: Executor,
  deps: Pick<Deps, 'links'>,
  invoice: Pick<Invoice, 'id' | 'token_salt'>,
): Promise<string> {
  if (invoice.token_salt !== null) return deps.links.tokenOf(INVOICE_LINK_KIND, invoice.token_salt);
  const link = await deps.links.issue(INVOICE_LINK_KIND);
  await db
    .updateTable('invoices')
    .set({ token_salt: link.salt, token_hash: link.hash })
    .where('id', '=', invoice.id)
    .where('token_salt', 'is', null)
    .execute();
  const stored = await db
    .selectFrom('invoices')
    .select('token_salt')
    .where('id', '=', invoice.id)
    .executeTakeFirstOrThrow();
  return stored.token_salt === link.salt ? link.token : deps.links.tokenOf(INVOICE_LINK_KIND, stored.token_salt!);
}
