// Input and output shapes of the pricing engine. Names follow document 3 (Estimate, Estimate line
// item, Cost line). Money is dollars as JSON numbers (the wire form, at most 2 decimals on output);
// rates are fractions (0.3 = 30%). Inputs are read exactly from their decimal text. The rules are
// in docs/pricing.md.

/** markup = price is cost × (1 + rate); margin = price is cost ÷ (1 − rate). */
export type PricingMethod = 'markup' | 'margin';

export type CostLineType =
  | 'crew'
  | 'equipment'
  | 'material'
  | 'trucking'
  | 'subcontractor'
  | 'misc'
  | 'overhead'
  | 'adjustment';

export interface PricingInput {
  /** Estimate-wide method; lines and cost lines may override. */
  markup_method: PricingMethod;
  /** Fraction: 0.3 = 30% markup on cost, or 30% margin of price. */
  markup_rate: number;
  /** Fraction of job cost added as a job-level contingency cost before markup; null = off. */
  contingency_rate?: number | null;
  /** Fraction, e.g. 0.07; applied to the allocated price of taxable lines. */
  tax_rate?: number | null;
  /** Dollars; the subtotal (before tax) is raised to at least this. null/0 = none. */
  minimum_charge?: number | null;
  /** Passed through (the API resolves catalog prices before calling the engine). */
  price_list_id?: number | null;
}

export interface RoundingInput {
  /** Dollars, e.g. 10, 50 or 100. */
  increment: number;
  /** 'up' (default) raises the subtotal to the next multiple; 'nearest' rounds half up. */
  mode?: 'up' | 'nearest';
}

export interface JobCostsInput {
  /** Dollars of cost (move-in/move-out), marked up with the estimate's method and rate. */
  mobilization?: number | null;
  /** Dollars of fixed overhead cost, marked up. */
  overhead_amount?: number | null;
  /** Fraction of the line cost (counted lines) added as overhead cost, marked up. */
  overhead_rate?: number | null;
  /** Fraction of the pre-bond subtotal; a pass-through cost (price = cost, no markup). */
  bond_rate?: number | null;
  /** Round the subtotal to a multiple of `increment`; the difference is price with no cost. */
  rounding?: RoundingInput | null;
}

export interface RouteInput {
  kind: 'plant_round_trip' | 'three_leg' | 'dump_round_trip';
  /** three_leg only: hours of each leg of one cycle, e.g. [plant→job, job→dump, dump→plant]. */
  legs_hr?: number[] | null;
  plant_address?: string | null;
  job_address?: string | null;
  dump_address?: string | null;
}

export interface HaulInput {
  material: 'asphalt' | 'millings' | 'spoil';
  /** Tons one truck carries per load. */
  truck_capacity_tons: number;
  /** One-way driving hours: plant↔job (null route, plant_round_trip) or job↔dump (dump_round_trip).
   *  With automatic_driving_time the API fills it from its route lookup; the engine never geocodes. */
  drive_hr?: number | null;
  /** Hours per load spent loading, waiting and dumping (both ends together). Default 0. */
  load_unload_hr?: number | null;
  automatic_driving_time?: boolean;
  /** null = plain plant round trip. */
  route?: RouteInput | null;
}

export interface CostLineInput {
  id: number | string;
  type: CostLineType;
  name?: string | null;
  catalog_item_id?: number | null;
  /** Unit of the quantity (for trucking: the haul is in tons, the costed quantity is truck hours). */
  unit?: string | null;
  /** Dollars per unit (per truck hour for trucking). May be negative for adjustments. */
  unit_cost: number;
  /** Formula over `quantity` (the line quantity) and the line's `inputs`; null = the line quantity. */
  quantity_formula?: string | null;
  /** A typed quantity; replaces the formula. */
  manual_quantity?: number | null;
  /** Fraction: quantity × (1 + waste_factor). */
  waste_factor?: number | null;
  /** null follows the line (which follows the estimate). */
  pricing_method?: PricingMethod | null;
  pricing_rate?: number | null;
  /** Display only: internal_only lines are costed and priced like billed ones. */
  billing?: 'billed' | 'internal_only' | null;
  is_alternate?: boolean;
  suppressed?: boolean;
  /** trucking hauls only */
  haul?: HaulInput | null;
  /** misc dump fees: the quantity is tons, unit_cost the fee per ton. */
  dump_material?: 'millings' | 'spoil' | null;
  dump_site?: { vendor_id: number | null; name: string | null } | null;
}

