// Catalog queries. Every read is scoped by firm_id. The estimates area reads services, their cost
// lines, items, price lists and templates through these functions.
import type { Executor } from '#db/dialect.ts';
import type { Engine } from '#db/dialect.ts';
import { containsText } from '#db/text-search.ts';
import type {
  CatalogCostLine,
  CatalogItem,
  CatalogService,
  EstimateTemplate,
  PriceList,
  PriceListEntry,
} from '#db/tables.ts';

export type CatalogTable = 'catalog_items' | 'catalog_services' | 'price_lists' | 'estimate_templates';

export function findItem(db: Executor, firmId: number, id: number): Promise<CatalogItem | undefined> {
  return db
    .selectFrom('catalog_items')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findItems(db: Executor, firmId: number, ids: number[]): Promise<CatalogItem[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('catalog_items').selectAll().where('firm_id', '=', firmId).where('id', 'in', ids).execute();
}

export function findService(db: Executor, firmId: number, id: number): Promise<CatalogService | undefined> {
  return db
    .selectFrom('catalog_services')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findServices(db: Executor, firmId: number, ids: number[]): Promise<CatalogService[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('catalog_services').selectAll().where('firm_id', '=', firmId).where('id', 'in', ids).execute();
}

/** A service's default cost lines in position order. */
export function costLinesOf(db: Executor, serviceId: number): Promise<CatalogCostLine[]> {
  return db
    .selectFrom('catalog_cost_lines')
    .selectAll()
    .where('service_id', '=', serviceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function findPriceList(db: Executor, firmId: number, id: number): Promise<PriceList | undefined> {
  return db.selectFrom('price_lists').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

/** The workspace's default price list (not archived), if any. */
export function findDefaultPriceList(db: Executor, firmId: number): Promise<PriceList | undefined> {
  return db
    .selectFrom('price_lists')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('is_default', '=', 1)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export function entriesOf(db: Executor, priceListId: number): Promise<PriceListEntry[]> {
  return db
    .selectFrom('price_list_entries')
    .selectAll()
    .where('price_list_id', '=', priceListId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function findTemplate(db: Executor, firmId: number, id: number): Promise<EstimateTemplate | undefined> {
  return db
    .selectFrom('estimate_templates')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findByNameKey<T extends CatalogTable>(db: Executor, table: T, firmId: number, key: string) {
  return db
    .selectFrom(table as CatalogTable)
    .select(['id', 'name', 'archived_at'])
    .where('firm_id', '=', firmId)
    .where('name_key', '=', key)
    .executeTakeFirst();
}

export interface ListFilter {
  q?: string;
  includeArchived?: boolean;
  category?: string;
  estimatingMode?: string;
  kind?: string;
}

/** One page of a catalog table, A to Z by name, with the total. */
export async function listCatalog<T extends CatalogTable>(
  db: Executor,
  engine: Engine,
  table: T,
  firmId: number,
  filter: ListFilter,
  limit: number,
  offset: number,
) {
  let base = db.selectFrom(table as 'catalog_services').where('firm_id', '=', firmId);
  if (!filter.includeArchived) base = base.where('archived_at', 'is', null);
  if (filter.q) {
    const columns = table === 'catalog_services' ? ['name', 'category', 'cost_code'] : ['name'];
    base = base.where(containsText(columns, filter.q, engine));
  }
  if (filter.category !== undefined) base = base.where('category', '=', filter.category);
  if (filter.estimatingMode !== undefined) base = base.where('estimating_mode', '=', filter.estimatingMode);
  if (filter.kind !== undefined) base = (base as any).where('kind', '=', filter.kind);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('name_key').orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as unknown[], total: Number(count.n) };
}
