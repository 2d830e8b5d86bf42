// The catalog's rules: reads for any key with read_jobs; writes for the workspace owner or an
// estimating admin. Names are unique per workspace (any case, archived included); DELETE archives
// and PATCH {archived: false} restores. References to other records must name active records of
// the same workspace.
import type { Executor } from '#db/dialect.ts';
import type { CatalogCostLine, CatalogItem, CatalogService, EstimateTemplate, PriceList } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { conflict, forbidden, invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { isEstimatingAdmin } from '#estimating/estimates/roles.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { alreadyArchived } from '#platform/records.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import {
  costLinesOf, entriesOf, findByNameKey, findItem, findItems, findPriceList, findService, findServices, findTemplate,
  listCatalog, type CatalogTable, type ListFilter,
} from './repo.ts';
import {
  costLineRow, itemRow, serviceRow, templateQuantity, type CostLineInput, type CostLineRow, type ItemInput, type ServiceInput,
} from './rules.ts';
import { itemObject, priceListSummary, serviceObject, serviceSummary, templateAreas, templateBase } from './serialize.ts';

/** Catalog writes: the workspace owner or an estimating admin (the estimating roles' one rule, roles.ts). */
export function assertCatalogAdmin(ctx: ServiceContext): void {
  if (isEstimatingAdmin(ctx.auth.user)) return;
  throw forbidden('Estimating admin required', {
    code: 'estimating_admin_required',
    message: 'Only the workspace owner or an estimating admin can change the catalog',
  });
}

const itemNotFound = (ids?: number[]) => notFound('Catalog item not found', ids ? {
  message: `No active catalog item with id ${ids.join(', ')} in this workspace`, catalog_item_ids: ids,
} : {});
const serviceNotFound = (ids?: number[]) => notFound('Catalog service not found', ids ? {
  message: `No active catalog service with id ${ids.join(', ')} in this workspace`, service_ids: ids,
} : {});
const costLineNotFound = () => notFound('Cost line not found');
const priceListNotFound = () => notFound('Price list not found');
const templateNotFound = () => notFound('Estimate template not found');

const LABEL: Record<CatalogTable, string> = {
  catalog_items: 'Catalog item', catalog_services: 'Catalog service', price_lists: 'Price list', estimate_templates: 'Estimate template',
};

/** A taken name (any case) is 409 naming the holder; an archived holder can be restored instead. */
async function assertNameFree(db: Executor, table: CatalogTable, firmId: number, key: string, selfId: number | null) {
  const holder = await findByNameKey(db, table, firmId, key);
  if (holder && holder.id !== selfId) {
    throw conflict(`${LABEL[table]} name already used`, {
      code: 'name_taken', field: 'name', existing_id: holder.id,
      message: holder.archived_at !== null
        ? `An archived ${LABEL[table].toLowerCase()} named "${holder.name}" exists (id ${holder.id}); restore it with PATCH {"archived": false}`
        : `A ${LABEL[table].toLowerCase()} named "${holder.name}" already exists (id ${holder.id})`,
    });
  }
}

function archiveChange(archived: boolean | undefined, current: string | null, t: string): { archived_at?: string | null } {
  if (archived === undefined) return {};
  if (archived) return current === null ? { archived_at: t } : {};
  return current !== null ? { archived_at: null } : {};
}

export async function activeItems(db: Executor, firmId: number, ids: number[]): Promise<Map<number, CatalogItem>> {
  const unique = [...new Set(ids)];
  const found = (await findItems(db, firmId, unique)).filter((i) => i.archived_at === null);
  const missing = unique.filter((id) => !found.some((i) => i.id === id));
  if (missing.length > 0) throw itemNotFound(missing);
  return new Map(found.map((i) => [i.id, i]));
}

export async function activeServices(db: Executor, firmId: number, ids: number[]): Promise<Map<number, CatalogService>> {
  const unique = [...new Set(ids)];
  const found = (await findServices(db, firmId, unique)).filter((s) => s.archived_at === null);
  const missing = unique.filter((id) => !found.some((s) => s.id === id));
  if (missing.length > 0) throw serviceNotFound(missing);
  return new Map(found.map((s) => [s.id, s]));
}