export interface LineInput {
  id: number | string;
  name?: string | null;
  area_id?: number | null;
  estimating_mode: 'detailed' | 'unit_costing';
  quantity: number;
  unit?: string | null;
  /** Named numbers for formulas (depth_in, days, trips…). `quantity` is always the line quantity. */
  inputs?: Record<string, number> | null;
  /** unit_costing: dollars per unit of cost. */
  unit_cost?: number | null;
  /** unit_costing: a fixed selling price per unit (otherwise cost is marked up). */
  unit_price?: number | null;
  pricing_method?: PricingMethod | null;
  pricing_rate?: number | null;
  /** Pinned proposal price (dollars); the difference spreads over the other listed lines. */
  price_override?: number | null;
  is_optional?: boolean;
  hide_on_proposal?: boolean;
  /** Default true. Tax is charged on the allocated price of taxable lines. */
  taxable?: boolean | null;
  is_bundle_master?: boolean;
  bundle_parent_service_id?: number | string | null;
  cost_lines?: CostLineInput[] | null;
}

export interface EstimateInput {
  pricing: PricingInput;
  job_costs?: JobCostsInput | null;
  /** Lines directly, or grouped by area (both are accepted; areas' services are appended). */
  lines?: LineInput[];
  areas?: { id: number | string; name?: string | null; services: LineInput[] }[];
}

// ---------- output ----------

export interface HaulResult {
  material: 'asphalt' | 'millings' | 'spoil';
  route_kind: 'plant_round_trip' | 'three_leg' | 'dump_round_trip';
  tons: number;
  truck_capacity_tons: number;
  /** ceil(tons ÷ capacity) */
  loads: number;
  /** hours of one load cycle (driving + load/unload) */
  cycle_hr: number;
  /** loads × cycle_hr, rounded to 2 decimals: the costed quantity */
  truck_hours: number;
}

export interface CostLineResult {
  id: number | string;
  line_item_id: number | string;
  type: CostLineType;
  /** Quantity before waste (manual, formula result, or the line quantity), 4 decimals. */
  base_quantity: number;
  /** Costed quantity, 4 decimals (truck hours for a haul). */
  quantity: number;
  unit: string | null;
  unit_cost: number;
  cost: number;
  price: number;
  /** Effective method and rate after following the parents. */
  pricing_method: PricingMethod;
  pricing_rate: number;
  /** false for alternates and suppressed lines (costed, shown, not totalled). */
  included: boolean;
  haul: HaulResult | null;
  /** How the numbers were reached; '' when priced with `explain: false`. */
  explain: string;
}

export interface LineResult {
  id: number | string;
  estimating_mode: 'detailed' | 'unit_costing';
  quantity: number;
  unit: string | null;
  cost: number;
  price: number;
  /** cost ÷ quantity and price ÷ quantity, 4 decimals; null when quantity is 0. */
  unit_cost: number | null;
  unit_price: number | null;
  margin: number;
  /** margin ÷ the line's price (a line price carries no tax), 4 decimals; null when price is 0. */
  margin_pct: number | null;
  /** Proposal price after spreading; null for lines not listed on their own (hidden). */
  allocated_price: number | null;
  pricing_method: PricingMethod;
  pricing_rate: number;
  is_optional: boolean;
  /** Listed on the proposal as its own line (not hidden, not a bundle sub-line). */
  listed: boolean;
  /** Its price is in totals (top-level, not optional). */
  counted: boolean;
  is_bundle_master: boolean;
  bundle_parent_service_id: number | string | null;
  bundle_child_service_ids: (number | string)[];
  price_override: number | null;
  cost_lines: CostLineResult[];
  /** How the numbers were reached; '' when priced with `explain: false`. */
  explain: string;
}

export interface JobCostResult {
  kind: 'mobilization' | 'overhead' | 'contingency' | 'bond' | 'minimum_charge' | 'rounding';
  cost: number;
  price: number;
  explain: string;
}

export interface EstimateTotals {
  /** Customer total including tax. */
  price: number;
  /** price − tax */
  subtotal: number;
  tax: number;
  /** Counted line costs + job-level costs. */
  cost: number;
  /** subtotal − cost (tax is not revenue). */
  margin: number;
  /** margin ÷ price (document 3: "fraction of price", the total including tax), 4 decimals; null when price is 0. */
  margin_pct: number | null;
  /** margin ÷ subtotal, the pre-tax figure a margin-of-price rate is set in; 4 decimals; null when the subtotal is 0. */
  margin_pct_of_subtotal: number | null;
  /** Sum of optional lines' prices (before tax), not in price. */
  optional_total: number;
}

/**
 * `explain: false` leaves the lines' and cost lines' explain texts empty: about two thirds of the
 * engine's time and half the stored calculation's bytes. Every number, warning, job-level cost and
 * the estimate's own explanation are the same either way; a caller that stores numbers only builds
 * a line's texts when that line is read (the same engine on that line alone writes the same texts).
 */
export interface PriceOptions {
  explain?: boolean;
}

export interface EstimateResult {
  totals: EstimateTotals;
  lines: LineResult[];
  job_costs: JobCostResult[];
  /** Sum of the counted top-level line prices, before job-level money. */
  lines_price: number;
  lines_cost: number;
  taxable_subtotal: number;
  warnings: string[];
  explain: string[];
}
