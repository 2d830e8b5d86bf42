// From stored estimate rows to the pricing engine's input, and from its result to what is stored:
// the totals columns and the `calculation` document (per line and cost line numbers) that reads
// return until the next write re-prices.
import {
  priceEstimate,
  PricingError,
  type CostLineInput,
  type CostLineResult,
  type EstimateInput,
  type EstimateResult,
  type HaulInput,
  type JobCostResult,
  type JobCostsInput,
  type LineInput,
  type PricingInput,
  type PricingMethod,
  type PriceOptions,
} from '#engines/pricing/index.ts';
import { unprocessable } from '#platform/errors.ts';
import { centsToDollars, dollarsToCents } from '#platform/money.ts';
import { decimal } from '#estimating/catalog/serialize.ts';
import type { Settings } from '#platform/workspace.ts';
import type { Estimate, EstimateCostLine, EstimateLine, EstimateTree } from './repo.ts';
import { flag } from '#db/tables/shared.ts';

/** The stored `pricing` of an estimate (dollars and fractions as the API shows them). */
export interface StoredPricing {
  markup_method: PricingMethod;
  markup_rate: number;
  contingency_rate: number | null;
  tax_rate: number | null;
  minimum_charge: number | null;
  price_list_id: number | null;
}

/** A trucking haul's stored inputs (estimate_cost_lines.haul). */
export interface StoredHaul {
  material: 'asphalt' | 'millings' | 'spoil';
  truck_capacity_tons: number;
  /** One-way hours; typed, the workspace default, or (automatic_driving_time) looked up. */
  drive_hr: number | null;
  load_unload_hr: number | null;
  automatic_driving_time: boolean;
  route: HaulInput['route'];
  /** How drive_hr was found: typed | default | automatic. */
  drive_hr_source: 'typed' | 'default' | 'automatic';
  /** automatic only: the distance the estimate used, km. */
  route_km?: number | null;
}

export interface LineNumbers {
  cost: number;
  price: number;
  unit_cost: number | null;
  unit_price: number | null;
  margin: number;
  margin_pct: number | null;
  allocated_price: number | null;
  bundle_child_service_ids: number[];
  /** Stored by calculations made before 2026-11-30 (commit 8e60221); now built when the line is read (explainLine). */
  explain?: string;
}

export interface CostLineNumbers {
  quantity: number;
  base_quantity: number;
  unit: string | null;
  cost: number;
  price: number;
  included: boolean;
  haul: CostLineResult['haul'];
  /** As LineNumbers.explain. */
  explain?: string;
}

/** The `calculation` column. */
export interface Calculation {
  /**
   * The method and rate lines and cost lines followed when priced (the estimate's or the
   * workspace default then): a line read builds its explain texts with them, so the texts describe
   * the stored numbers even after the workspace default changes. Absent from calculations that
   * stored their texts.
   */
  markup?: Pick<PricingInput, 'markup_method' | 'markup_rate'>;
  lines: Record<string, LineNumbers>;
  cost_lines: Record<string, CostLineNumbers>;
  job_costs: JobCostResult[];
  warnings: string[];
  explain: string[];
}

export function storedPricing(e: Pick<Estimate, 'pricing'>): StoredPricing | null {
  return e.pricing === null ? null : (JSON.parse(e.pricing) as StoredPricing);
}

/** The estimate's pricing, or the workspace default when it has none (document 3: null = default). */
export function effectivePricing(e: Pick<Estimate, 'pricing'>, settings: Settings): StoredPricing {
  return storedPricing(e) ?? workspacePricing(settings);
}

export function workspacePricing(settings: Settings): StoredPricing {
  return {
    markup_method: settings.estimate_markup_method,
    markup_rate: settings.estimate_markup_rate,
    contingency_rate: settings.estimate_contingency_rate,
    tax_rate: settings.estimate_tax_rate,
    minimum_charge: settings.estimate_minimum_charge,
    price_list_id: null,
  };
}

export function storedJobCosts(e: Pick<Estimate, 'job_costs'>): JobCostsInput | null {
  return e.job_costs === null ? null : (JSON.parse(e.job_costs) as JobCostsInput);
}

/**
 * Lines in the bid: active, not excluded, in an active area, and (for a bundle sub-line) under a
 * master that is in the bid too. The rest are kept but not priced.
 */
export function linesInBid(tree: EstimateTree): EstimateLine[] {
  const activeAreas = new Set(tree.areas.filter((a) => a.active === 1).map((a) => a.id));
  const candidate = new Map(
    tree.lines.filter((l) => l.active === 1 && l.excluded === 0 && activeAreas.has(l.area_id)).map((l) => [l.id, l]),
  );
  return [...candidate.values()].filter((l) => {
    if (l.bundle_parent_service_id === null) return true;
    const master = candidate.get(l.bundle_parent_service_id);
    return master !== undefined && master.is_bundle_master === 1;
  });
}

