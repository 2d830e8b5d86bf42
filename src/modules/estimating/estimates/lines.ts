// Line items: add from the catalog (or a custom line), read with cost lines, change (cost lines
// included), remove. Sales may add and change unit-priced lines; detailed lines and cost lines
// need an estimator (roles.ts).
import type { ServiceContext } from '#platform/context.ts';
import type { Estimate, EstimateArea, EstimateCostLine, EstimateLine } from '#db/tables.ts';
import { conflict, invalidField, notFound } from '#platform/errors.ts';
import { nameKey } from '#platform/text.ts';
import { findItem, findService } from '#estimating/catalog/repo.ts';
import { calculationOf, effectivePricing, explainLine, type Calculation, type LineExplanation } from './calculation.ts';
import {
  insertServiceCostLines,
  lineFieldsFromService,
  NEW_LINE_DEFAULTS,
  priceBookFor,
  type PriceBook,
} from './from-catalog.ts';
import { costLineColumns, lineColumns } from './line-fields.ts';
import { takenQuantity } from './takeoff-quantities.ts';
import { findEstimate, nextPosition, type EstimateTree } from './repo.ts';
import type { AddLineInput, ChangeLineInput, CostLineInput } from './schemas.ts';
import { assertEstimateRole } from './roles.ts';
import { lineWithCostLines } from './serialize.ts';
import { EDITABLE, estimateNotFound, writeEstimate, type RevisionNote, type Trx, type WriteStep } from './write.ts';

export const lineNotFound = () => notFound('Line item not found');

const serviceNotFound = () => notFound('Catalog service not found', { field: 'service_id' });

/** A line put in an inactive area would silently leave the bid: refuse it and say why. */
function activeArea(area: EstimateArea, field: string): EstimateArea {
  if (area.active === 1) return area;
  throw conflict('Area is inactive', {
    code: 'area_inactive',
    field,
    message: 'Reactivate the area (PATCH the estimate with areas: [{id, active: true}]) first',
  });
}

/** The area a new line goes into: the one named, found by name, or the first active one ("Main" if none). */
async function areaFor(step: WriteStep, body: { area_id?: number; area_name?: string }): Promise<EstimateArea> {
  const { tree, trx, at } = step;
  if (body.area_id !== undefined) {
    const area = tree.areas.find((a) => a.id === body.area_id);
    if (!area) throw notFound('Area not found', { field: 'area_id' });
    return activeArea(area, 'area_id');
  }
  const name = body.area_name?.trim();
  const found = name
    ? tree.areas.find((a) => nameKey(a.name) === nameKey(name))
    : tree.areas.find((a) => a.active === 1);
  if (found) return activeArea(found, 'area_name');
  const e = tree.estimate;
  const row = {
    firm_id: e.firm_id,
    estimate_id: e.id,
    name: name || 'Main',
    position: nextPosition(tree.areas),
    quantity_source: 'manual',
    takeoff_id: null,
    active: 1 as const,
    created_at: at,
    updated_at: at,
  };
  const { id } = await trx.insertInto('estimate_areas').values(row).returning('id').executeTakeFirstOrThrow();
  const area = { id, ...row };
  tree.areas.push(area);
  return area;
}

function checkLineRefs(
  tree: EstimateTree,
  lineId: number | null,
  columns: { bundle_parent_service_id?: number | null; parent_service_id?: number | null; is_bundle_master?: number },
): void {
  const others = new Map(tree.lines.filter((l) => l.id !== lineId).map((l) => [l.id, l]));
  if (columns.bundle_parent_service_id != null) {
    if (columns.is_bundle_master === 1) {
      throw invalidField('bundle_parent_service_id', 'A bundle master cannot be inside another bundle');
    }
    const master = others.get(columns.bundle_parent_service_id);
    if (!master || master.is_bundle_master !== 1) {
      throw invalidField(
        'bundle_parent_service_id',
        'bundle_parent_service_id must be a bundle master line of this estimate',
      );
    }
  }
  if (columns.parent_service_id != null && !others.has(columns.parent_service_id)) {
    throw invalidField('parent_service_id', 'parent_service_id must be another line of this estimate');
  }
}