async function list<T extends CatalogTable>(ctx: ServiceContext, table: T, filter: ListFilter, limit: number, offset: number) {
  return listCatalog(ctx.database.db, ctx.database.dialect.engine, table, ctx.auth.firm.id, filter, limit, offset);
}

// ---- items ---------------------------------------------------------------------------------

export async function listItems(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await list(ctx, 'catalog_items', filter, limit, offset);
  return { data: (rows as CatalogItem[]).map(itemObject), total };
}

export async function getItem(ctx: ServiceContext, id: number) {
  const item = await findItem(ctx.database.db, ctx.auth.firm.id, id);
  if (!item) throw itemNotFound();
  return itemObject(item);
}

export async function createItem(ctx: ServiceContext, input: ItemInput) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = itemRow(input);
    await assertNameFree(trx, 'catalog_items', firmId, row.name_key, null);
    const t = now();
    return itemObject(await trx.insertInto('catalog_items').values({ firm_id: firmId, ...row, archived_at: null, created_at: t, updated_at: t })
      .returningAll().executeTakeFirstOrThrow());
  });
}

/** `viaDelete`: the DELETE that archives, which the workspace's deletion lock refuses (a PATCH is an edit). */
export async function updateItem(ctx: ServiceContext, id: number, input: ItemInput & { archived?: boolean }, viaDelete = false) {
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
    return itemObject(await trx.updateTable('catalog_items').set({ ...changes, updated_at: t }).where('id', '=', id)
      .returningAll().executeTakeFirstOrThrow());
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). PATCH {archived: true} repeats freely. */
export function archiveItem(ctx: ServiceContext, id: number) {
  return updateItem(ctx, id, { archived: true }, true);
}

/** The fields of `row` that differ from `current`. */
function changed<T extends object>(current: T, row: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(row) as [keyof T, T[keyof T]][]) if (current[k] !== v) out[k] = v;
  return out;
}

// ---- services ------------------------------------------------------------------------------

export async function listServices(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await list(ctx, 'catalog_services', filter, limit, offset);
  return { data: (rows as CatalogService[]).map(serviceSummary), total };
}

async function serviceOrThrow(db: Executor, firmId: number, id: number): Promise<CatalogService> {
  const s = await findService(db, firmId, id);
  if (!s) throw serviceNotFound();
  return s;
}

export async function getService(ctx: ServiceContext, id: number) {
  const s = await serviceOrThrow(ctx.database.db, ctx.auth.firm.id, id);
  return serviceObject(s, await costLinesOf(ctx.database.db, id));
}

type CostLineBody = CostLineInput & { catalog_item_id?: number | null; position?: number };

export async function createService(ctx: ServiceContext, input: ServiceInput & { cost_lines?: CostLineBody[] }) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = serviceRow(input);
    await assertNameFree(trx, 'catalog_services', firmId, row.name_key, null);
    const lines = input.cost_lines ?? [];
    const items = await activeItems(trx, firmId, lines.flatMap((l) => (l.catalog_item_id ? [l.catalog_item_id] : [])));
    const rows = lines.map((l) => costLineRow(l, l.catalog_item_id ? items.get(l.catalog_item_id)! : null));
    const t = now();
    const service = await trx.insertInto('catalog_services').values({ firm_id: firmId, ...row, archived_at: null, created_at: t, updated_at: t })
      .returningAll().executeTakeFirstOrThrow();
    if (rows.length > 0) {
      await trx.insertInto('catalog_cost_lines').values(rows.map((r, i) => ({
        firm_id: firmId, service_id: service.id, position: i + 1, ...r, created_at: t, updated_at: t,
      }))).execute();
    }
    return serviceObject(service, await costLinesOf(trx, service.id));
  });
}

