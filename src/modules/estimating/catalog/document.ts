// A catalog as one JSON document: what the admin import reads, the admin export writes and the
// starter catalog is. Records refer to each other by name (an item may also carry a local `key`
// that cost lines and price lists use instead), never by id, so a document moves between
// workspaces and import(export(x)) changes nothing.
//
// Import validates the whole document first (shape, names, references, formulas) and writes
// nothing when anything is wrong. merge (the default) upserts by name, any case, restoring
// archived matches; replace also archives what the document does not name.
import { Type, type Static } from '@sinclair/typebox';
import type { Executor } from '#db/dialect.ts';
import type { CatalogCostLine, CatalogItem, CatalogService, EstimateTemplate, PriceList } from '#db/tables.ts';
import { validateBody } from '#platform/ajv.ts';
import { ApiError, badRequest } from '#platform/errors.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { Body, Nullable } from '#platform/schemas.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { clearDefault } from './price-lists.ts';
import {
  costLineRow,
  itemRow,
  serviceRow,
  templateQuantity,
  type CostLineRow,
  type ItemRow,
  type ServiceRow,
} from './rules.ts';
import { costLineFields, itemFields, priceListFields, serviceFields } from './schemas.ts';
import { decimal, templateAreas } from './serialize.ts';

export type ImportMode = 'merge' | 'replace';

const { catalog_item_id: _omit, ...docCostLineFields } = costLineFields;
const Ref = Type.String({ minLength: 1, maxLength: 200, description: "an item's key or name / a service's name" });
const Money = Type.Number({ minimum: 0, maximum: 100_000_000 });

const DocItem = Body(
  { key: Type.String({ minLength: 1, maxLength: 100 }), ...itemFields },
  { required: ['kind', 'name', 'unit', 'unit_cost'] },
);
const DocCostLine = Body({ ...docCostLineFields, item: Nullable(Ref) }, { required: ['type'] });
const DocService = Body(
  { ...serviceFields, cost_lines: Type.Array(DocCostLine, { maxItems: 100 }) },
  { required: ['name', 'unit', 'estimating_mode'] },
);
const DocPriceList = Body(
  {
    name: priceListFields.name,
    description: priceListFields.description,
    is_default: priceListFields.is_default,
    services: Type.Array(Type.Object({ service: Ref, unit_price: Money }, { additionalProperties: false }), {
      maxItems: 5000,
    }),
    items: Type.Array(Type.Object({ item: Ref, unit_cost: Money }, { additionalProperties: false }), {
      maxItems: 5000,
    }),
  },
  { required: ['name'] },
);
const DocTemplate = Body(
  {
    name: priceListFields.name,
    description: priceListFields.description,
    areas: Type.Array(
      Type.Object(
        {
          name: priceListFields.name,
          services: Type.Array(
            Type.Object(
              { service: Ref, quantity: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000 }))) },
              { additionalProperties: false },
            ),
            { maxItems: 200 },
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { required: ['name', 'areas'] },
);

export const CatalogDocument = Body({
  version: Type.Literal(1),
  items: Type.Array(DocItem, { maxItems: 5000 }),
  services: Type.Array(DocService, { maxItems: 2000 }),
  price_lists: Type.Array(DocPriceList, { maxItems: 200 }),
  templates: Type.Array(DocTemplate, { maxItems: 500 }),
});
export type CatalogDocumentInput = Static<typeof CatalogDocument>;

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  archived: number;
}
export interface ImportResult {
  mode: ImportMode;
  items: Counts;
  services: Counts;
  price_lists: Counts;
  templates: Counts;
}

interface Problem {
  path: string;
  error: string;
  message?: string;
  code?: string;
}

/** Runs `fn`; a 4xx it throws becomes a problem at `path` (the caller reports them all at once). */
function attempt<T>(problems: Problem[], path: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    const { error, message, code, field } = e.body as {
      error: string;
      message?: string;
      code?: string;
      field?: string;
    };
    problems.push({
      path: field ? `${path}/${field}` : path,
      error,
      ...(message && message !== error ? { message } : {}),
      ...(code ? { code } : {}),
    });
    return undefined;
  }
}

const counts = (): Counts => ({ created: 0, updated: 0, unchanged: 0, archived: 0 });

async function chunked<T>(rows: T[], size: number, fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await fn(rows.slice(i, i + size));
}