/** Applies a cost_lines list (Stripe-style: {id, ...changes}, {id, deleted: true}, or a new line). */
async function applyCostLines(
  step: WriteStep,
  line: EstimateLine,
  list: CostLineInput[],
): Promise<Record<string, number[]>> {
  const { trx, tree, at, settings } = step;
  if (line.estimating_mode !== 'detailed') {
    throw invalidField('cost_lines', 'Only detailed lines have cost lines');
  }
  const existing = new Map((tree.costLines.get(line.id) ?? []).map((cl) => [cl.id, cl]));
  const done: Record<string, number[]> = { added: [], changed: [], removed: [] };
  let position = nextPosition([...existing.values()]);
  let book: PriceBook | undefined;
  for (const [i, body] of list.entries()) {
    const path = `cost_lines[${i}]`;
    const base = body.id === undefined ? undefined : existing.get(body.id);
    if (body.id !== undefined && !base) throw notFound('Cost line not found', { field: `${path}.id` });
    if (body.deleted) {
      if (!base) throw invalidField(`${path}.deleted`, 'deleted needs the id of the cost line to remove');
      await trx.deleteFrom('estimate_cost_lines').where('id', '=', base.id).execute();
      existing.delete(base.id);
      done.removed.push(base.id);
      continue;
    }
    let item = null;
    if (body.catalog_item_id != null && body.catalog_item_id !== base?.catalog_item_id) {
      const found = await findItem(trx, step.ctx.auth.firm.id, body.catalog_item_id);
      if (!found || found.archived_at !== null)
        throw notFound('Catalog item not found', { field: `${path}.catalog_item_id` });
      // The item's cost as the estimate's price list has it, like lines copied from a service.
      book ??= await priceBookFor(trx, line.firm_id, effectivePricing(tree.estimate, settings).price_list_id);
      item = { ...found, unit_cost_cents: book.itemCost.get(found.id) ?? found.unit_cost_cents };
    }
    const { id: _id, deleted: _deleted, position: pos, ...fields } = body;
    const columns = costLineColumns(fields, base, item, settings, path);
    if (base) {
      await trx
        .updateTable('estimate_cost_lines')
        .set({ ...columns, ...(pos !== undefined ? { position: pos } : {}), updated_at: at })
        .where('id', '=', base.id)
        .execute();
      done.changed.push(base.id);
    } else {
      // costLineColumns fills every required column of a new cost line (or refuses the body).
      const values = Object.assign(
        {
          catalog_item_id: null,
          quantity_formula: null,
          manual_quantity: null,
          pricing_method: null,
          pricing_rate: null,
          haul: null,
          dump_material: null,
          unit_cost_typed: 0,
        },
        columns,
        {
          firm_id: line.firm_id,
          estimate_id: line.estimate_id,
          line_item_id: line.id,
          position: pos ?? position++,
          created_at: at,
          updated_at: at,
        },
      ) as Required<typeof columns> & {
        firm_id: number;
        estimate_id: number;
        line_item_id: number;
        position: number;
        created_at: string;
        updated_at: string;
      };
      const { id } = await trx
        .insertInto('estimate_cost_lines')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      done.added.push(id);
      step.newCostLines?.set(id, i);
    }
  }
  return done;
}

/** Which role rule a line change falls under: unit-priced lines (sales may) or building (estimators). */
function lineAction(mode: string | undefined, body: { cost_lines?: unknown }) {
  // An unknown line gets the least demanding rule, so the caller hears 404 rather than a role refusal.
  return (mode === 'unit_costing' || mode === undefined) && body.cost_lines === undefined
    ? ('unit_line' as const)
    : ('build' as const);
}

