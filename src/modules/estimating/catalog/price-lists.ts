// Price lists: a service unit price and an item unit cost per entry; at most one active list is
// the workspace default. Reads for any key with read_jobs; writes for the workspace owner or an
// estimating admin. DELETE archives (an archived list is never the default) and PATCH
// {archived: false} restores.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '#db/dialect.ts';
import type { PriceList } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { alreadyArchived } from '#platform/records.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { activeItems } from './items.ts';
import { entriesOf, findItems, findPriceList, findServices, type ListFilter } from './repo.ts';
import type { CreatePriceListBody, UpdatePriceListBody } from './schemas.ts';
import { priceListSummary } from './serialize.ts';
import { activeServices } from './services.ts';
import { archiveChange, assertCatalogAdmin, assertNameFree, listPage } from './shared.ts';

type PriceListInput = Static<typeof UpdatePriceListBody>;

const priceListNotFound = () => notFound('Price list not found');

export async function priceListObject(db: Executor, p: PriceList) {
  const entries = await entriesOf(db, p.id);
  const serviceIds = entries.flatMap((e) => (e.service_id !== null ? [e.service_id] : []));
  const itemIds = entries.flatMap((e) => (e.catalog_item_id !== null ? [e.catalog_item_id] : []));
  const [services, items] = await Promise.all([
    findServices(db, p.firm_id, serviceIds),
    findItems(db, p.firm_id, itemIds),
  ]);
  return {
    ...priceListSummary(p),
    services: entries
      .filter((e) => e.service_id !== null)
      .map((e) => {
        const s = services.find((x) => x.id === e.service_id)!;
        return { service_id: s.id, name: s.name, unit: s.unit, unit_price: centsToDollars(e.amount_cents) };
      }),
    items: entries
      .filter((e) => e.catalog_item_id !== null)
      .map((e) => {
        const i = items.find((x) => x.id === e.catalog_item_id)!;
        return { catalog_item_id: i.id, name: i.name, unit: i.unit, unit_cost: centsToDollars(e.amount_cents) };
      }),
  };
}

export async function listPriceLists(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await listPage(ctx, 'price_lists', filter, limit, offset);
  return { data: (rows as PriceList[]).map(priceListSummary), total };
}

export async function getPriceList(ctx: ServiceContext, id: number) {
  const p = await findPriceList(ctx.database.db, ctx.auth.firm.id, id);
  if (!p) throw priceListNotFound();
  return priceListObject(ctx.database.db, p);
}

function duplicates(ids: number[]): number[] {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}

/** Replaces a price list's entries (the arrays given). */
export async function writeEntries(
  trx: Executor,
  firmId: number,
  listId: number,
  input: Pick<PriceListInput, 'services' | 'items'>,
) {
  for (const [key, ids] of [
    ['services', input.services?.map((e) => e.service_id)],
    ['items', input.items?.map((e) => e.catalog_item_id)],
  ] as const) {
    const dup = duplicates(ids ?? []);
    if (dup.length > 0) {
      throw invalidField(key, `${key} lists id ${dup.join(', ')} more than once`);
    }
  }
  if (input.services)
    await activeServices(
      trx,
      firmId,
      input.services.map((e) => e.service_id),
    );
  if (input.items)
    await activeItems(
      trx,
      firmId,
      input.items.map((e) => e.catalog_item_id),
    );
  if (input.services) {
    await trx
      .deleteFrom('price_list_entries')
      .where('price_list_id', '=', listId)
      .where('service_id', 'is not', null)
      .execute();
    if (input.services.length > 0) {
      await trx
        .insertInto('price_list_entries')
        .values(
          input.services.map((e, i) => ({
            firm_id: firmId,
            price_list_id: listId,
            service_id: e.service_id,
            catalog_item_id: null,
            amount_cents: dollarsToCents(e.unit_price),
            position: i + 1,
          })),
        )
        .execute();
    }
  }
  if (input.items) {
    await trx
      .deleteFrom('price_list_entries')
      .where('price_list_id', '=', listId)
      .where('catalog_item_id', 'is not', null)
      .execute();
    if (input.items.length > 0) {
      await trx
        .insertInto('price_list_entries')
        .values(
          input.items.map((e, i) => ({
            firm_id: firmId,
            price_list_id: listId,
            service_id: null,
            catalog_item_id: e.catalog_item_id,
            amount_cents: dollarsToCents(e.unit_cost),
            position: i + 1,
          })),
        )
        .execute();
    }
  }
}

/** Turns the default flag off on the workspace's other lists. */
export async function clearDefault(trx: Executor, firmId: number, exceptId: number, t: string) {
  await trx
    .updateTable('price_lists')
    .set({ is_default: 0, updated_at: t })
    .where('firm_id', '=', firmId)
    .where('is_default', '=', 1)
    .where('id', '!=', exceptId)
    .execute();
}

export async function createPriceList(ctx: ServiceContext, input: Static<typeof CreatePriceListBody>) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(trx, 'price_lists', firmId, nameKey(name), null);
    const t = now();
    const p = await trx
      .insertInto('price_lists')
      .values({
        firm_id: firmId,
        name,
        name_key: nameKey(name),
        description: input.description ?? null,
        is_default: input.is_default ? 1 : 0,
        archived_at: null,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeEntries(trx, firmId, p.id, input);
    if (input.is_default) await clearDefault(trx, firmId, p.id, t);
    return priceListObject(trx, p);
  });
}

export async function updatePriceList(ctx: ServiceContext, id: number, input: PriceListInput, viaDelete = false) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const p = await findPriceList(trx, firmId, id);
    if (!p) throw priceListNotFound();
    if (viaDelete && p.archived_at !== null) throw alreadyArchived(priceListNotFound());
    if (viaDelete) assertDeletionAllowed(ctx);
    const t = now();
    const changes: Partial<PriceList> = { ...archiveChange(input.archived, p.archived_at, t) };
    if (input.name !== undefined && input.name.trim() !== p.name) {
      const name = input.name.trim();
      if (nameKey(name) !== p.name_key) await assertNameFree(trx, 'price_lists', firmId, nameKey(name), id);
      Object.assign(changes, { name, name_key: nameKey(name) });
    }
    if (input.description !== undefined && input.description !== p.description) changes.description = input.description;
    // An archived list is never the default.
    const archivedAt = 'archived_at' in changes ? changes.archived_at : p.archived_at;
    const isDefault = archivedAt !== null ? false : (input.is_default ?? p.is_default === 1);
    if ((isDefault ? 1 : 0) !== p.is_default) changes.is_default = isDefault ? 1 : 0;
    if (input.is_default && archivedAt !== null) {
      throw invalidField('is_default', 'An archived price list cannot be the default');
    }
    await writeEntries(trx, firmId, id, input);
    if (Object.keys(changes).length > 0 || input.services || input.items) {
      await trx
        .updateTable('price_lists')
        .set({ ...changes, updated_at: t })
        .where('id', '=', id)
        .execute();
    }
    if (changes.is_default === 1) await clearDefault(trx, firmId, id, t);
    return priceListObject(trx, (await findPriceList(trx, firmId, id))!);
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archivePriceList(ctx: ServiceContext, id: number) {
  return updatePriceList(ctx, id, { archived: true }, true);
}
