// Estimates on the wire (document 3, Estimate, Estimate line item, Cost line): money in dollars,
// fractions as numbers, Z timestamps. Numbers come from the stored calculation, never a re-run.
import type { Estimate, EstimateArea, EstimateCostLine, EstimateLine, EstimateTotalsColumns } from '#db/tables.ts';
import { marginFraction } from '#engines/pricing/index.ts';
import { centsToDollars } from '#platform/money.ts';
import { storedOneOf } from '#platform/schemas.ts';
import { BILLING, COST_LINE_TYPES, ESTIMATING_MODES } from '#estimating/catalog/schemas.ts';
import { decimal } from '#estimating/catalog/serialize.ts';
import { zWire } from '#platform/time.ts';
import {
  calculationOf,
  linesInBid,
  storedJobCosts,
  storedPricing,
  type Calculation,
  type LineExplanation,
  type StoredHaul,
} from './calculation.ts';
import type { EstimateTree } from './repo.ts';
import { ESTIMATE_STATUSES } from './schemas.ts';
import type { Flag } from '#db/tables.ts';

/** The pre-tax margin % (margin ÷ subtotal), rounded as the engine rounds every margin %. */
export function marginOfSubtotal(e: Pick<EstimateTotalsColumns, 'margin_cents' | 'subtotal_cents'>): number | null {
  return e.margin_cents === null || e.subtotal_cents === null ? null : marginFraction(e.margin_cents, e.subtotal_cents);
}

/**
 * Document 3's totals, or null when nothing is priced; margin_pct (stored as the engine gave it)
 * is a fraction of price, tax included, and margin_pct_of_subtotal is derived from the stored
 * cents, so it needs no column. A pricing run writes every total column of a priced estimate
 * together (calculation.ts, storedCalculation), so a priced row missing one is a broken row: it
 * fails loudly rather than reaching the wire as 0.
 */
export function totalsOf(e: EstimateTotalsColumns & { priced: Flag }) {
  if (e.priced !== 1) return null;
  const {
    price_cents: price,
    subtotal_cents: subtotal,
    tax_cents: tax,
    cost_cents: cost,
    margin_cents: margin,
    optional_total_cents: optional,
  } = e;
  if (price === null || subtotal === null || tax === null || cost === null || margin === null || optional === null) {
    throw new Error('A priced estimate is missing its stored totals');
  }
  return {
    price: centsToDollars(price),
    subtotal: centsToDollars(subtotal),
    tax: centsToDollars(tax),
    cost: centsToDollars(cost),
    margin: centsToDollars(margin),
    margin_pct: decimal(e.margin_pct),
    margin_pct_of_subtotal: marginOfSubtotal(e),
    optional_total: centsToDollars(optional),
  };
}

/** List rows and the export's estimates dataset: everything but areas and pricing. */
export function estimateSummary(e: Estimate) {
  return {
    id: e.id,
    doc_number: e.doc_number,
    name: e.name,
    status: storedOneOf(ESTIMATE_STATUSES, e.status),
    job_id: e.job_id,
    parent_estimate_id: e.parent_estimate_id,
    is_change_order: e.is_change_order === 1,
    change_order_mode: e.change_order_mode,
    current_version: e.current_version,
    version: null as number | null,
    priced: e.priced === 1,
    totals: totalsOf(e),
    awarded_at: zWire(e.awarded_at),
    award_snapshot_id: e.award_snapshot_id,
    lost_at: zWire(e.lost_at),
    lost_reason: e.lost_reason,
    template_id: e.template_id,
    archived_at: zWire(e.archived_at),
    created_at: zWire(e.created_at),
    updated_at: zWire(e.updated_at),
  };
}

function haulObject(stored: StoredHaul | null, calc: Calculation | null, costLineId: number) {
  if (stored === null) return null;
  const h = calc?.cost_lines[String(costLineId)]?.haul ?? null;
  return {
    material: stored.material,
    truck_capacity_tons: stored.truck_capacity_tons,
    drive_hr: stored.drive_hr,
    drive_hr_source: stored.drive_hr_source,
    route_km: stored.route_km ?? null,
    load_unload_hr: stored.load_unload_hr,
    tons: h?.tons ?? null,
    loads: h?.loads ?? null,
    cycle_hr: h?.cycle_hr ?? null,
    truck_hours: h?.truck_hours ?? null,
  };
}

