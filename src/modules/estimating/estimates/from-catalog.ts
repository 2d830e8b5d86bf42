// Estimate lines made from the catalog: a service becomes a line with its own copy of the
// service's fields and cost lines, priced from the estimate's price list. Later catalog edits
// never reach an existing line (document 3: unit_cost is this estimate's).
import type { Executor } from '#db/dialect.ts';
import type { Transaction } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { CatalogCostLine, CatalogItem, CatalogService, PriceListEntry } from '#db/tables.ts';
import { costLinesOf, entriesOf, findDefaultPriceList, findItems, findPriceList } from '#estimating/catalog/repo.ts';
import type { Settings } from '#platform/workspace.ts';
import type { StoredHaul } from './calculation.ts';

/** Unit prices of services and unit costs of items from one price list. */
export interface PriceBook {
  priceListId: number | null;
  servicePrice: Map<number, number>;
  itemCost: Map<number, number>;
}

export const EMPTY_PRICE_BOOK: PriceBook = { priceListId: null, servicePrice: new Map(), itemCost: new Map() };

/** The estimate's price list, or the workspace default list when it names none. */
export async function priceBookFor(db: Executor, firmId: number, priceListId: number | null): Promise<PriceBook> {
  const list =
    priceListId !== null ? await findPriceList(db, firmId, priceListId) : await findDefaultPriceList(db, firmId);
  if (!list) return EMPTY_PRICE_BOOK;
  const entries: PriceListEntry[] = await entriesOf(db, list.id);
  const book: PriceBook = { priceListId: list.id, servicePrice: new Map(), itemCost: new Map() };
  for (const e of entries) {
    if (e.service_id !== null) book.servicePrice.set(e.service_id, e.amount_cents);
    if (e.catalog_item_id !== null) book.itemCost.set(e.catalog_item_id, e.amount_cents);
  }
  return book;
}

/** The columns of a new estimate line taken from a catalog service. */
export function lineFieldsFromService(s: CatalogService, book: PriceBook) {
  return {
    name: s.name,
    service_type: s.name,
    category: s.category,
    assembly_id: s.id,
    estimating_mode: s.estimating_mode,
    unit: s.unit,
    unit_cost_cents: s.estimating_mode === 'unit_costing' ? s.unit_cost_cents : null,
    unit_price_cents: s.estimating_mode === 'unit_costing' ? (book.servicePrice.get(s.id) ?? s.unit_price_cents) : null,
    pricing_method: s.pricing_method,
    pricing_rate: s.pricing_rate,
    cost_code: s.cost_code,
    // Null proposal text prints the catalog service's (document 3); the HTML blocks are copied to edit per line.
    proposal_text: null,
    what_to_expect: s.what_to_expect,
    internal_scope: s.internal_scope,
  };
}

export interface CostLineFields {
  type: string;
  catalog_item_id: number | null;
  name: string;
  unit: string;
  unit_cost_cents: number;
  quantity_formula: string | null;
  waste_factor: string;
  pricing_method: string | null;
  pricing_rate: string | null;
  billing: string;
  haul: string | null;
  dump_material: string | null;
  dump_site: string | null;
}

/** A trucking haul with the workspace's defaults and the truck's capacity. */
export function defaultHaul(
  material: StoredHaul['material'],
  truck: CatalogItem | undefined,
  settings: Settings,
): StoredHaul {
  const capacity = Number(
    (truck ? (JSON.parse(truck.attributes) as Record<string, unknown>).capacity_tons : undefined) ?? NaN,
  );
  return {
    material,
    truck_capacity_tons: Number.isFinite(capacity) && capacity > 0 ? capacity : settings.haul_truck_capacity_tons,
    drive_hr: settings.haul_drive_hr,
    load_unload_hr: settings.haul_load_unload_hr,
    automatic_driving_time: false,
    route: null,
    drive_hr_source: 'default',
  };
}

/**
 * The service's default cost lines as estimate cost lines. A catalog line with a haul_material is
 * a haul: its formula gives tons and the engine turns them into truck hours. A fixed catalog
 * quantity becomes a constant formula, so the line still follows the catalog's meaning.
 */
export async function costLinesFromService(
  db: Executor,
  firmId: number,
  serviceId: number,
  book: PriceBook,
  settings: Settings,
): Promise<CostLineFields[]> {
  const lines: CatalogCostLine[] = await costLinesOf(db, serviceId);
  const items = new Map(
    (
      await findItems(db, firmId, [
        ...new Set(lines.map((l) => l.catalog_item_id).filter((id): id is number => id !== null)),
      ])
    ).map((i) => [i.id, i]),
  );
  return lines.map((cl) => {
    const item = cl.catalog_item_id === null ? undefined : items.get(cl.catalog_item_id);
    const itemCost = cl.catalog_item_id === null ? undefined : book.itemCost.get(cl.catalog_item_id);
    return {
      type: cl.type,
      catalog_item_id: cl.catalog_item_id,
      name: cl.name,
      unit: cl.unit,
      unit_cost_cents: itemCost ?? cl.unit_cost_cents,
      quantity_formula: cl.quantity_formula ?? cl.quantity,
      waste_factor: cl.waste_factor,
      pricing_method: cl.pricing_method,
      pricing_rate: cl.pricing_rate,
      billing: cl.billing,
      haul:
        cl.type === 'trucking' && cl.haul_material !== null
          ? JSON.stringify(defaultHaul(cl.haul_material as StoredHaul['material'], item, settings))
          : null,
      dump_material: cl.dump_material,
      dump_site:
        cl.dump_material !== null && item?.kind === 'dump_site'
          ? JSON.stringify({ vendor_id: null, name: item.name })
          : null,
    };
  });
}

/** Columns of a new line that neither the catalog nor the body set: a plain, listed, taxable line in the bid. */
export const NEW_LINE_DEFAULTS = {
  service_type: null,
  category: null,
  assembly_id: null,
  unit_cost_cents: null,
  unit_price_cents: null,
  pricing_method: null,
  pricing_rate: null,
  cost_code: null,
  proposal_text: null,
  what_to_expect: null,
  internal_scope: null,
  inputs: null,
  unit_cost_typed: 0,
  unit_price_typed: 0,
  is_optional: 0,
  hide_on_proposal: 0,
  taxable: 1,
  active: 1,
  excluded: 0,
  parent_service_id: null,
  is_bundle_master: 0,
  bundle_parent_service_id: null,
  price_override_cents: null,
  proposal_group: null,
  notes: null,
  measurement_quantity: null,
} as const;

/** Copies a detailed service's default cost lines under a new estimate line. */
export async function insertServiceCostLines(
  trx: Transaction<DB>,
  line: { firm_id: number; estimate_id: number; id: number },
  serviceId: number,
  book: PriceBook,
  settings: Settings,
  at: string,
): Promise<void> {
  const costLines = await costLinesFromService(trx, line.firm_id, serviceId, book, settings);
  if (costLines.length === 0) return;
  await trx
    .insertInto('estimate_cost_lines')
    .values(
      costLines.map((cl, i) => ({
        ...cl,
        firm_id: line.firm_id,
        estimate_id: line.estimate_id,
        line_item_id: line.id,
        position: i + 1,
        manual_quantity: null,
        unit_cost_typed: 0,
        is_alternate: 0,
        suppressed: 0,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}
