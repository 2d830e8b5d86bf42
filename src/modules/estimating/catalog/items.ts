// Catalog items (crews, equipment, materials, trucks, subcontractors, dump sites): reads for any
// key with read_jobs; writes for the workspace owner or an estimating admin. DELETE archives and
// PATCH {archived: false} restores.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '#db/dialect.ts';
import type { CatalogItem } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { alreadyArchived } from '#platform/records.ts';
import { now } from '#platform/time.ts';
import { findItem, findItems, type ListFilter } from './repo.ts';
import { itemRow } from './rules.ts';
import type { CreateItemBody, UpdateItemBody } from './schemas.ts';
import { itemObject } from './serialize.ts';
import { archiveChange, assertCatalogAdmin, assertNameFree, changed, listPage } from './shared.ts';

const itemNotFound = (ids?: number[]) =>
  notFound(
    'Catalog item not found',
    ids
      ? {
          message: `No active catalog item with id ${ids.join(', ')} in this workspace`,
          catalog_item_ids: ids,
        }
      : {},
  );

/** The named items, all active and of this workspace, or 404 listing the ones that are not. */
export async function activeItems(db: Executor, firmId: number, ids: number[]): Promise<Map<number, CatalogItem>> {
  const unique = [...new Set(ids)];
  const found = (await findItems(db, firmId, unique)).filter((i) => i.archived_at === null);
  const missing = unique.filter((id) => !found.some((i) => i.id === id));
  if (missing.length > 0) throw itemNotFound(missing);
  return new Map(found.map((i) => [i.id, i]));
}

export async function listItems(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await listPage(ctx, 'catalog_items', filter, limit, offset);
  return { data: (rows as CatalogItem[]).map(itemObject), total };
}

export async function getItem(ctx: ServiceContext, id: number) {
  const item = await findItem(ctx.database.db, ctx.auth.firm.id, id);
  if (!item) throw itemNotFound();
  return itemObject(item);
}

export async function createItem(ctx: ServiceContext, input: Static<typeof CreateItemBody>) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = itemRow(input);
    await assertNameFree(trx, 'catalog_items', firmId, row.name_key, null);
    const t = now();
    return itemObject(
      await trx
        .insertInto('catalog_items')
        .values({ firm_id: firmId, ...row, archived_at: null, created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  });
}

/** `viaDelete`: the DELETE that archives, which the workspace's deletion lock refuses (a PATCH is an edit). */
export async function updateItem(
  ctx: ServiceContext,
  id: number,
  input: Static<typeof UpdateItemBody>,
  viaDelete = false,
) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const item = await findItem(trx, firmId, id);
    if (!item) throw itemNotFound();
    if (viaDelete && item.archived_at !== null) throw alreadyArchived(itemNotFound());
    if (viaDelete) assertDeletionAllowed(ctx);
    const row = itemRow(input, item);
    if (row.name_key !== item.name_key) await assertNameFree(trx, 'catalog_items', firmId, row.name_key, id);
    const t = now();
    const changes = { ...changed(item, row), ...archiveChange(input.archived, item.archived_at, t) };
    if (Object.keys(changes).length === 0) return itemObject(item);
    return itemObject(
      await trx
        .updateTable('catalog_items')
        .set({ ...changes, updated_at: t })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). PATCH {archived: true} repeats freely. */
export function archiveItem(ctx: ServiceContext, id: number) {
  return updateItem(ctx, id, { archived: true }, true);
}