export function costLineObject(cl: EstimateCostLine, calc: Calculation | null, explained?: string) {
  const n = calc?.cost_lines[String(cl.id)] ?? null;
  const haul = cl.haul === null ? null : (JSON.parse(cl.haul) as StoredHaul);
  const route = haul?.route ?? null;
  return {
    id: cl.id,
    line_item_id: cl.line_item_id,
    position: cl.position,
    type: storedOneOf(COST_LINE_TYPES, cl.type),
    catalog_item_id: cl.catalog_item_id,
    name: cl.name,
    quantity: n?.quantity ?? null,
    unit: n?.unit ?? cl.unit,
    unit_cost: centsToDollars(cl.unit_cost_cents),
    cost: n?.cost ?? null,
    price: n?.price ?? null,
    quantity_formula: cl.quantity_formula,
    manual_quantity: decimal(cl.manual_quantity),
    waste_factor: Number(cl.waste_factor),
    pricing_method: cl.pricing_method,
    pricing_rate: decimal(cl.pricing_rate),
    billing: storedOneOf(BILLING, cl.billing),
    is_alternate: cl.is_alternate === 1,
    suppressed: cl.suppressed === 1,
    automatic_driving_time: haul === null ? null : haul.automatic_driving_time,
    route:
      route === null || route === undefined
        ? null
        : {
            kind: route.kind,
            legs_hr: route.legs_hr ?? null,
            plant_address: route.plant_address ?? null,
            job_address: route.job_address ?? null,
            dump_address: route.dump_address ?? null,
          },
    haul: haulObject(haul, calc, cl.id),
    dump_material: cl.dump_material,
    dump_site: cl.dump_site === null ? null : JSON.parse(cl.dump_site),
    explain: n?.explain ?? explained ?? null,
  };
}

export function lineObject(l: EstimateLine, calc: Calculation | null) {
  const n = calc?.lines[String(l.id)] ?? null;
  const unitCosting = l.estimating_mode === 'unit_costing';
  return {
    id: l.id,
    name: l.name,
    service_type: l.service_type,
    category: l.category,
    assembly_id: l.assembly_id,
    estimating_mode: storedOneOf(ESTIMATING_MODES, l.estimating_mode),
    quantity: Number(l.quantity),
    unit: l.unit,
    unit_cost: unitCosting && l.unit_cost_cents !== null ? centsToDollars(l.unit_cost_cents) : (n?.unit_cost ?? null),
    unit_price:
      unitCosting && l.unit_price_cents !== null ? centsToDollars(l.unit_price_cents) : (n?.unit_price ?? null),
    price: n?.price ?? null,
    cost: n?.cost ?? null,
    margin: n?.margin ?? null,
    margin_pct: n?.margin_pct ?? null,
    allocated_price: n?.allocated_price ?? null,
    is_optional: l.is_optional === 1,
    hide_on_proposal: l.hide_on_proposal === 1,
    taxable: l.taxable === 1,
    parent_service_id: l.parent_service_id,
    cost_code: l.cost_code,
    is_bundle_master: l.is_bundle_master === 1,
    bundle_child_service_ids: n?.bundle_child_service_ids ?? [],
    bundle_parent_service_id: l.bundle_parent_service_id,
    area_id: l.area_id,
    position: l.position,
    quantity_source: l.quantity_source,
    measurement_quantity: l.measurement_quantity,
    inputs: l.inputs === null ? null : (JSON.parse(l.inputs) as Record<string, number>),
    pricing_method: l.pricing_method,
    pricing_rate: decimal(l.pricing_rate),
    price_override: centsToDollars(l.price_override_cents),
    proposal_group: l.proposal_group,
    proposal_text: l.proposal_text,
    what_to_expect: l.what_to_expect,
    internal_scope: l.internal_scope,
    notes: l.notes,
    active: l.active === 1,
    excluded: l.excluded === 1,
  };
}

/**
 * GET …/line-items/{id}: the line with its cost lines and how each number was reached (stored with
 * the numbers by older calculations, built on the read otherwise: `explained`).
 */
export function lineWithCostLines(
  l: EstimateLine,
  costLines: EstimateCostLine[],
  calc: Calculation | null,
  explained: LineExplanation | null,
) {
  return {
    ...lineObject(l, calc),
    explain: calc?.lines[String(l.id)]?.explain ?? explained?.explain ?? null,
    cost_lines:
      l.estimating_mode === 'detailed'
        ? costLines.map((cl) => costLineObject(cl, calc, explained?.costLines.get(cl.id)))
        : [],
  };
}

function areaObject(a: EstimateArea, services: ReturnType<typeof lineObject>[]) {
  return {
    id: a.id,
    name: a.name,
    position: a.position,
    quantity_source: a.quantity_source,
    takeoff_id: a.takeoff_id,
    services,
  };
}

/** The single-estimate object: summary, pricing inputs, and the active areas with the lines in the bid. */
export function estimateObject(tree: EstimateTree) {
  const e = tree.estimate;
  const calc = calculationOf(e, tree);
  const inBid = linesInBid(tree);
  const byArea = new Map<number, ReturnType<typeof lineObject>[]>();
  for (const l of inBid) {
    const list = byArea.get(l.area_id) ?? [];
    list.push(lineObject(l, calc));
    byArea.set(l.area_id, list);
  }
  return {
    ...estimateSummary(e),
    areas: tree.areas.filter((a) => a.active === 1).map((a) => areaObject(a, byArea.get(a.id) ?? [])),
    pricing: storedPricing(e),
    job_costs: storedJobCosts(e),
    job_level_costs: calc?.job_costs ?? [],
    warnings: calc?.warnings ?? [],
  };
}

export type EstimateObject = ReturnType<typeof estimateObject>;
