// Portal link queries: a customer's link (at most one), and the enabled link a page token opens.
import type { Selectable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { PortalLinkTable } from '#db/tables.ts';

export type PortalLink = Selectable<PortalLinkTable>;

export function findCustomerLink(db: Executor, firmId: number, clientAccountId: number) {
  return db
    .selectFrom('portal_links')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('client_account_id', '=', clientAccountId)
    .executeTakeFirst() as Promise<PortalLink | undefined>;
}

export function findEnabledLinkByHash(db: Executor, hash: string) {
  return db
    .selectFrom('portal_links')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('enabled', '=', 1)
    .executeTakeFirst() as Promise<PortalLink | undefined>;
}
