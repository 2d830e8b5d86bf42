// What the catalog's records share: who may change the catalog, unique names (any case, archived
// included), archiving and restoring through PATCH {archived}, and listing a page A to Z.
import type { Executor } from '#db/dialect.ts';
import { isEstimatingAdmin } from '#estimating/estimates/roles.ts';
import type { ServiceContext } from '#platform/context.ts';
import { conflict, forbidden } from '#platform/errors.ts';
import { findByNameKey, listCatalog, type CatalogTable, type ListFilter } from './repo.ts';

/** Catalog writes: the workspace owner or an estimating admin. */
export function assertCatalogAdmin(ctx: ServiceContext): void {
  if (isEstimatingAdmin(ctx.auth.user)) return;
  throw forbidden('Estimating admin required', {
    code: 'estimating_admin_required',
    message: 'Only the workspace owner or an estimating admin can change the catalog',
  });
}

const LABEL: Record<CatalogTable, string> = {
  catalog_items: 'Catalog item',
  catalog_services: 'Catalog service',
  price_lists: 'Price list',
  estimate_templates: 'Estimate template',
};

/** A taken name (any case) is 409 naming the holder; an archived holder can be restored instead. */
export async function assertNameFree(
  db: Executor,
  table: CatalogTable,
  firmId: number,
  key: string,
  selfId: number | null,
) {
  const holder = await findByNameKey(db, table, firmId, key);
  if (holder && holder.id !== selfId) {
    throw conflict(`${LABEL[table]} name already used`, {
      code: 'name_taken',
      field: 'name',
      existing_id: holder.id,
      message:
        holder.archived_at !== null
          ? `An archived ${LABEL[table].toLowerCase()} named "${holder.name}" exists (id ${holder.id}); restore it with PATCH {"archived": false}`
          : `A ${LABEL[table].toLowerCase()} named "${holder.name}" already exists (id ${holder.id})`,
    });
  }
}

/** The archived_at change that PATCH {archived} asks for: none when the record is already so. */
export function archiveChange(
  archived: boolean | undefined,
  current: string | null,
  t: string,
): { archived_at?: string | null } {
  if (archived === undefined) return {};
  if (archived) return current === null ? { archived_at: t } : {};
  return current !== null ? { archived_at: null } : {};
}

/** The fields of `row` that differ from `current`. */
export function changed<T extends object>(current: T, row: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(row) as [keyof T, T[keyof T]][]) if (current[k] !== v) out[k] = v;
  return out;
}

/** One page of a catalog table in the caller's workspace. */
export async function listPage<T extends CatalogTable>(
  ctx: ServiceContext,
  table: T,
  filter: ListFilter,
  limit: number,
  offset: number,
) {
  return listCatalog(ctx.database.db, ctx.database.dialect.engine, table, ctx.auth.firm.id, filter, limit, offset);
}