export async function updateService(ctx: ServiceContext, id: number, input: ServiceInput & { archived?: boolean }, viaDelete = false) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const service = await serviceOrThrow(trx, firmId, id);
    if (viaDelete && service.archived_at !== null) throw alreadyArchived(serviceNotFound());
    if (viaDelete) assertDeletionAllowed(ctx);
    const row = serviceRow(input, service);
    if (row.name_key !== service.name_key) await assertNameFree(trx, 'catalog_services', firmId, row.name_key, id);
    const t = now();
    const changes = { ...changed(service, row), ...archiveChange(input.archived, service.archived_at, t) };
    const saved = Object.keys(changes).length === 0 ? service
      : await trx.updateTable('catalog_services').set({ ...changes, updated_at: t }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return serviceObject(saved, await costLinesOf(trx, id));
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archiveService(ctx: ServiceContext, id: number) {
  return updateService(ctx, id, { archived: true }, true);
}

/** Positions stay 1..n: a line placed at p pushes the later ones down. */
async function placeLines(trx: Executor, serviceId: number, ordered: CatalogCostLine[], t: string) {
  for (let i = 0; i < ordered.length; i++) {
    if (ordered[i]!.position !== i + 1) {
      await trx.updateTable('catalog_cost_lines').set({ position: i + 1, updated_at: t }).where('id', '=', ordered[i]!.id).execute();
    }
  }
  await trx.updateTable('catalog_services').set({ updated_at: t }).where('id', '=', serviceId).execute();
}

function at<T>(list: T[], value: T, position: number | undefined): T[] {
  const out = [...list];
  const index = position === undefined ? out.length : Math.min(Math.max(position - 1, 0), out.length);
  out.splice(index, 0, value);
  return out;
}

export async function addCostLine(ctx: ServiceContext, serviceId: number, input: CostLineBody) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    await serviceOrThrow(trx, firmId, serviceId);
    const item = input.catalog_item_id ? (await activeItems(trx, firmId, [input.catalog_item_id])).get(input.catalog_item_id)! : null;
    const row = costLineRow(input, item);
    const lines = await costLinesOf(trx, serviceId);
    const t = now();
    const line = await trx.insertInto('catalog_cost_lines').values({
      firm_id: firmId, service_id: serviceId, position: lines.length + 1, ...row, created_at: t, updated_at: t,
    }).returningAll().executeTakeFirstOrThrow();
    await placeLines(trx, serviceId, at(lines, line, input.position), t);
    return serviceObject(await serviceOrThrow(trx, firmId, serviceId), await costLinesOf(trx, serviceId));
  });
}

export async function updateCostLine(ctx: ServiceContext, serviceId: number, lineId: number, input: CostLineBody) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    await serviceOrThrow(trx, firmId, serviceId);
    const lines = await costLinesOf(trx, serviceId);
    const line = lines.find((l) => l.id === lineId);
    if (!line) throw costLineNotFound();
    let item: CatalogItem | null = null;
    const itemId = input.catalog_item_id === undefined ? line.catalog_item_id : input.catalog_item_id;
    if (itemId !== null) {
      // The line's current item may since have been archived; it stays linked until changed.
      item = itemId === line.catalog_item_id ? (await findItem(trx, firmId, itemId))! : (await activeItems(trx, firmId, [itemId])).get(itemId)!;
    }
    const row: CostLineRow = costLineRow(input, item, line);
    const t = now();
    const changes = changed(line, row);
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('catalog_cost_lines').set({ ...changes, updated_at: t }).where('id', '=', lineId).execute();
    }
    if (input.position !== undefined || Object.keys(changes).length > 0) {
      const others = lines.filter((l) => l.id !== lineId);
      await placeLines(trx, serviceId, input.position !== undefined ? at(others, line, input.position) : lines, t);
    }
    return serviceObject(await serviceOrThrow(trx, firmId, serviceId), await costLinesOf(trx, serviceId));
  });
}

export async function deleteCostLine(ctx: ServiceContext, serviceId: number, lineId: number) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    await serviceOrThrow(trx, firmId, serviceId);
    const line = await trx.selectFrom('catalog_cost_lines').select('id').where('service_id', '=', serviceId).where('id', '=', lineId).executeTakeFirst();
    if (!line) throw costLineNotFound();
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('catalog_cost_lines').where('id', '=', line.id).execute();
    await placeLines(trx, serviceId, await costLinesOf(trx, serviceId), now());
    return serviceObject(await serviceOrThrow(trx, firmId, serviceId), await costLinesOf(trx, serviceId));
  });
}

// ---- price lists ---------------------------------------------------------------------------

