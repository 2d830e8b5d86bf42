// "Quantities reach the job's draft estimate" (document 3, Site assessments and pins): after a pin
// write, each catalog service the pin's assessment service prices (before and after the write) gets
// its line in the "Site assessment" area (quantity_source assessment) of the job's draft estimate
// set to the sum of the job's pins of that service, in the catalog service's unit. The change goes
// through the estimates module's write (writeFoundEstimate), in the pin's transaction, so it is
// priced, logged and kept on the job exactly like a line written through the API; a failure rolls
// the pin back. Rules: docs/api-decisions.md, Site assessments and pins, "Quantities reach the
// job's draft estimate".
import type { Executor } from '#db/dialect.ts';
import type { CatalogService, Estimate, EstimateArea, EstimateLine } from '#db/tables.ts';
import {
  deleteLineRows,
  effectivePricing,
  type EstimateTree,
  findServices,
  insertServiceCostLines,
  lineFieldsFromService,
  loadTree,
  NEW_LINE_DEFAULTS,
  nextPosition,
  type Places,
  priceBookFor,
  quantityInUnit,
  type RevisionNote,
  type Trx,
  writeFoundEstimate,
  type WriteStep,
} from '#estimating/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import type { MeasurementUnit } from './measurement.ts';

/** The name of the area assessment quantities go into when the draft estimate has none. */
export const ASSESSMENT_AREA_NAME = 'Site assessment';

const quantityText = (hundredths: number) => String(hundredths / 100);