function costLineInput(cl: EstimateCostLine): CostLineInput {
  const haul = cl.haul === null ? null : (JSON.parse(cl.haul) as StoredHaul);
  return {
    id: cl.id,
    type: cl.type as CostLineInput['type'],
    name: cl.name,
    catalog_item_id: cl.catalog_item_id,
    unit: cl.unit,
    unit_cost: Number(cl.unit_cost_cents) / 100,
    quantity_formula: cl.quantity_formula,
    manual_quantity: decimal(cl.manual_quantity),
    waste_factor: decimal(cl.waste_factor),
    pricing_method: cl.pricing_method as PricingMethod | null,
    pricing_rate: decimal(cl.pricing_rate),
    billing: cl.billing as 'billed' | 'internal_only',
    is_alternate: cl.is_alternate === 1,
    suppressed: cl.suppressed === 1,
    haul:
      haul === null
        ? null
        : {
            material: haul.material,
            truck_capacity_tons: haul.truck_capacity_tons,
            drive_hr: haul.drive_hr,
            load_unload_hr: haul.load_unload_hr,
            automatic_driving_time: haul.automatic_driving_time,
            route: haul.route,
          },
    dump_material: cl.dump_material as CostLineInput['dump_material'],
    dump_site: cl.dump_site === null ? null : JSON.parse(cl.dump_site),
  };
}

function lineInput(l: EstimateLine, costLines: EstimateCostLine[]): LineInput {
  const bundleChild = l.bundle_parent_service_id !== null;
  return {
    id: l.id,
    name: l.name,
    area_id: l.area_id,
    estimating_mode: l.estimating_mode as LineInput['estimating_mode'],
    quantity: Number(l.quantity),
    unit: l.unit,
    inputs: l.inputs === null ? null : JSON.parse(l.inputs),
    unit_cost: centsToDollars(l.unit_cost_cents),
    unit_price: centsToDollars(l.unit_price_cents),
    pricing_method: l.pricing_method as PricingMethod | null,
    pricing_rate: decimal(l.pricing_rate),
    price_override: bundleChild ? null : centsToDollars(l.price_override_cents),
    is_optional: l.is_optional === 1,
    hide_on_proposal: l.hide_on_proposal === 1,
    taxable: l.taxable === 1,
    is_bundle_master: l.is_bundle_master === 1,
    bundle_parent_service_id: l.bundle_parent_service_id,
    cost_lines: l.estimating_mode === 'detailed' ? costLines.map(costLineInput) : [],
  };
}

export function engineInput(tree: EstimateTree, settings: Settings): EstimateInput {
  const p = effectivePricing(tree.estimate, settings);
  const pricing: PricingInput = {
    markup_method: p.markup_method,
    markup_rate: p.markup_rate,
    contingency_rate: p.contingency_rate,
    tax_rate: p.tax_rate,
    minimum_charge: p.minimum_charge,
    price_list_id: p.price_list_id,
  };
  return {
    pricing,
    job_costs: storedJobCosts(tree.estimate),
    lines: linesInBid(tree).map((l) => lineInput(l, tree.costLines.get(l.id) ?? [])),
  };
}

/**
 * Prices the tree. A PricingError becomes 422 `pricing_error` naming the line and cost line, so a
 * write that would leave the estimate unpriceable is refused and nothing is saved.
 */
export function calculate(
  tree: EstimateTree,
  settings: Settings,
  options: PriceOptions = {},
): { result: EstimateResult; input: EstimateInput } {
  const input = engineInput(tree, settings);
  try {
    return { result: priceEstimate(input, options), input };
  } catch (e) {
    if (e instanceof PricingError) throw pricingRefusal(e, input);
    throw e;
  }
}

function pricingRefusal(e: PricingError, input: EstimateInput) {
  const m = /^lines\[(\d+)\](?:\.cost_lines\[(\d+)\])?\.?(.*)$/.exec(e.path);
  const where: Record<string, unknown> = {};
  if (m) {
    const line = input.lines![Number(m[1])];
    where.line_item_id = line.id;
    if (m[2] !== undefined) where.cost_line_id = line.cost_lines![Number(m[2])].id;
    where.field = m[3] || null;
  } else {
    where.field = e.path.replace(/^pricing\./, '') || null;
  }
  const message = e.message.replace(/^[^:]*: /, '');
  return unprocessable(`The estimate cannot be priced: ${message}`, {
    code: 'pricing_error',
    reason: e.code,
    path: e.path,
    ...where,
  });
}

