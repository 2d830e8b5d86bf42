import { sql } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { Location } from '#db/tables.ts';
import { containsText } from '#db/text-search.ts';

/** The site row with this id as stored (a merged-away site included). */
export function findLocationRow(db: Executor, firmId: number, id: number): Promise<Location | undefined> {
  return db.selectFrom('locations').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

/** The site with this id; a merged-away site's old id answers the site it was merged into. */
export async function findLocation(db: Executor, firmId: number, id: number): Promise<Location | undefined> {
  return survivorOf(db, firmId, await findLocationRow(db, firmId, id));
}

/** `site` itself, or the site it was merged into (merges point straight at the survivor). */
export async function survivorOf(
  db: Executor,
  firmId: number,
  site: Location | undefined,
): Promise<Location | undefined> {
  let hops = 0;
  while (site && site.merged_into_id !== null && hops++ < 8) {
    site = (await findLocationRow(db, firmId, site.merged_into_id)) ?? site;
  }
  return site;
}

export function findLocationByRef(db: Executor, firmId: number, ref: string): Promise<Location | undefined> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('external_ref', '=', ref)
    .executeTakeFirst();
}

/** Sites at the same address, live ones first, then oldest first. */
export function findLocationsByAddress(db: Executor, firmId: number, key: string): Promise<Location[]> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('address_key', '=', key)
    .orderBy(sql`case when archived_at is null then 0 else 1 end`)
    .orderBy('id')
    .execute();
}

export interface LocationFilter {
  externalRef?: string;
  clientAccountId?: number;
  q?: string;
  includeArchived?: boolean;
  engine: Engine;
}

export async function listLocations(db: Executor, firmId: number, f: LocationFilter, limit: number, offset: number) {
  let base = db.selectFrom('locations').where('firm_id', '=', firmId);
  if (!f.includeArchived) base = base.where('archived_at', 'is', null);
  if (f.externalRef !== undefined) base = base.where('external_ref', '=', f.externalRef);
  if (f.clientAccountId !== undefined) base = base.where('client_account_id', '=', f.clientAccountId);
  if (f.q) base = base.where(containsText(['name', 'address'], f.q, f.engine));
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
