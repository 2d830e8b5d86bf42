// Catalog services and their default cost lines: reads for any key with read_jobs; writes for the
// workspace owner or an estimating admin. DELETE archives a service and PATCH {archived: false}
// restores it; a cost line is removed for good. Cost lines keep positions 1..n and must name
// active items of the same workspace.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '#db/dialect.ts';
import type { CatalogCostLine, CatalogItem, CatalogService } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { alreadyArchived } from '#platform/records.ts';
import { now } from '#platform/time.ts';
import { activeItems } from './items.ts';
import { costLinesOf, findItem, findService, findServices, type ListFilter } from './repo.ts';
import { costLineRow, serviceRow, type CostLineRow } from './rules.ts';
import type { CreateCostLineBody, CreateServiceBody, UpdateCostLineBody, UpdateServiceBody } from './schemas.ts';
import { serviceObject, serviceSummary } from './serialize.ts';
import { archiveChange, assertCatalogAdmin, assertNameFree, changed, listPage } from './shared.ts';

const serviceNotFound = (ids?: number[]) =>
  notFound(
    'Catalog service not found',
    ids
      ? {
          message: `No active catalog service with id ${ids.join(', ')} in this workspace`,
          service_ids: ids,
        }
      : {},
  );
const costLineNotFound = () => notFound('Cost line not found');

/** The named services, all active and of this workspace, or 404 listing the ones that are not. */
export async function activeServices(
  db: Executor,
  firmId: number,
  ids: number[],
): Promise<Map<number, CatalogService>> {
  const unique = [...new Set(ids)];
  const found = (await findServices(db, firmId, unique)).filter((s) => s.archived_at === null);
  const missing = unique.filter((id) => !found.some((s) => s.id === id));
  if (missing.length > 0) throw serviceNotFound(missing);
  return new Map(found.map((s) => [s.id, s]));
}

export async function listServices(ctx: ServiceContext, filter: ListFilter, limit: number, offset: number) {
  const { rows, total } = await listPage(ctx, 'catalog_services', filter, limit, offset);
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

export async function createService(ctx: ServiceContext, input: Static<typeof CreateServiceBody>) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const row = serviceRow(input);
    await assertNameFree(trx, 'catalog_services', firmId, row.name_key, null);
    const lines = input.cost_lines ?? [];
    const items = await activeItems(
      trx,
      firmId,
      lines.flatMap((l) => (l.catalog_item_id ? [l.catalog_item_id] : [])),
    );
    const rows = lines.map((l) => costLineRow(l, l.catalog_item_id ? items.get(l.catalog_item_id)! : null));
    const t = now();
    const service = await trx
      .insertInto('catalog_services')
      .values({ firm_id: firmId, ...row, archived_at: null, created_at: t, updated_at: t })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (rows.length > 0) {
      await trx
        .insertInto('catalog_cost_lines')
        .values(
          rows.map((r, i) => ({
            firm_id: firmId,
            service_id: service.id,
            position: i + 1,
            ...r,
            created_at: t,
            updated_at: t,
          })),
        )
        .execute();
    }
    return serviceObject(service, await costLinesOf(trx, service.id));
  });
}

export async function updateService(
  ctx: ServiceContext,
  id: number,
  input: Static<typeof UpdateServiceBody>,
  viaDelete = false,
) {
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
    const saved =
      Object.keys(changes).length === 0
        ? service
        : await trx
            .updateTable('catalog_services')
            .set({ ...changes, updated_at: t })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
    return serviceObject(saved, await costLinesOf(trx, id));
  });
}

/** DELETE archives; a second DELETE is 404 (document 1, retry rules). */
export function archiveService(ctx: ServiceContext, id: number) {
  return updateService(ctx, id, { archived: true }, true);
}

// ---- default cost lines --------------------------------------------------------------------

/** Positions stay 1..n: a line placed at p pushes the later ones down. */
async function placeLines(trx: Executor, serviceId: number, ordered: CatalogCostLine[], t: string) {
  for (let i = 0; i < ordered.length; i++) {
    if (ordered[i]!.position !== i + 1) {
      await trx
        .updateTable('catalog_cost_lines')
        .set({ position: i + 1, updated_at: t })
        .where('id', '=', ordered[i]!.id)
        .execute();
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

export async function addCostLine(ctx: ServiceContext, serviceId: number, input: Static<typeof CreateCostLineBody>) {
  assertCatalogAdmin(ctx);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    await serviceOrThrow(trx, firmId, serviceId);
    const item = input.catalog_item_id
      ? (await activeItems(trx, firmId, [input.catalog_item_id])).get(input.catalog_item_id)!
      : null;
    const row = costLineRow(input, item);
    const lines = await costLinesOf(trx, serviceId);
    const t = now();
    const line = await trx
      .insertInto('catalog_cost_lines')
      .values({
        firm_id: firmId,
        service_id: serviceId,
        position: lines.length + 1,
        ...row,
        created_at: t,
        updated_at: t,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await placeLines(trx, serviceId, at(lines, line, input.position), t);
    return serviceObject(await serviceOrThrow(trx, firmId, serviceId), await costLinesOf(trx, serviceId));
  });
}

export async function updateCostLine(
  ctx: ServiceContext,
  serviceId: number,
  lineId: number,
  input: Static<typeof UpdateCostLineBody>,
) {
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
      item =
        itemId === line.catalog_item_id
          ? (await findItem(trx, firmId, itemId))!
          : (await activeItems(trx, firmId, [itemId])).get(itemId)!;
    }
    const row: CostLineRow = costLineRow(input, item, line);
    const t = now();
    const changes = changed(line, row);
    if (Object.keys(changes).length > 0) {
      await trx
        .updateTable('catalog_cost_lines')
        .set({ ...changes, updated_at: t })
        .where('id', '=', lineId)
        .execute();
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
    const line = await trx
      .selectFrom('catalog_cost_lines')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('id', '=', lineId)
      .executeTakeFirst();
    if (!line) throw costLineNotFound();
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('catalog_cost_lines').where('id', '=', line.id).execute();
    await placeLines(trx, serviceId, await costLinesOf(trx, serviceId), now());
    return serviceObject(await serviceOrThrow(trx, firmId, serviceId), await costLinesOf(trx, serviceId));
  });
}