function sameFields<T extends object>(current: T, row: Partial<T>): boolean {
  return (Object.keys(row) as (keyof T)[]).every((k) => current[k] === row[k]);
}

/** A reference to an item or service: a record of the document (by index) or an existing one (by id). */
type Ref = { doc: number } | { id: number };

/**
 * Validates `body` as a catalog document and writes it into workspace `firmId` inside `trx`.
 * Any problem throws 400 invalid_catalog listing every problem with its path; nothing is written.
 */
export async function applyCatalog(
  trx: Executor,
  firmId: number,
  body: unknown,
  mode: ImportMode,
): Promise<ImportResult> {
  const doc = validateBody<CatalogDocumentInput>(CatalogDocument, body);
  const problems: Problem[] = [];
  const [items, services, lists, templates] = await Promise.all([
    trx.selectFrom('catalog_items').selectAll().where('firm_id', '=', firmId).execute(),
    trx.selectFrom('catalog_services').selectAll().where('firm_id', '=', firmId).execute(),
    trx.selectFrom('price_lists').selectAll().where('firm_id', '=', firmId).execute(),
    trx.selectFrom('estimate_templates').selectAll().where('firm_id', '=', firmId).execute(),
  ]);
  const byKey = <T extends { name_key: string }>(rows: T[]) => new Map(rows.map((r) => [r.name_key, r]));
  const existingItems = byKey(items);
  const existingServices = byKey(services);
  const existingLists = byKey(lists);
  const existingTemplates = byKey(templates);

  // ---- plan: every row computed, every reference resolved, before any write ----
  const docItems = doc.items ?? [];
  const itemRows: (ItemRow | undefined)[] = [];
  const itemRefs = new Map<string, number>(); // key or name_key -> document index
  docItems.forEach((it, i) => {
    const path = `/items/${i}`;
    const row = attempt(problems, path, () => itemRow(it));
    itemRows.push(row);
    if (!row) return;
    if (itemRows.some((r, j) => j < i && r?.name_key === row.name_key))
      problems.push({ path: `${path}/name`, error: `Item name "${row.name}" appears more than once` });
    if (it.key !== undefined) {
      if (docItems.some((o, j) => j < i && o.key === it.key))
        problems.push({ path: `${path}/key`, error: `Item key "${it.key}" appears more than once` });
      itemRefs.set(`key:${it.key}`, i);
    }
    if (!itemRefs.has(`name:${row.name_key}`)) itemRefs.set(`name:${row.name_key}`, i);
  });
  const resolveItem = (ref: string): Ref | undefined => {
    const i = itemRefs.get(`key:${ref}`) ?? itemRefs.get(`name:${nameKey(ref)}`);
    if (i !== undefined) return { doc: i };
    const existing = mode === 'merge' ? existingItems.get(nameKey(ref)) : undefined;
    return existing && existing.archived_at === null ? { id: existing.id } : undefined;
  };
  const itemOf = (ref: Ref) =>
    'doc' in ref ? { ...itemRows[ref.doc]!, id: -1 - ref.doc } : items.find((x) => x.id === ref.id)!;

  const docServices = doc.services ?? [];
  const servicePlans: ({ row: ServiceRow; lines: (CostLineRow & { ref: Ref | null })[] } | undefined)[] = [];
  const serviceRefs = new Map<string, number>();
  docServices.forEach((s, i) => {
    const path = `/services/${i}`;
    const row = attempt(problems, path, () => serviceRow(s));
    const lines: (CostLineRow & { ref: Ref | null })[] = [];
    (s.cost_lines ?? []).forEach((l, j) => {
      const linePath = `${path}/cost_lines/${j}`;
      let ref: Ref | null = null;
      if (l.item !== undefined && l.item !== null) {
        ref = resolveItem(l.item) ?? null;
        if (!ref) {
          problems.push({
            path: `${linePath}/item`,
            error: `Catalog item "${l.item}" not found`,
            code: 'unknown_item',
          });
          return;
        }
        if ('doc' in ref && !itemRows[ref.doc]) return; // the item itself is already reported
      }
      const { item: _item, ...input } = l;
      const line = attempt(problems, linePath, () => costLineRow(input, ref ? itemOf(ref) : null));
      if (line) lines.push({ ...line, ref });
    });
    servicePlans.push(row ? { row, lines } : undefined);
    if (!row) return;
    if (serviceRefs.has(row.name_key))
      problems.push({ path: `${path}/name`, error: `Service name "${row.name}" appears more than once` });
    else serviceRefs.set(row.name_key, i);
  });
  const resolveService = (ref: string): Ref | undefined => {
    const i = serviceRefs.get(nameKey(ref));
    if (i !== undefined) return { doc: i };
    const existing = mode === 'merge' ? existingServices.get(nameKey(ref)) : undefined;
    return existing && existing.archived_at === null ? { id: existing.id } : undefined;
  };

  const docLists = doc.price_lists ?? [];
  const listPlans = docLists.map((p, i) => {
    const path = `/price_lists/${i}`;
    const name = p.name.trim();
    if (docLists.some((o, j) => j < i && nameKey(o.name.trim()) === nameKey(name)))
      problems.push({ path: `${path}/name`, error: `Price list name "${name}" appears more than once` });
    const seen = new Set<string>();
    const services = (p.services ?? []).flatMap((e, j) => {
      const ref = resolveService(e.service);
      if (!ref) {
        problems.push({
          path: `${path}/services/${j}/service`,
          error: `Catalog service "${e.service}" not found`,
          code: 'unknown_service',
        });
        return [];
      }
      const k = JSON.stringify(ref);
      if (seen.has(k)) {
        problems.push({
          path: `${path}/services/${j}/service`,
          error: `Catalog service "${e.service}" is priced more than once`,
        });
        return [];
      }
      seen.add(k);
      return [{ ref, cents: dollarsToCents(e.unit_price) }];
    });
    const itemEntries = (p.items ?? []).flatMap((e, j) => {
      const ref = resolveItem(e.item);
      if (!ref) {
        problems.push({
          path: `${path}/items/${j}/item`,
          error: `Catalog item "${e.item}" not found`,
          code: 'unknown_item',
        });
        return [];
      }
      const k = `item${JSON.stringify(ref)}`;
      if (seen.has(k)) {
        problems.push({ path: `${path}/items/${j}/item`, error: `Catalog item "${e.item}" is priced more than once` });
        return [];
      }
      seen.add(k);
      return [{ ref, cents: dollarsToCents(e.unit_cost) }];
    });
    return { name, description: p.description ?? null, is_default: p.is_default, services, items: itemEntries };
  });
  if (listPlans.filter((p) => p.is_default).length > 1)
    problems.push({ path: '/price_lists', error: 'At most one price list can be the default' });

  const docTemplates = doc.templates ?? [];
  const templatePlans = docTemplates.map((tpl, i) => {
    const path = `/templates/${i}`;
    const name = tpl.name.trim();
    if (docTemplates.some((o, j) => j < i && nameKey(o.name.trim()) === nameKey(name)))
      problems.push({ path: `${path}/name`, error: `Template name "${name}" appears more than once` });
    const areas = tpl.areas.map((a, j) => ({
      name: a.name.trim(),
      services: a.services.flatMap((s, k) => {
        const ref = resolveService(s.service);
        if (!ref) {
          problems.push({
            path: `${path}/areas/${j}/services/${k}/service`,
            error: `Catalog service "${s.service}" not found`,
            code: 'unknown_service',
          });
          return [];
        }
        const quantity = attempt(problems, `${path}/areas/${j}/services/${k}`, () => templateQuantity(s.quantity));
        return [{ ref, quantity: quantity ?? null }];
      }),
    }));
    return { name, description: tpl.description ?? null, areas };
  });

  if (problems.length > 0) {
    throw badRequest('Invalid catalog', {
      code: 'invalid_catalog',
      message: `${problems.length} problem${problems.length > 1 ? 's' : ''} in the catalog; nothing was imported`,
      errors: problems,
    });
  }

  // ---- write ----
  const t = now();
  const result: ImportResult = {
    mode,
    items: counts(),
    services: counts(),
    price_lists: counts(),
    templates: counts(),
  };

  // Items.
  const itemIds: number[] = [];
  const newItems: { index: number; row: ItemRow }[] = [];
  for (const [i, row] of itemRows.entries()) {
    const current = existingItems.get(row!.name_key);
    if (!current) {
      newItems.push({ index: i, row: row! });
      continue;
    }
    itemIds[i] = current.id;
    if (sameFields(current, row!) && current.archived_at === null) {
      result.items.unchanged++;
      continue;
    }
    await trx
      .updateTable('catalog_items')
      .set({ ...row!, archived_at: null, updated_at: t })
      .where('id', '=', current.id)
      .execute();
    result.items.updated++;
  }
  await chunked(newItems, 500, async (chunk) => {
    const ids = await trx
      .insertInto('catalog_items')
      .values(
        chunk.map(({ row }) => ({
          firm_id: firmId,
          ...row,
          archived_at: null,
          created_at: t,
          updated_at: t,
        })),
      )
      .returning(['id', 'name_key'])
      .execute();
    for (const { index, row } of chunk) itemIds[index] = ids.find((r) => r.name_key === row.name_key)!.id;
  });
  result.items.created = newItems.length;
  const itemId = (ref: Ref) => ('doc' in ref ? itemIds[ref.doc]! : ref.id);

  // Services and their cost lines.
  const serviceIds: number[] = [];
  const newServices: { index: number; row: ServiceRow }[] = [];
  const linesToWrite: number[] = []; // document indexes whose lines are (re)written
  for (const [i, plan] of servicePlans.entries()) {
    const { row, lines } = plan!;
    const current = existingServices.get(row.name_key);
    if (!current) {
      newServices.push({ index: i, row });
      linesToWrite.push(i);
      continue;
    }
    serviceIds[i] = current.id;
    const stored = await trx
      .selectFrom('catalog_cost_lines')
      .selectAll()
      .where('service_id', '=', current.id)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const sameLines =
      stored.length === lines.length &&
      stored.every((s, j) => {
        const { ref, ...line } = lines[j]!;
        return sameFields(s, { ...line, catalog_item_id: ref ? itemId(ref) : null });
      });
    if (!sameLines) {
      await trx.deleteFrom('catalog_cost_lines').where('service_id', '=', current.id).execute();
      linesToWrite.push(i);
    }
    if (sameLines && sameFields(current, row) && current.archived_at === null) {
      result.services.unchanged++;
      continue;
    }
    await trx
      .updateTable('catalog_services')
      .set({ ...row, archived_at: null, updated_at: t })
      .where('id', '=', current.id)
      .execute();
    result.services.updated++;
  }
  await chunked(newServices, 300, async (chunk) => {
    const ids = await trx
      .insertInto('catalog_services')
      .values(
        chunk.map(({ row }) => ({
          firm_id: firmId,
          ...row,
          archived_at: null,
          created_at: t,
          updated_at: t,
        })),
      )
      .returning(['id', 'name_key'])
      .execute();
    for (const { index, row } of chunk) serviceIds[index] = ids.find((r) => r.name_key === row.name_key)!.id;
  });
  result.services.created = newServices.length;
  const lineRows = linesToWrite.flatMap((i) =>
    servicePlans[i]!.lines.map(({ ref, ...line }, j) => ({
      firm_id: firmId,
      service_id: serviceIds[i]!,
      position: j + 1,
      ...line,
      catalog_item_id: ref ? itemId(ref) : null,
      created_at: t,
      updated_at: t,
    })),
  );
  await chunked(lineRows, 300, (chunk) => trx.insertInto('catalog_cost_lines').values(chunk).execute());
  const serviceId = (ref: Ref) => ('doc' in ref ? serviceIds[ref.doc]! : ref.id);

  // Price lists (a document's entries replace the list's).
  const defaultId: { id?: number } = {};
  for (const plan of listPlans) {
    const key = nameKey(plan.name);
    const current = existingLists.get(key);
    const entries: {
      service_id: number | null;
      catalog_item_id: number | null;
      amount_cents: number;
      position: number;
    }[] = [
      ...plan.services.map((e, i) => ({
        service_id: serviceId(e.ref),
        catalog_item_id: null,
        amount_cents: e.cents,
        position: i + 1,
      })),
      ...plan.items.map((e, i) => ({
        service_id: null,
        catalog_item_id: itemId(e.ref),
        amount_cents: e.cents,
        position: i + 1,
      })),
    ];
    const fields = {
      name: plan.name,
      name_key: key,
      description: plan.description,
      is_default: plan.is_default === undefined ? (current?.is_default ?? 0) : plan.is_default ? 1 : 0,
    };
    let id: number;
    if (!current) {
      id = (
        await trx
          .insertInto('price_lists')
          .values({ firm_id: firmId, ...fields, archived_at: null, created_at: t, updated_at: t })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      result.price_lists.created++;
    } else {
      id = current.id;
      const stored = await trx
        .selectFrom('price_list_entries')
        .select(['service_id', 'catalog_item_id', 'amount_cents', 'position'])
        .where('price_list_id', '=', id)
        .orderBy('service_id')
        .orderBy('position')
        .execute();
      const sorted = (rows: typeof entries) =>
        JSON.stringify(
          [...rows]
            .sort(
              (a, b) => (a.service_id === null ? 1 : 0) - (b.service_id === null ? 1 : 0) || a.position - b.position,
            )
            .map((e) => [e.service_id, e.catalog_item_id, e.amount_cents, e.position]),
        );
      const sameEntries = sorted(stored) === sorted(entries);
      if (sameEntries && sameFields(current, fields) && current.archived_at === null) {
        result.price_lists.unchanged++;
      } else {
        await trx
          .updateTable('price_lists')
          .set({ ...fields, archived_at: null, updated_at: t })
          .where('id', '=', id)
          .execute();
        result.price_lists.updated++;
      }
      if (!sameEntries) await trx.deleteFrom('price_list_entries').where('price_list_id', '=', id).execute();
      if (sameEntries) continue;
    }
    if (fields.is_default === 1) defaultId.id = id;
    if (entries.length > 0) {
      await chunked(entries, 300, (chunk) =>
        trx
          .insertInto('price_list_entries')
          .values(chunk.map((e) => ({ firm_id: firmId, price_list_id: id, ...e })))
          .execute(),
      );
    }
  }
  const fileDefault = listPlans.find((p) => p.is_default);
  if (fileDefault) {
    const id = defaultId.id ?? existingLists.get(nameKey(fileDefault.name))!.id;
    await clearDefault(trx, firmId, id, t);
  }

  // Templates.
  for (const plan of templatePlans) {
    const key = nameKey(plan.name);
    const areas = JSON.stringify(
      plan.areas.map((a) => ({
        name: a.name,
        services: a.services.map((s) => ({ service_id: serviceId(s.ref), quantity: s.quantity })),
      })),
    );
    const fields = { name: plan.name, name_key: key, description: plan.description, areas };
    const current = existingTemplates.get(key);
    if (!current) {
      await trx
        .insertInto('estimate_templates')
        .values({ firm_id: firmId, ...fields, archived_at: null, created_at: t, updated_at: t })
        .execute();
      result.templates.created++;
    } else if (sameFields(current, fields) && current.archived_at === null) {
      result.templates.unchanged++;
    } else {
      await trx
        .updateTable('estimate_templates')
        .set({ ...fields, archived_at: null, updated_at: t })
        .where('id', '=', current.id)
        .execute();
      result.templates.updated++;
    }
  }

  if (mode === 'replace') {
    const keep = {
      catalog_items: new Set(itemIds),
      catalog_services: new Set(serviceIds),
      price_lists: new Set(listPlans.map((p) => nameKey(p.name))),
      estimate_templates: new Set(templatePlans.map((p) => nameKey(p.name))),
    };
    const archive = async (
      table: 'catalog_items' | 'catalog_services' | 'price_lists' | 'estimate_templates',
      ids: number[],
      into: Counts,
    ) => {
      if (ids.length === 0) return;
      await chunked(ids, 500, (chunk) =>
        trx.updateTable(table).set({ archived_at: t, updated_at: t }).where('id', 'in', chunk).execute(),
      );
      into.archived = ids.length;
    };
    await archive(
      'catalog_items',
      items.filter((r) => r.archived_at === null && !keep.catalog_items.has(r.id)).map((r) => r.id),
      result.items,
    );
    await archive(
      'catalog_services',
      services.filter((r) => r.archived_at === null && !keep.catalog_services.has(r.id)).map((r) => r.id),
      result.services,
    );
    const goneLists = lists.filter((r) => r.archived_at === null && !keep.price_lists.has(r.name_key));
    await archive(
      'price_lists',
      goneLists.map((r) => r.id),
      result.price_lists,
    );
    if (goneLists.length > 0)
      await trx
        .updateTable('price_lists')
        .set({ is_default: 0 })
        .where(
          'id',
          'in',
          goneLists.map((r) => r.id),
        )
        .execute();
    await archive(
      'estimate_templates',
      templates.filter((r) => r.archived_at === null && !keep.estimate_templates.has(r.name_key)).map((r) => r.id),
      result.templates,
    );
  }
  return result;
}

// ---- export ----------------------------------------------------------------------------------

/** The workspace's active catalog as a document. References to archived records are left out. */
export async function exportCatalog(db: Executor, firmId: number) {
  const active = <T extends 'catalog_items' | 'catalog_services' | 'price_lists' | 'estimate_templates'>(table: T) =>
    db
      .selectFrom(table as 'catalog_items')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('archived_at', 'is', null)
      .orderBy('name_key')
      .orderBy('id')
      .execute();
  const [items, services, lists, templates] = await Promise.all([
    active('catalog_items') as Promise<CatalogItem[]>,
    active('catalog_services') as unknown as Promise<CatalogService[]>,
    active('price_lists') as unknown as Promise<PriceList[]>,
    active('estimate_templates') as unknown as Promise<EstimateTemplate[]>,
  ]);
  const itemName = new Map(items.map((i) => [i.id, i.name]));
  const serviceName = new Map(services.map((s) => [s.id, s.name]));
  const lines =
    services.length === 0
      ? []
      : await db
          .selectFrom('catalog_cost_lines')
          .selectAll()
          .where('firm_id', '=', firmId)
          .orderBy('service_id')
          .orderBy('position')
          .orderBy('id')
          .execute();
  const linesOf = new Map<number, CatalogCostLine[]>();
  for (const l of lines) linesOf.set(l.service_id, [...(linesOf.get(l.service_id) ?? []), l]);
  const entries =
    lists.length === 0
      ? []
      : await db
          .selectFrom('price_list_entries')
          .selectAll()
          .where('firm_id', '=', firmId)
          .orderBy('price_list_id')
          .orderBy('position')
          .orderBy('id')
          .execute();

  return {
    version: 1 as const,
    items: items.map((i) => ({
      kind: i.kind,
      name: i.name,
      unit: i.unit,
      unit_cost: centsToDollars(i.unit_cost_cents),
      attributes: JSON.parse(i.attributes),
    })),
    services: services.map((s) => ({
      name: s.name,
      category: s.category,
      unit: s.unit,
      estimating_mode: s.estimating_mode,
      unit_cost: centsToDollars(s.unit_cost_cents),
      unit_price: centsToDollars(s.unit_price_cents),
      pricing_method: s.pricing_method,
      pricing_rate: decimal(s.pricing_rate),
      cost_code: s.cost_code,
      proposal_text: s.proposal_text,
      what_to_expect: s.what_to_expect,
      internal_scope: s.internal_scope,
      cost_lines: (linesOf.get(s.id) ?? []).map((l) => ({
        type: l.type,
        item: l.catalog_item_id !== null ? (itemName.get(l.catalog_item_id) ?? null) : null,
        name: l.name,
        unit: l.unit,
        unit_cost: centsToDollars(l.unit_cost_cents),
        quantity_formula: l.quantity_formula,
        quantity: decimal(l.quantity),
        waste_factor: Number(l.waste_factor),
        billing: l.billing,
        haul_material: l.haul_material,
        dump_material: l.dump_material,
        pricing_method: l.pricing_method,
        pricing_rate: decimal(l.pricing_rate),
      })),
    })),
    price_lists: lists.map((p) => {
      const mine = entries.filter((e) => e.price_list_id === p.id);
      return {
        name: p.name,
        description: p.description,
        is_default: p.is_default === 1,
        services: mine
          .filter((e) => e.service_id !== null && serviceName.has(e.service_id))
          .map((e) => ({ service: serviceName.get(e.service_id!)!, unit_price: centsToDollars(e.amount_cents) })),
        items: mine
          .filter((e) => e.catalog_item_id !== null && itemName.has(e.catalog_item_id))
          .map((e) => ({ item: itemName.get(e.catalog_item_id!)!, unit_cost: centsToDollars(e.amount_cents) })),
      };
    }),
    templates: templates.map((tpl) => ({
      name: tpl.name,
      description: tpl.description,
      areas: templateAreas(tpl).map((a) => ({
        name: a.name,
        services: a.services
          .filter((s) => serviceName.has(s.service_id))
          .map((s) => ({ service: serviceName.get(s.service_id)!, quantity: decimal(s.quantity) })),
      })),
    })),
  };
}