export interface PriceListInput {
  name?: string; description?: string | null; is_default?: boolean; archived?: boolean;
  services?: { service_id: number; unit_price: number }[];
  items?: { catalog_item_id: number; unit_cost: number }[];
}

export async function priceListObject(db: Executor, p: PriceList) {
  const entries = await entriesOf(db, p.id);
  const serviceIds = entries.flatMap((e) => (e.service_id !== null ? [e.service_id] : []));
  const itemIds = entries.flatMap((e) => (e.catalog_item_id !== null ? [e.catalog_item_id] : []));
  const [services, items] = await Promise.all([findServices(db, p.firm_id, serviceIds), findItems(db, p.firm_id, itemIds)]);
  return {
    ...priceListSummary(p),
    services: entries.filter((e) => e.service_id !== null).map((e) => {
      const s = services.find((x) => x.id === e.service_id)!;
      return { service_id: s.id, name: s.name, unit: s.unit, unit_price: centsToDollars(e.amount_cents) };
    }),
    items: entries.filter((e) => e.catalog_item_id !== null).map((e) => {
      const i = items.find((x) => x.id === e.catalog_item_id)!;
      return { catalog_item_id: i.id, name: i.name, unit: i.unit, unit_cost: centsToDollars(e.amount_cents) };
    }),
  };
}

export async function listPriceLists(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await list(ctx, 'price_lists', filter, limit, offset);
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
export async function writeEntries(trx: Executor, firmId: number, listId: number, input: PriceListInput) {
  for (const [key, ids] of [['services', input.services?.map((e) => e.service_id)], ['items', input.items?.map((e) => e.catalog_item_id)]] as const) {
    const dup = duplicates(ids ?? []);
    if (dup.length > 0) {
      throw invalidField(key, `${key} lists id ${dup.join(', ')} more than once`);
    }
  }
  if (input.services) await activeServices(trx, firmId, input.services.map((e) => e.service_id));
  if (input.items) await activeItems(trx, firmId, input.items.map((e) => e.catalog_item_id));
  if (input.services) {
    await trx.deleteFrom('price_list_entries').where('price_list_id', '=', listId).where('service_id', 'is not', null).execute();
    if (input.services.length > 0) {
      await trx.insertInto('price_list_entries').values(input.services.map((e, i) => ({
        firm_id: firmId, price_list_id: listId, service_id: e.service_id, catalog_item_id: null, amount_cents: dollarsToCents(e.unit_price), position: i + 1,
      }))).execute();
    }
  }
  if (input.items) {
    await trx.deleteFrom('price_list_entries').where('price_list_id', '=', listId).where('catalog_item_id', 'is not', null).execute();
    if (input.items.length > 0) {
      await trx.insertInto('price_list_entries').values(input.items.map((e, i) => ({
        firm_id: firmId, price_list_id: listId, service_id: null, catalog_item_id: e.catalog_item_id, amount_cents: dollarsToCents(e.unit_cost), position: i + 1,
      }))).execute();
    }
  }
}

export async function clearDefault(trx: Executor, firmId: number, exceptId: number, t: string) {
  await trx.updateTable('price_lists').set({ is_default: 0, updated_at: t }).where('firm_id', '=', firmId)
    .where('is_default', '=', 1).where('id', '!=', exceptId).execute();
}

export async function createPriceList(ctx: ServiceContext, input: PriceListInput & { name: string }) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(trx, 'price_lists', firmId, nameKey(name), null);
    const t = now();
    const p = await trx.insertInto('price_lists').values({
      firm_id: firmId, name, name_key: nameKey(name), description: input.description ?? null, is_default: input.is_default ? 1 : 0,
      archived_at: null, created_at: t, updated_at: t,
    }).returningAll().executeTakeFirstOrThrow();
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
      await trx.updateTable('price_lists').set({ ...changes, updated_at: t }).where('id', '=', id).execute();
    }
    if (changes.is_default === 1) await clearDefault(trx, firmId, id, t);
    return priceListObject(trx, (await findPriceList(trx, firmId, id))!);
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archivePriceList(ctx: ServiceContext, id: number) {
  return updatePriceList(ctx, id, { archived: true }, true);
}