/** The job's draft estimate: its most recently changed one in status draft, not archived. */
function draftEstimateOf(db: Executor, firmId: number, jobId: number): Promise<Estimate | undefined> {
  return db
    .selectFrom('estimates')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .where('status', '=', 'draft')
    .where('is_change_order', '=', 0)
    .where('archived_at', 'is', null)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Per catalog service, the job's measured pin values summed per unit (duplicated assessments left out). */
async function pinSums(trx: Trx, firmId: number, jobId: number, catalogIds: number[]) {
  const rows = await trx
    .selectFrom('assessment_pins as p')
    .innerJoin('assessment_services as s', 's.id', 'p.service_type_id')
    .leftJoin('site_assessments as a', 'a.id', 'p.assessment_id')
    .select(['s.catalog_service_id', 'p.measurement_unit', 'p.measurement_value'])
    .where('p.firm_id', '=', firmId)
    .where('p.job_id', '=', jobId)
    .where('s.catalog_service_id', 'in', catalogIds)
    .where('p.measurement_value', 'is not', null)
    .where('p.measurement_unit', 'is not', null)
    .where('a.duplicated_from_id', 'is', null)
    .execute();
  const sums = new Map<number, Map<MeasurementUnit, number>>();
  for (const r of rows) {
    const byUnit = sums.get(r.catalog_service_id!) ?? new Map<MeasurementUnit, number>();
    const unit = r.measurement_unit as MeasurementUnit;
    byUnit.set(unit, (byUnit.get(unit) ?? 0) + Math.round(Number(r.measurement_value) * 100));
    sums.set(r.catalog_service_id!, byUnit);
  }
  return sums;
}

type Change =
  | { kind: 'add'; service: CatalogService; quantity: string }
  | { kind: 'set'; line: EstimateLine; quantity: string }
  | { kind: 'remove'; line: EstimateLine };

/** The assessment area: the first area with quantity_source assessment. */
const assessmentArea = (tree: EstimateTree): EstimateArea | undefined =>
  tree.areas.find((a) => a.quantity_source === 'assessment');

/** What one catalog service's line needs, or null when it is right already or not ours to touch. */
function changeFor(tree: EstimateTree, service: CatalogService, hundredths: number): Change | null {
  const area = assessmentArea(tree);
  const line = area ? tree.lines.find((l) => l.area_id === area.id && l.assembly_id === service.id) : undefined;
  if (!line) return hundredths > 0 ? { kind: 'add', service, quantity: quantityText(hundredths) } : null;
  // A quantity typed by a person (manual) is theirs: the assessment never changes it again.
  if (line.quantity_source === 'manual') return null;
  if (hundredths === 0) return { kind: 'remove', line };
  const quantity = quantityText(hundredths);
  return Number(line.quantity) === Number(quantity) ? null : { kind: 'set', line, quantity };
}

const SOURCE = { source: 'site_assessment' } as const;

async function apply(step: WriteStep, change: Change): Promise<RevisionNote> {
  const { trx, tree, at, settings } = step;
  if (change.kind === 'remove') {
    const removed = await deleteLineRows(trx, tree, change.line);
    return {
      action: 'line_removed',
      summary: `Removed ${change.line.name}: no site assessment quantity left`,
      changes: { line_item_ids: removed, ...SOURCE },
    };
  }
  if (change.kind === 'set') {
    const { line, quantity } = change;
    await trx.updateTable('estimate_lines').set({ quantity, updated_at: at }).where('id', '=', line.id).execute();
    return {
      action: 'line_changed',
      summary: `Changed ${line.name} to ${quantity} ${line.unit} from the site assessment`,
      changes: { line_item_id: line.id, fields: { quantity: { from: line.quantity, to: quantity } }, ...SOURCE },
    };
  }
  const { service, quantity } = change;
  const e = tree.estimate;
  let area = assessmentArea(tree);
  if (!area) {
    const row = {
      firm_id: e.firm_id,
      estimate_id: e.id,
      name: ASSESSMENT_AREA_NAME,
      position: nextPosition(tree.areas),
      quantity_source: 'assessment',
      takeoff_id: null,
      active: 1 as const,
      created_at: at,
      updated_at: at,
    };
    const { id } = await trx.insertInto('estimate_areas').values(row).returning('id').executeTakeFirstOrThrow();
    area = { id, ...row };
    tree.areas.push(area);
  }
  const book = await priceBookFor(trx, e.firm_id, effectivePricing(e, settings).price_list_id);
  const row = {
    firm_id: e.firm_id,
    estimate_id: e.id,
    area_id: area.id,
    position: nextPosition(tree.lines.filter((l) => l.area_id === area.id)),
    ...NEW_LINE_DEFAULTS,
    ...lineFieldsFromService(service, book),
    quantity,
    quantity_source: 'inherited',
    created_at: at,
    updated_at: at,
  };
  const { id } = await trx.insertInto('estimate_lines').values(row).returning('id').executeTakeFirstOrThrow();
  tree.lines.push({ id, ...row });
  if (service.estimating_mode === 'detailed')
    await insertServiceCostLines(trx, { ...row, id }, service.id, book, settings, at);
  return {
    action: 'line_added',
    summary: `Added ${service.name} (${quantity} ${service.unit}) from the site assessment`,
    changes: { line_item_id: id, service_id: service.id, ...SOURCE },
  };
}

/**
 * Brings the job's draft estimate up to date with its pins for the catalog services that the
 * given assessment services price. Runs in the pin write's transaction (opened with
 * inEstimateTransaction, so drive times of a new line are looked up outside it); each line that
 * changes is one write of the estimate, logged as its own revision like an API line write.
 */
export async function syncDraftEstimate(
  ctx: ServiceContext,
  trx: Trx,
  places: Places,
  jobId: number,
  serviceTypeIds: readonly (number | null)[],
): Promise<void> {
  const firmId = ctx.auth.firm.id;
  const ids = [...new Set(serviceTypeIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return;
  const links = await trx
    .selectFrom('assessment_services')
    .select('catalog_service_id')
    .where('firm_id', '=', firmId)
    .where('id', 'in', ids)
    .where('catalog_service_id', 'is not', null)
    .execute();
  const catalogIds = [...new Set(links.map((l) => l.catalog_service_id!))];
  if (catalogIds.length === 0) return;
  const estimate = await draftEstimateOf(trx, firmId, jobId);
  if (!estimate) return;
  // An archived catalog service prices nothing new (Assessment services): its line is left as it is.
  const services = (await findServices(trx, firmId, catalogIds))
    .filter((s) => s.archived_at === null)
    .sort((a, b) => a.id - b.id);
  if (services.length === 0) return;
  const sums = await pinSums(trx, firmId, jobId, catalogIds);
  for (const service of services) {
    const hundredths = quantityInUnit(sums.get(service.id) ?? new Map(), service.unit);
    const current = await trx
      .selectFrom('estimates')
      .selectAll()
      .where('id', '=', estimate.id)
      .executeTakeFirstOrThrow();
    const tree = await loadTree(trx, current);
    // A person took the assessment area out of the bid: its lines are left alone.
    if (assessmentArea(tree)?.active === 0) return;
    const change = changeFor(tree, service, hundredths);
    if (!change) continue;
    await writeFoundEstimate(ctx, trx, places, current, { statuses: ['draft'] }, async (step) => {
      // The step's tree is the one just read, in this transaction: the change still holds.
      return apply(step, change);
    });
  }
}