export async function addLine(ctx: ServiceContext, estimateId: number, body: AddLineInput) {
  const firmId = ctx.auth.firm.id;
  if (body.service_id !== undefined && body.assembly_id !== undefined && body.service_id !== body.assembly_id) {
    throw invalidField('assembly_id', 'service_id and assembly_id name the same catalog service; send one');
  }
  const serviceId = body.service_id ?? body.assembly_id;
  // A catalog line's rule depends on its service, read below in the transaction that copies it; this
  // is the least demanding rule the body allows (a detailed service then asks for 'build').
  const rule = lineAction(serviceId === undefined ? (body.estimating_mode ?? 'unit_costing') : undefined, body);
  let lineId = 0;
  const estimate = await writeEstimate(ctx, estimateId, { action: rule, statuses: EDITABLE }, async (step) => {
    const { trx, tree, at, settings } = step;
    const service = serviceId === undefined ? undefined : await findService(trx, firmId, serviceId);
    if (serviceId !== undefined && (!service || service.archived_at !== null)) throw serviceNotFound();
    const mode = service?.estimating_mode ?? body.estimating_mode ?? 'unit_costing';
    if (lineAction(mode, body) !== rule) assertEstimateRole(ctx.auth.user, lineAction(mode, body));
    if (service && body.estimating_mode !== undefined && body.estimating_mode !== service.estimating_mode) {
      throw invalidField(
        'estimating_mode',
        `The service is priced ${service.estimating_mode}; estimating_mode comes from the catalog`,
      );
    }
    const book = await priceBookFor(trx, firmId, effectivePricing(tree.estimate, settings).price_list_id);
    const fromService = service ? lineFieldsFromService(service, book) : null;
    const columns = lineColumns(body, mode);
    const name = columns.name ?? fromService?.name;
    const unit = columns.unit ?? fromService?.unit;
    if (!name) throw invalidField('name', 'name is required for a line without a catalog service');
    if (!unit) throw invalidField('unit', 'unit is required for a line without a catalog service');
    checkLineRefs(tree, null, columns);
    const area = await areaFor(step, body);
    // A line naming a measured quantity takes it (inherited) unless a quantity is typed too.
    if (columns.measurement_quantity != null) {
      const taken = await takenQuantity(step, area, columns.measurement_quantity, unit);
      if (columns.quantity === undefined) {
        columns.quantity = taken;
        columns.quantity_source = 'inherited';
      }
    }
    if (columns.quantity === undefined) throw invalidField('quantity', 'quantity is required');
    const e = tree.estimate;
    const row = {
      firm_id: firmId,
      estimate_id: e.id,
      area_id: area.id,
      position: nextPosition(tree.lines.filter((l) => l.area_id === area.id)),
      ...NEW_LINE_DEFAULTS,
      ...(fromService ?? {}),
      ...columns,
      name,
      unit,
      estimating_mode: mode,
      quantity: columns.quantity,
      quantity_source: columns.quantity_source ?? 'manual',
      created_at: at,
      updated_at: at,
    };
    const inserted = await trx.insertInto('estimate_lines').values(row).returning('id').executeTakeFirstOrThrow();
    lineId = inserted.id;
    step.linesChanged?.(lineId);
    const line: EstimateLine = { id: lineId, ...row };
    tree.lines.push(line);
    if (service && mode === 'detailed') {
      await insertServiceCostLines(trx, line, service.id, book, settings, at);
      tree.costLines.set(lineId, []);
    }
    if (body.cost_lines?.length) await applyCostLines(step, line, body.cost_lines);
    return {
      action: 'line_added',
      summary: `Added ${name} (${Number(row.quantity)} ${unit})`,
      changes: { line_item_id: lineId, service_id: service?.id ?? null },
    };
  });
  return { estimate, lineId };
}

export async function getLine(ctx: ServiceContext, estimateId: number, lineId: number) {
  const e = await findEstimate(ctx.database.db, ctx.auth.firm.id, estimateId, ctx.auth.user);
  if (!e) throw estimateNotFound();
  const [line] = await linesOf(ctx, e.id, [lineId]);
  if (!line) throw lineNotFound();
  const costLines = await costLinesOf(ctx, [line.id]);
  const calc = calculationOf(e);
  return lineWithCostLines(line, costLines, calc, await explanationOf(ctx, e, line, costLines, calc));
}