/**
 * The `calculation` document of a pricing run: per line and cost line numbers, as reads return
 * them, with the lines' and cost lines' explain texts when the run wrote them (`explain: false`
 * leaves them to the line read) and the method and rate the run's lines followed.
 */
export function calculationDocument(result: EstimateResult, input: EstimateInput): Calculation {
  const lines: Record<string, LineNumbers> = {};
  const costLines: Record<string, CostLineNumbers> = {};
  for (const l of result.lines) {
    lines[String(l.id)] = {
      cost: l.cost,
      price: l.price,
      unit_cost: l.unit_cost,
      unit_price: l.unit_price,
      margin: l.margin,
      margin_pct: l.margin_pct,
      allocated_price: l.allocated_price,
      bundle_child_service_ids: l.bundle_child_service_ids.map(Number),
      ...(l.explain === '' ? {} : { explain: l.explain }),
    };
    for (const cl of l.cost_lines) {
      costLines[String(cl.id)] = {
        quantity: cl.quantity,
        base_quantity: cl.base_quantity,
        unit: cl.unit,
        cost: cl.cost,
        price: cl.price,
        included: cl.included,
        haul: cl.haul,
        ...(cl.explain === '' ? {} : { explain: cl.explain }),
      };
    }
  }
  const { markup_method, markup_rate } = input.pricing;
  return {
    markup: { markup_method, markup_rate },
    lines,
    cost_lines: costLines,
    job_costs: result.job_costs,
    warnings: result.warnings,
    explain: result.explain,
  };
}

/** A line's explain text and its cost lines' (by id), as the line read shows them. */
export interface LineExplanation {
  explain: string;
  costLines: Map<number, string>;
}

/**
 * The explain texts of one line in the bid and of its cost lines, built by the engine from the
 * line alone: a line's texts depend only on its own rows, its sub-lines' (a bundle master's
 * texts sum them) and the method and rate it follows, never on the other lines
 * (test/engines/pricing/properties.nodb.test.ts checks that against whole-estimate runs). Null if
 * the rows do not price alone, which the stored calculation, made from the same rows, rules out:
 * a read answers without texts rather than fail.
 */
export function explainLine(
  line: EstimateLine,
  costLines: EstimateCostLine[],
  subLines: { line: EstimateLine; costLines: EstimateCostLine[] }[],
  markup: Pick<PricingInput, 'markup_method' | 'markup_rate'>,
): LineExplanation | null {
  const input: EstimateInput = {
    pricing: { markup_method: markup.markup_method, markup_rate: markup.markup_rate },
    // A sub-line read alone names no master (its texts are the same inside the bundle or out).
    lines: [
      { ...lineInput(line, costLines), bundle_parent_service_id: null },
      ...subLines.map((s) => lineInput(s.line, s.costLines)),
    ],
  };
  try {
    const priced = priceEstimate(input).lines[0]!;
    return { explain: priced.explain, costLines: new Map(priced.cost_lines.map((c) => [Number(c.id), c.explain])) };
  } catch (e) {
    if (e instanceof PricingError) return null;
    throw e;
  }
}

/**
 * What a pricing run stores: the calculation document the caller built (calculationDocument, which
 * it keeps for the answer), as text, and the totals columns.
 */
export function storedCalculation(result: EstimateResult, lineCount: number, calculation: Calculation) {
  // An estimate without a line in the bid has nothing priced: priced false and totals null.
  const priced = lineCount > 0;
  const t = result.totals;
  return {
    calculation: JSON.stringify(calculation),
    priced: flag(priced),
    price_cents: priced ? dollarsToCents(t.price) : null,
    subtotal_cents: priced ? dollarsToCents(t.subtotal) : null,
    tax_cents: priced ? dollarsToCents(t.tax) : null,
    cost_cents: priced ? dollarsToCents(t.cost) : null,
    margin_cents: priced ? dollarsToCents(t.margin) : null,
    optional_total_cents: priced ? dollarsToCents(t.optional_total) : null,
    margin_pct: priced && t.margin_pct !== null ? String(t.margin_pct) : null,
  };
}

/** The tree's stored calculation, parsed; the one a write just stored is taken as it was built, not parsed back. */
export function calculationOf(
  e: Pick<Estimate, 'calculation'>,
  tree?: Pick<EstimateTree, 'priced'>,
): Calculation | null {
  if (e.calculation === null) return null;
  if (tree?.priced !== undefined && tree.priced.text === e.calculation) return tree.priced.document;
  return JSON.parse(e.calculation) as Calculation;
}
