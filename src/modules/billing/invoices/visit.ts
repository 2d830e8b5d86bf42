// The customer's side of an invoice link (its page is src/pages/invoice.ts): which invoice a token
// opens, and whether the customer may see it. No API key: the token is the credential.
//
// An issued invoice (sent, paid, open, uncollectible) shows; a void one says it was withdrawn; one
// moved back to draft after it was sent is being revised and shows nothing until it is issued again.
import type { Database } from '#db/database.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { settingsOf } from '#platform/workspace.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { invoiceByTokenHash } from './repo.ts';
import type { InvoiceRow } from './serialize.ts';

export interface InvoiceSender {
  firmName: string;
  timezone: string;
  /** The workspace's Stripe connected account, if it names one (settings.stripe_account). */
  stripeAccount: string | null;
}

export type InvoiceVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason }
  | { state: 'void' | 'draft'; sender: InvoiceSender }
  | { state: 'open'; invoice: InvoiceRow; sender: InvoiceSender };

export async function visitInvoice(database: Database, token: string): Promise<InvoiceVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const invoice = await invoiceByTokenHash(database.db, hash);
  if (!invoice) return deadLinkVisit(database.db, 'invoice', token);
  const firm = await database.db
    .selectFrom('firms')
    .select(['name', 'timezone', 'settings'])
    .where('id', '=', invoice.firm_id)
    .executeTakeFirstOrThrow();
  const sender = { firmName: firm.name, timezone: firm.timezone, stripeAccount: settingsOf(firm).stripe_account };
  if (invoice.status === 'void') return { state: 'void', sender };
  if (invoice.status === 'draft') return { state: 'draft', sender };
  return { state: 'open', invoice, sender };
}

/** An online invoice the customer can still pay. */
export const payable = (i: Pick<InvoiceRow, 'payment_method' | 'status'>) =>
  i.payment_method === 'online' && i.status === 'open';
