// Capital plan link queries: a site's link (at most one), and the enabled link a page token opens.
import type { Selectable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { PlanShareLinkTable } from '#db/tables.ts';

export type PlanShareLink = Selectable<PlanShareLinkTable>;

export function findSiteLink(db: Executor, firmId: number, locationId: number): Promise<PlanShareLink | undefined> {
  return db
    .selectFrom('plan_share_links')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('location_id', '=', locationId)
    .executeTakeFirst();
}

/** The turned-on link with this token hash. */
export function findEnabledLinkByHash(db: Executor, hash: string): Promise<PlanShareLink | undefined> {
  return db
    .selectFrom('plan_share_links')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('enabled', '=', 1)
    .executeTakeFirst();
}