/** The estimate's lines of these ids (none of another estimate's). */
function linesOf(ctx: ServiceContext, estimateId: number, ids: number[]) {
  return ctx.database.db
    .selectFrom('estimate_lines')
    .selectAll()
    .where('id', 'in', ids)
    .where('estimate_id', '=', estimateId)
    .execute();
}

function costLinesOf(ctx: ServiceContext, lineIds: number[]) {
  return ctx.database.db
    .selectFrom('estimate_cost_lines')
    .selectAll()
    .where('line_item_id', 'in', lineIds)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * The line's explain texts when its calculation stored numbers only (every write since
 * 2026-11-30): built from the line alone, with its sub-lines in the bid when it is a bundle
 * master, under the method and rate the calculation followed. Null when the calculation stored
 * them, or has no numbers for the line (outside the bid).
 */
async function explanationOf(
  ctx: ServiceContext,
  e: Estimate,
  line: EstimateLine,
  costLines: EstimateCostLine[],
  calc: Calculation | null,
): Promise<LineExplanation | null> {
  const numbers = calc?.lines[String(line.id)];
  if (!calc || !numbers || numbers.explain !== undefined) return null;
  const subLines: { line: EstimateLine; costLines: EstimateCostLine[] }[] = [];
  if (line.is_bundle_master === 1 && numbers.bundle_child_service_ids.length > 0) {
    const ids = numbers.bundle_child_service_ids;
    const rows = await linesOf(ctx, e.id, ids);
    const theirs = await costLinesOf(ctx, ids);
    for (const row of rows) subLines.push({ line: row, costLines: theirs.filter((c) => c.line_item_id === row.id) });
  }
  return explainLine(line, costLines, subLines, calc.markup ?? effectivePricing(e, ctx.auth.settings));
}

async function modeOf(ctx: ServiceContext, estimateId: number, lineId: number): Promise<string | undefined> {
  const row = await ctx.database.db
    .selectFrom('estimate_lines')
    .select('estimating_mode')
    .where('id', '=', lineId)
    .where('estimate_id', '=', estimateId)
    .where('firm_id', '=', ctx.auth.firm.id)
    .executeTakeFirst();
  return row?.estimating_mode;
}

function lineOf(tree: EstimateTree, lineId: number): EstimateLine {
  const line = tree.lines.find((l) => l.id === lineId);
  if (!line) throw lineNotFound();
  return line;
}

/** Field-by-field difference for the edit log. */
function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [k, v] of Object.entries(after))
    if (k !== 'updated_at' && before[k] !== v) out[k] = { from: before[k], to: v };
  return out;
}

/**
 * A changed line's takeoff link: a measured quantity named (or the line moved to another linked
 * area) is taken at once unless a quantity is typed in the same change; null stops taking it
 * (the quantity stays, typed from now on).
 */
async function takeoffColumns(step: WriteStep, line: EstimateLine, columns: Record<string, unknown>): Promise<void> {
  const key =
    columns.measurement_quantity !== undefined
      ? (columns.measurement_quantity as string | null)
      : line.measurement_quantity;
  const moved = columns.area_id !== undefined && columns.area_id !== line.area_id;
  if (key === null) {
    if (columns.measurement_quantity === null && line.measurement_quantity !== null && columns.quantity === undefined)
      columns.quantity_source = 'manual';
    return;
  }
  if (columns.measurement_quantity === undefined && !moved) return;
  const area = step.tree.areas.find((a) => a.id === ((columns.area_id as number | undefined) ?? line.area_id))!;
  // Moved out of a linked area: the line keeps its quantity and stops taking the measurement's.
  if (columns.measurement_quantity === undefined && area.takeoff_id === null) return;
  const unit = (columns.unit as string | undefined) ?? line.unit;
  const taken = await takenQuantity(step, area, key, unit);
  if (
    columns.quantity !== undefined ||
    (line.quantity_source === 'manual' && columns.measurement_quantity === undefined)
  )
    return;
  columns.quantity = taken;
  columns.quantity_source = 'inherited';
}