// ---- estimate templates --------------------------------------------------------------------

export interface TemplateInput {
  name?: string; description?: string | null; archived?: boolean;
  areas?: { name: string; services: { service_id: number; quantity?: number | null }[] }[];
}

/** Templates with their services' names and units, read in one query for all of them. */
export async function templateObjects(db: Executor, templates: EstimateTemplate[]) {
  const ids = new Set(templates.flatMap((t) => templateAreas(t).flatMap((a) => a.services.map((s) => s.service_id))));
  const services = new Map((await findServices(db, templates[0]?.firm_id ?? 0, [...ids])).map((s) => [s.id, s]));
  return templates.map((t) => ({
    ...templateBase(t),
    areas: templateAreas(t).map((a) => ({
      name: a.name,
      services: a.services.map((s) => {
        const svc = services.get(s.service_id)!;
        return { service_id: s.service_id, name: svc.name, unit: svc.unit, quantity: s.quantity === null ? null : Number(s.quantity) };
      }),
    })),
  }));
}

export async function templateObject(db: Executor, t: EstimateTemplate) {
  return (await templateObjects(db, [t]))[0]!;
}

export function storedAreas(areas: NonNullable<TemplateInput['areas']>): string {
  return JSON.stringify(areas.map((a) => ({
    name: a.name.trim(),
    services: a.services.map((s) => ({ service_id: s.service_id, quantity: templateQuantity(s.quantity) })),
  })));
}

export async function listTemplates(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await list(ctx, 'estimate_templates', filter, limit, offset);
  return { data: await templateObjects(ctx.database.db, rows as EstimateTemplate[]), total };
}

export async function getTemplate(ctx: ServiceContext, id: number) {
  const t = await findTemplate(ctx.database.db, ctx.auth.firm.id, id);
  if (!t) throw templateNotFound();
  return templateObject(ctx.database.db, t);
}

export async function createTemplate(ctx: ServiceContext, input: TemplateInput & { name: string; areas: NonNullable<TemplateInput['areas']> }) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const name = input.name.trim();
    await assertNameFree(trx, 'estimate_templates', firmId, nameKey(name), null);
    await activeServices(trx, firmId, input.areas.flatMap((a) => a.services.map((s) => s.service_id)));
    const t = now();
    const row = await trx.insertInto('estimate_templates').values({
      firm_id: firmId, name, name_key: nameKey(name), description: input.description ?? null, areas: storedAreas(input.areas),
      archived_at: null, created_at: t, updated_at: t,
    }).returningAll().executeTakeFirstOrThrow();
    return templateObject(trx, row);
  });
}

export async function updateTemplate(ctx: ServiceContext, id: number, input: TemplateInput, viaDelete = false) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const tpl = await findTemplate(trx, firmId, id);
    if (!tpl) throw templateNotFound();
    if (viaDelete && tpl.archived_at !== null) throw alreadyArchived(templateNotFound());
    if (viaDelete) assertDeletionAllowed(ctx);
    const t = now();
    const changes: Partial<EstimateTemplate> = { ...archiveChange(input.archived, tpl.archived_at, t) };
    if (input.name !== undefined && input.name.trim() !== tpl.name) {
      const name = input.name.trim();
      if (nameKey(name) !== tpl.name_key) await assertNameFree(trx, 'estimate_templates', firmId, nameKey(name), id);
      Object.assign(changes, { name, name_key: nameKey(name) });
    }
    if (input.description !== undefined && input.description !== tpl.description) changes.description = input.description;
    if (input.areas) {
      await activeServices(trx, firmId, input.areas.flatMap((a) => a.services.map((s) => s.service_id)));
      const areas = storedAreas(input.areas);
      if (areas !== tpl.areas) changes.areas = areas;
    }
    if (Object.keys(changes).length === 0) return templateObject(trx, tpl);
    return templateObject(trx, await trx.updateTable('estimate_templates').set({ ...changes, updated_at: t }).where('id', '=', id)
      .returningAll().executeTakeFirstOrThrow());
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archiveTemplate(ctx: ServiceContext, id: number) {
  return updateTemplate(ctx, id, { archived: true }, true);
}