export async function changeLine(ctx: ServiceContext, estimateId: number, lineId: number, body: ChangeLineInput) {
  const action = lineAction(await modeOf(ctx, estimateId, lineId), body);
  return writeEstimate(ctx, estimateId, { action, statuses: EDITABLE }, async (step): Promise<RevisionNote | null> => {
    const { trx, tree, at } = step;
    const line = lineOf(tree, lineId);
    const { area_id: areaId, position, cost_lines: costLines, ...fields } = body;
    const columns: Record<string, unknown> = lineColumns(fields, line.estimating_mode, line);
    checkLineRefs(tree, line.id, {
      ...columns,
      is_bundle_master: (columns.is_bundle_master as number | undefined) ?? line.is_bundle_master,
      bundle_parent_service_id:
        'bundle_parent_service_id' in columns
          ? (columns.bundle_parent_service_id as number | null)
          : line.bundle_parent_service_id,
    });
    if (
      columns.is_bundle_master === 0 &&
      line.is_bundle_master === 1 &&
      tree.lines.some((l) => l.bundle_parent_service_id === line.id)
    ) {
      throw invalidField('is_bundle_master', 'The line still has bundle sub-lines; move or remove them first');
    }
    if (areaId !== undefined && areaId !== line.area_id) {
      const area = tree.areas.find((a) => a.id === areaId);
      if (!area) throw notFound('Area not found', { field: 'area_id' });
      activeArea(area, 'area_id');
      columns.area_id = areaId;
      if (position === undefined) columns.position = nextPosition(tree.lines.filter((l) => l.area_id === areaId));
    }
    if (position !== undefined) columns.position = position;
    await takeoffColumns(step, line, columns);
    const changed = diff(line as unknown as Record<string, unknown>, columns);
    // Nothing to change (an empty PATCH, the values already there): no write, no edit-log entry.
    if (Object.keys(changed).length === 0 && costLines === undefined) return null;
    step.linesChanged?.(line.id);
    if (Object.keys(columns).length > 0) {
      await trx
        .updateTable('estimate_lines')
        .set({ ...columns, updated_at: at })
        .where('id', '=', line.id)
        .execute();
    }
    const costLineChanges = costLines ? await applyCostLines(step, line, costLines) : undefined;
    return {
      action: 'line_changed',
      summary: `Changed ${line.name}`,
      changes: { line_item_id: line.id, fields: changed, ...(costLineChanges ? { cost_lines: costLineChanges } : {}) },
    };
  });
}

export async function removeLine(ctx: ServiceContext, estimateId: number, lineId: number) {
  return writeEstimate(
    ctx,
    estimateId,
    { action: lineAction(await modeOf(ctx, estimateId, lineId), {}), statuses: EDITABLE, deletion: true },
    async ({ trx, tree, linesChanged }) => {
      const line = lineOf(tree, lineId);
      const removed = await deleteLineRows(trx, tree, line);
      // The lines gone, and those that named one of them as their parent (deleteLineRows unlinks them).
      const unlinked = tree.lines.filter((l) => l.parent_service_id !== null && removed.includes(l.parent_service_id));
      linesChanged?.(...removed, ...unlinked.map((l) => l.id));
      return { action: 'line_removed', summary: `Removed ${line.name}`, changes: { line_item_ids: removed } };
    },
  );
}

/**
 * Deletes a line inside a write step: a bundle goes with its sub-lines; lines that pointed at the
 * removed one as their parent keep standing alone. Returns the ids removed.
 */
export async function deleteLineRows(trx: Trx, tree: EstimateTree, line: EstimateLine): Promise<number[]> {
  const removed = [line.id, ...tree.lines.filter((l) => l.bundle_parent_service_id === line.id).map((l) => l.id)];
  await trx
    .updateTable('estimate_lines')
    .set({ parent_service_id: null })
    .where('estimate_id', '=', line.estimate_id)
    .where('parent_service_id', 'in', removed)
    .execute();
  await trx.deleteFrom('estimate_lines').where('id', 'in', removed).execute();
  tree.lines = tree.lines.filter((l) => !removed.includes(l.id));
  return removed;
}
