// The pricing engine: a pure function from an estimate's inputs to every number the API shows.
// No I/O, no clock, no randomness, no binary floating point in arithmetic (exact rationals,
// rounded half away from zero only at the points listed in docs/pricing.md).
import { compileFormula, FormulaError, type CompiledFormula } from './formula.ts';
import { Rational } from './rational.ts';
import type {
  CostLineInput, CostLineResult, EstimateInput, EstimateResult, HaulResult, JobCostResult, LineInput,
  LineResult, PricingMethod,
} from './types.ts';

export class PricingError extends Error {
  readonly code: string;
  /** Where in the input, e.g. "lines[3].cost_lines[1].quantity_formula". */
  readonly path: string;
  constructor(code: string, message: string, path: string, options?: { cause?: unknown }) {
    super(`${path ? path + ': ' : ''}${message}`, options);
    this.name = 'PricingError';
    this.code = code;
    this.path = path;
  }
}

type Id = number | string;
const ZERO = Rational.ZERO;
const ONE = Rational.ONE;

// ---------- rounding points ----------

/** Half away from zero at the cent; the result is integer cents. */
function cents(x: Rational): bigint {
  return x.toCents();
}
const dollars = (c: bigint): number => Number(c) / 100; // exact: |c| < 2^53 and 2 decimals
const qty4 = (x: Rational): Rational => x.round(4);
const frac4 = (x: Rational): number => x.round(4).toNumber();

/**
 * A margin as a fraction of what it is a margin of (integer cents of each), to 4 decimals; null when
 * that is zero. Every margin % goes through here, so the API can derive one from stored cents exactly.
 */
export function marginFraction(marginCents: bigint | number, ofCents: bigint | number): number | null {
  const of = BigInt(ofCents);
  return of === 0n ? null : frac4(Rational.of(BigInt(marginCents), of));
}

/** Price of a cost (integer cents) under a method and rate, rounded to the cent. */
export function priceOfCost(costCents: bigint, method: PricingMethod, rate: Rational): bigint {
  const cost = Rational.cents(costCents);
  const price = method === 'markup' ? cost.mul(ONE.add(rate)) : cost.div(ONE.sub(rate));
  return cents(price);
}

// ---------- formatting for explanations ----------

function groupDigits(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function money(c: bigint): string {
  const neg = c < 0n;
  const abs = neg ? -c : c;
  const whole = groupDigits((abs / 100n).toString());
  const fr = (abs % 100n).toString().padStart(2, '0');
  return `${neg ? '-' : ''}$${whole}.${fr}`;
}
function num(x: Rational, digits = 4): string {
  const t = x.toFixed(digits);
  const [w, f = ''] = t.split('.');
  const neg = w.startsWith('-');
  const ww = groupDigits(neg ? w.slice(1) : w);
  const ff = f.replace(/0+$/, '');
  return `${neg ? '-' : ''}${ww}${ff ? '.' + ff : ''}`;
}
function pct(rate: Rational): string {
  return `${num(rate.mul(Rational.int(100)), 4)}%`;
}
function methodText(method: PricingMethod, rate: Rational): string {
  return method === 'markup' ? `${pct(rate)} markup on cost` : `${pct(rate)} margin of price`;
}

// ---------- input reading ----------

function readNum(v: unknown, path: string, opts: { nullable?: boolean } = {}): Rational | null {
  if (v === null || v === undefined) {
    if (opts.nullable) return null;
    throw new PricingError('missing_value', 'a number is required', path);
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new PricingError('bad_number', 'must be a finite number', path);
  return Rational.from(v);
}
function readReq(v: unknown, path: string): Rational {
  return readNum(v, path) as Rational;
}
function readOpt(v: unknown, path: string): Rational | null {
  return readNum(v, path, { nullable: true });
}

function checkRate(method: PricingMethod, rate: Rational, path: string): void {
  if (method === 'margin' && rate.cmp(ONE) >= 0) throw new PricingError('bad_rate', 'a margin must be less than 1 (100%)', path);
  if (method === 'markup' && rate.cmp(ONE.neg()) <= 0) throw new PricingError('bad_rate', 'a markup must be more than -1 (-100%)', path);
}
function checkMethod(m: unknown, path: string): PricingMethod {
  if (m !== 'markup' && m !== 'margin') throw new PricingError('bad_method', 'must be "markup" or "margin"', path);
  return m;
}

function idKey(id: Id): string {
  return `${typeof id}:${id}`;
}
/** Order-independent tie-breaker: numbers before strings, numbers by value, strings by code unit. */
function compareIds(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------- allocation ----------

/**
 * Split `amount` cents over items in proportion to their weights (cents, negatives count as 0;
 * all-zero weights split evenly). Largest remainder: everyone gets the floor of their exact share,
 * the leftover cents go one each to the largest fractional parts, ties to the smaller id.
 * The shares always sum exactly to `amount`.
 */
export function spreadCents(amount: bigint, items: { id: Id; weight: bigint }[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (items.length === 0) return out;
  const sign = amount < 0n ? -1n : 1n;
  const abs = amount * sign;
  let weights = items.map((i) => (i.weight > 0n ? i.weight : 0n));
  let total = weights.reduce((a, b) => a + b, 0n);
  if (total === 0n) {
    weights = items.map(() => 1n);
    total = BigInt(items.length);
  }
  const shares = items.map((item, k) => {
    const exact = abs * weights[k];
    return { id: item.id, base: exact / total, rem: exact % total };
  });
  let left = abs - shares.reduce((a, s) => a + s.base, 0n);
  const order = [...shares].sort((x, y) => (x.rem === y.rem ? compareIds(x.id, y.id) : x.rem > y.rem ? -1 : 1));
  for (const s of order) {
    if (left === 0n) break;
    s.base += 1n;
    left -= 1n;
  }
  for (const s of shares) out.set(idKey(s.id), s.base * sign);
  return out;
}

// ---------- cost lines ----------

interface Ctx {
  method: PricingMethod;
  rate: Rational;
  formulas: Map<string, CompiledFormula>;
  warnings: string[];
}

interface CostLineCalc {
  result: CostLineResult;
  cost: bigint;
  price: bigint;
  included: boolean;
}

function compiled(ctx: Ctx, text: string, path: string): CompiledFormula {
  let f = ctx.formulas.get(text);
  if (!f) {
    try {
      f = compileFormula(text);
    } catch (e) {
      if (e instanceof FormulaError) throw new PricingError(`formula_${e.code}`, e.message, path, { cause: e });
      throw e;
    }
    ctx.formulas.set(text, f);
  }
  return f;
}

function haulOf(cl: CostLineInput, tons: Rational, path: string): { result: HaulResult; hours: Rational; text: string } {
  const h = cl.haul!;
  if (h.material !== 'asphalt' && h.material !== 'millings' && h.material !== 'spoil') {
    throw new PricingError('bad_haul', 'haul.material must be asphalt, millings or spoil', `${path}.haul.material`);
  }
  const cap = readReq(h.truck_capacity_tons, `${path}.haul.truck_capacity_tons`);
  if (cap.cmp(ZERO) <= 0) throw new PricingError('bad_haul', 'truck capacity must be more than 0', `${path}.haul.truck_capacity_tons`);
  const loadUnload = readOpt(h.load_unload_hr, `${path}.haul.load_unload_hr`) ?? ZERO;
  if (loadUnload.isNegative()) throw new PricingError('bad_haul', 'must not be negative', `${path}.haul.load_unload_hr`);
  const kind = h.route?.kind ?? 'plant_round_trip';
  let driving: Rational;
  let drivingText: string;
  if (kind === 'three_leg') {
    const legs = h.route?.legs_hr;
    if (!Array.isArray(legs) || legs.length !== 3) {
      throw new PricingError('bad_route', 'a three_leg route needs legs_hr with 3 leg times in hours', `${path}.haul.route.legs_hr`);
    }
    const vals = legs.map((v, i) => readReq(v, `${path}.haul.route.legs_hr[${i}]`));
    if (vals.some((v) => v.isNegative())) throw new PricingError('bad_route', 'leg times must not be negative', `${path}.haul.route.legs_hr`);
    driving = vals.reduce((a, b) => a.add(b), ZERO);
    drivingText = `legs ${vals.map((v) => num(v)).join(' + ')} h`;
  } else if (kind === 'plant_round_trip' || kind === 'dump_round_trip') {
    if (h.drive_hr === null || h.drive_hr === undefined) {
      const why = h.automatic_driving_time ? 'automatic driving time was not resolved' : 'drive_hr is required';
      throw new PricingError('drive_time_missing', why, `${path}.haul.drive_hr`);
    }
    const one = readReq(h.drive_hr, `${path}.haul.drive_hr`);
    if (one.isNegative()) throw new PricingError('bad_route', 'must not be negative', `${path}.haul.drive_hr`);
    driving = one.mul(Rational.int(2));
    drivingText = `2 × ${num(one)} h ${kind === 'dump_round_trip' ? 'job↔dump' : 'plant↔job'}`;
  } else {
    throw new PricingError('bad_route', 'route.kind must be plant_round_trip, three_leg or dump_round_trip', `${path}.haul.route.kind`);
  }
  const loads = tons.cmp(ZERO) <= 0 ? 0n : tons.div(cap).ceil();
  const cycle = driving.add(loadUnload);
  const hours = Rational.int(loads).mul(cycle).round(2);
  const text =
    `${num(tons)} t ÷ ${num(cap)} t/load = ${loads} loads; cycle ${drivingText}` +
    (loadUnload.isZero() ? '' : ` + ${num(loadUnload)} h load/unload`) +
    ` = ${num(cycle)} h; ${loads} × ${num(cycle)} h = ${num(hours, 2)} truck h`;
  return {
    hours,
    text,
    result: {
      material: h.material,
      route_kind: kind,
      tons: tons.toNumber(),
      truck_capacity_tons: cap.toNumber(),
      loads: Number(loads),
      cycle_hr: cycle.round(4).toNumber(),
      truck_hours: hours.toNumber(),
    },
  };
}

function costLine(
  ctx: Ctx, line: LineInput, lineMethod: PricingMethod, lineRate: Rational, vars: Map<string, Rational>,
  lineQty: Rational, cl: CostLineInput, path: string,
): CostLineCalc {
  const parts: string[] = [];
  let base: Rational;
  const manual = readOpt(cl.manual_quantity, `${path}.manual_quantity`);
  if (manual) {
    base = manual;
    parts.push(`manual ${num(base)}`);
  } else if (cl.quantity_formula !== null && cl.quantity_formula !== undefined && cl.quantity_formula.trim() !== '') {
    const f = compiled(ctx, cl.quantity_formula, `${path}.quantity_formula`);
    try {
      base = f.evaluate(vars);
    } catch (e) {
      if (e instanceof FormulaError) throw new PricingError(`formula_${e.code}`, e.message, `${path}.quantity_formula`, { cause: e });
      throw e;
    }
    parts.push(`${cl.quantity_formula} = ${num(base)}`);
  } else {
    base = lineQty;
    parts.push(`line quantity ${num(base)}`);
  }
  const waste = readOpt(cl.waste_factor, `${path}.waste_factor`) ?? ZERO;
  let q = base.mul(ONE.add(waste));
  if (!waste.isZero()) parts.push(`× (1 + ${pct(waste)} waste) = ${num(q)}`);
  q = qty4(q);
  let haul: HaulResult | null = null;
  let unit = cl.unit ?? null;
  if (cl.haul) {
    if (cl.type !== 'trucking') throw new PricingError('bad_haul', 'only trucking cost lines carry a haul', `${path}.haul`);
    const h = haulOf(cl, q, path);
    haul = h.result;
    parts.push(h.text);
    q = h.hours;
    unit = 'hr';
  }
  if (cl.dump_material != null && cl.dump_material !== 'millings' && cl.dump_material !== 'spoil') {
    throw new PricingError('bad_dump_material', 'dump_material must be millings or spoil', `${path}.dump_material`);
  }
  const unitCost = readReq(cl.unit_cost, `${path}.unit_cost`);
  const cost = cents(q.mul(unitCost));
  parts.push(`${num(q)}${unit ? ' ' + unit : ''} × $${num(unitCost)} = ${money(cost)} cost`);

  const method = cl.pricing_method != null ? checkMethod(cl.pricing_method, `${path}.pricing_method`) : lineMethod;
  const rate = readOpt(cl.pricing_rate, `${path}.pricing_rate`) ?? lineRate;
  checkRate(method, rate, `${path}.pricing_rate`);
  const price = priceOfCost(cost, method, rate);
  parts.push(`${methodText(method, rate)} = ${money(price)} price`);
  const included = !cl.is_alternate && !cl.suppressed;
  if (!included) parts.push(cl.suppressed ? '(suppressed: not in totals)' : '(alternate: not in totals)');

  return {
    cost,
    price,
    included,
    result: {
      id: cl.id,
      line_item_id: line.id,
      type: cl.type,
      base_quantity: qty4(base).toNumber(),
      quantity: q.toNumber(),
      unit,
      unit_cost: unitCost.toNumber(),
      cost: dollars(cost),
      price: dollars(price),
      pricing_method: method,
      pricing_rate: rate.toNumber(),
      included,
      haul,
      explain: parts.join('; '),
    },
  };
}

// ---------- lines ----------

interface LineCalc {
  input: LineInput;
  path: string;
  qty: Rational;
  method: PricingMethod;
  rate: Rational;
  cost: bigint;
  price: bigint;
  costLines: CostLineResult[];
  explain: string;
  isChild: boolean;
  children: LineCalc[];
  optional: boolean;
  hidden: boolean;
  override: bigint | null;
  allocated: bigint | null;
}

function priceLine(ctx: Ctx, line: LineInput, path: string, isChild: boolean): LineCalc {
  const qty = readReq(line.quantity, `${path}.quantity`);
  const method = line.pricing_method != null ? checkMethod(line.pricing_method, `${path}.pricing_method`) : ctx.method;
  const rate = readOpt(line.pricing_rate, `${path}.pricing_rate`) ?? ctx.rate;
  checkRate(method, rate, `${path}.pricing_rate`);
  const ov = readOpt(line.price_override, `${path}.price_override`);
  const calc: LineCalc = {
    input: line, path, qty, method, rate, cost: 0n, price: 0n, costLines: [], explain: '', isChild,
    children: [], optional: !!line.is_optional, hidden: !!line.hide_on_proposal,
    override: ov ? cents(ov) : null, allocated: null,
  };
  if (line.is_bundle_master) return calc; // rolled up from its children later

  if (line.estimating_mode === 'unit_costing') {
    const unitCost = readOpt(line.unit_cost, `${path}.unit_cost`) ?? ZERO;
    calc.cost = cents(qty.mul(unitCost));
    const unitPrice = readOpt(line.unit_price, `${path}.unit_price`);
    let priceText: string;
    if (unitPrice) {
      calc.price = cents(qty.mul(unitPrice));
      priceText = `${num(qty)} × $${num(unitPrice)} unit price = ${money(calc.price)} price`;
    } else {
      calc.price = priceOfCost(calc.cost, method, rate);
      priceText = `${methodText(method, rate)} = ${money(calc.price)} price`;
    }
    calc.explain = `${num(qty)}${line.unit ? ' ' + line.unit : ''} × $${num(unitCost)} = ${money(calc.cost)} cost; ${priceText}`;
    if (line.cost_lines?.length) ctx.warnings.push(`${path}: cost lines are ignored on a unit_costing line`);
    return calc;
  }
  if (line.estimating_mode !== 'detailed') {
    throw new PricingError('bad_mode', 'estimating_mode must be detailed or unit_costing', `${path}.estimating_mode`);
  }
  const vars = new Map<string, Rational>();
  for (const [k, v] of Object.entries(line.inputs ?? {})) {
    if (k === 'quantity') continue;
    vars.set(k, readReq(v, `${path}.inputs.${k}`));
  }
  vars.set('quantity', qty);
  const seen = new Set<string>();
  (line.cost_lines ?? []).forEach((cl, k) => {
    const clPath = `${path}.cost_lines[${k}]`;
    const key = idKey(cl.id);
    if (seen.has(key)) throw new PricingError('duplicate_id', `cost line id ${cl.id} appears twice`, clPath);
    seen.add(key);
    const r = costLine(ctx, line, method, rate, vars, qty, cl, clPath);
    calc.costLines.push(r.result);
    if (r.included) {
      calc.cost += r.cost;
      calc.price += r.price;
    }
  });
  const n = calc.costLines.filter((c) => c.included).length;
  calc.explain = `sum of ${n} cost line${n === 1 ? '' : 's'}: ${money(calc.cost)} cost, ${money(calc.price)} price`;
  return calc;
}

function lineResult(c: LineCalc): LineResult {
  const margin = c.price - c.cost;
  const qZero = c.qty.isZero();
  return {
    id: c.input.id,
    estimating_mode: c.input.estimating_mode,
    quantity: c.qty.toNumber(),
    unit: c.input.unit ?? null,
    cost: dollars(c.cost),
    price: dollars(c.price),
    unit_cost: qZero ? null : frac4(Rational.cents(c.cost).div(c.qty)),
    unit_price: qZero ? null : frac4(Rational.cents(c.price).div(c.qty)),
    margin: dollars(margin),
    margin_pct: marginFraction(margin, c.price),
    allocated_price: c.allocated === null ? null : dollars(c.allocated),
    pricing_method: c.method,
    pricing_rate: c.rate.toNumber(),
    is_optional: c.optional,
    listed: !c.isChild && !c.hidden,
    counted: !c.isChild && !c.optional,
    is_bundle_master: !!c.input.is_bundle_master,
    bundle_parent_service_id: c.input.bundle_parent_service_id ?? null,
    bundle_child_service_ids: c.children.map((ch) => ch.input.id),
    price_override: c.override === null ? null : dollars(c.override),
    cost_lines: c.costLines,
    explain: c.explain,
  };
}

// ---------- the estimate ----------

export function priceEstimate(input: EstimateInput): EstimateResult {
  if (!input || typeof input !== 'object' || !input.pricing) throw new PricingError('missing_value', 'pricing is required', 'pricing');
  const p = input.pricing;
  const method = checkMethod(p.markup_method, 'pricing.markup_method');
  const rate = readReq(p.markup_rate, 'pricing.markup_rate');
  checkRate(method, rate, 'pricing.markup_rate');
  const contingencyRate = readOpt(p.contingency_rate, 'pricing.contingency_rate');
  const taxRate = readOpt(p.tax_rate, 'pricing.tax_rate') ?? ZERO;
  const minimum = readOpt(p.minimum_charge, 'pricing.minimum_charge');
  const ctx: Ctx = { method, rate, formulas: new Map(), warnings: [] };

  // gather lines (flat list and/or areas)
  const raw: { line: LineInput; path: string }[] = [];
  (input.lines ?? []).forEach((line, i) => raw.push({ line, path: `lines[${i}]` }));
  (input.areas ?? []).forEach((area, a) =>
    (area.services ?? []).forEach((line, i) => raw.push({ line, path: `areas[${a}].services[${i}]` })),
  );
  const byId = new Map<string, LineInput>();
  for (const { line, path } of raw) {
    const key = idKey(line.id);
    if (byId.has(key)) throw new PricingError('duplicate_id', `line id ${line.id} appears twice`, `${path}.id`);
    byId.set(key, line);
  }
  for (const { line, path } of raw) {
    const parent = line.bundle_parent_service_id;
    if (parent === null || parent === undefined) continue;
    const master = byId.get(idKey(parent));
    if (!master || !master.is_bundle_master) {
      throw new PricingError('bad_bundle', `bundle parent ${parent} is not a bundle master line of this estimate`, `${path}.bundle_parent_service_id`);
    }
    if (line.is_bundle_master) throw new PricingError('bad_bundle', 'a bundle master cannot be inside another bundle', `${path}.is_bundle_master`);
  }

  const calcs = raw.map(({ line, path }) => {
    const isChild = line.bundle_parent_service_id !== null && line.bundle_parent_service_id !== undefined;
    return priceLine(ctx, line, path, isChild);
  });
  const calcById = new Map(calcs.map((c) => [idKey(c.input.id), c]));

  // bundles: the master's cost and price are the sums of its children
  for (const c of calcs) {
    if (!c.isChild) continue;
    const master = calcById.get(idKey(c.input.bundle_parent_service_id!))!;
    master.children.push(c);
  }
  for (const c of calcs) {
    if (!c.input.is_bundle_master) continue;
    c.children.sort((a, b) => compareIds(a.input.id, b.input.id));
    c.cost = c.children.reduce((s, ch) => s + ch.cost, 0n);
    c.price = c.children.reduce((s, ch) => s + ch.price, 0n);
    c.explain = `bundle of ${c.children.length} sub-line${c.children.length === 1 ? '' : 's'}: ${money(c.cost)} cost, ${money(c.price)} price`;
    if (c.input.cost_lines?.length) ctx.warnings.push(`${c.path}: a bundle master's own cost lines are ignored (its sub-lines carry the cost)`);
    for (const ch of c.children) {
      if (ch.optional !== c.optional) ctx.warnings.push(`${ch.path}: is_optional follows the bundle master`);
      ch.optional = c.optional;
    }
  }

  const top = calcs.filter((c) => !c.isChild);
  const counted = top.filter((c) => !c.optional);
  const linesCost = counted.reduce((s, c) => s + c.cost, 0n);
  const linesPrice = counted.reduce((s, c) => s + c.price, 0n);
  const anyCounted = counted.length > 0;
  const explain: string[] = [`lines: ${money(linesCost)} cost, ${money(linesPrice)} price (${counted.length} counted line${counted.length === 1 ? '' : 's'})`];

  // job-level costs
  const jc = input.job_costs ?? {};
  const jobCosts: JobCostResult[] = [];
  const addMarkedUp = (kind: JobCostResult['kind'], cost: bigint, why: string) => {
    const price = priceOfCost(cost, method, rate);
    jobCosts.push({ kind, cost: dollars(cost), price: dollars(price), explain: `${why}; ${methodText(method, rate)} = ${money(price)} price` });
    return price;
  };
  let jobPrice = 0n;
  let jobCost = 0n;
  const mob = readOpt(jc.mobilization, 'job_costs.mobilization');
  const mobCost = mob ? cents(mob) : 0n;
  if (mobCost !== 0n) {
    jobPrice += addMarkedUp('mobilization', mobCost, `mobilization ${money(mobCost)} cost`);
    jobCost += mobCost;
  }
  const ohAmount = readOpt(jc.overhead_amount, 'job_costs.overhead_amount');
  const ohRate = readOpt(jc.overhead_rate, 'job_costs.overhead_rate');
  let ohCost = 0n;
  if ((ohAmount && !ohAmount.isZero()) || (ohRate && !ohRate.isZero())) {
    ohCost = cents((ohAmount ?? ZERO).add((ohRate ?? ZERO).mul(Rational.cents(linesCost))));
    const why = [ohAmount && !ohAmount.isZero() ? `${money(cents(ohAmount))} fixed` : '', ohRate && !ohRate.isZero() ? `${pct(ohRate)} × ${money(linesCost)} line cost` : '']
      .filter(Boolean).join(' + ');
    jobPrice += addMarkedUp('overhead', ohCost, `overhead ${why} = ${money(ohCost)} cost`);
    jobCost += ohCost;
  }
  if (contingencyRate && !contingencyRate.isZero()) {
    const baseCost = linesCost + mobCost + ohCost;
    const cCost = cents(contingencyRate.mul(Rational.cents(baseCost)));
    jobPrice += addMarkedUp('contingency', cCost, `contingency ${pct(contingencyRate)} × ${money(baseCost)} = ${money(cCost)} cost`);
    jobCost += cCost;
  }
  let subtotal = linesPrice + jobPrice;
  const bondRate = readOpt(jc.bond_rate, 'job_costs.bond_rate');
  if (bondRate && !bondRate.isZero()) {
    const bond = cents(bondRate.mul(Rational.cents(subtotal)));
    jobCosts.push({ kind: 'bond', cost: dollars(bond), price: dollars(bond), explain: `bond ${pct(bondRate)} × ${money(subtotal)} = ${money(bond)} (at cost)` });
    jobCost += bond;
    subtotal += bond;
  }
  if (minimum && anyCounted) {
    const minC = cents(minimum);
    if (subtotal < minC) {
      const uplift = minC - subtotal;
      jobCosts.push({ kind: 'minimum_charge', cost: 0, price: dollars(uplift), explain: `minimum charge ${money(minC)} − ${money(subtotal)} = ${money(uplift)} added` });
      subtotal = minC;
    }
  }
  if (jc.rounding && anyCounted) {
    const inc = readReq(jc.rounding.increment, 'job_costs.rounding.increment');
    if (inc.cmp(ZERO) <= 0) throw new PricingError('bad_rounding', 'increment must be more than 0', 'job_costs.rounding.increment');
    const incC = cents(inc);
    if (incC <= 0n) throw new PricingError('bad_rounding', 'increment must be at least one cent', 'job_costs.rounding.increment');
    const mode = jc.rounding.mode ?? 'up';
    if (mode !== 'up' && mode !== 'nearest') throw new PricingError('bad_rounding', 'mode must be up or nearest', 'job_costs.rounding.mode');
    const steps = Rational.of(subtotal, incC);
    const rounded = (mode === 'up' ? steps.ceil() : steps.roundInt()) * incC;
    const diff = rounded - subtotal;
    if (diff !== 0n) {
      jobCosts.push({ kind: 'rounding', cost: 0, price: dollars(diff), explain: `round ${money(subtotal)} ${mode} to a multiple of ${money(incC)} = ${money(rounded)}` });
      subtotal = rounded;
    }
  }
  const totalCost = linesCost + jobCost;

  // allocation: spread everything that is not a listed line's own price over the listed lines
  const targets = counted.filter((c) => !c.hidden).sort((a, b) => compareIds(a.input.id, b.input.id));
  let pinned = targets.filter((c) => c.override !== null);
  let others = targets.filter((c) => c.override === null);
  if (others.length === 0 && pinned.length > 0) {
    const pinnedSum = pinned.reduce((s, c) => s + c.override!, 0n);
    if (pinnedSum !== subtotal) {
      ctx.warnings.push('price_override cannot be honoured: no other listed line can take the difference; overrides ignored');
      others = pinned;
      pinned = [];
    }
  }
  for (const c of pinned) c.allocated = c.override;
  if (targets.length === 0 && subtotal !== 0n) ctx.warnings.push('no listed line to carry the subtotal on the proposal');
  const spreadAmount = subtotal - pinned.reduce((s, c) => s + c.override!, 0n) - others.reduce((s, c) => s + c.price, 0n);
  const shares = spreadCents(spreadAmount, others.map((c) => ({ id: c.input.id, weight: c.price })));
  for (const c of others) c.allocated = c.price + (shares.get(idKey(c.input.id)) ?? 0n);
  if (targets.some((c) => c.allocated! < 0n)) ctx.warnings.push('a listed line has a negative allocated price');
  // optional lines show their own (or pinned) price; hidden optional lines are not offered
  for (const c of top) {
    if (!c.optional) continue;
    if (c.hidden) {
      ctx.warnings.push(`${c.path}: a hidden optional line is not offered and not in optional_total`);
      continue;
    }
    c.allocated = c.override ?? c.price;
  }
  // a bundle's sub-lines share the master's allocated price in proportion to their prices
  for (const m of top) {
    if (!m.input.is_bundle_master || m.allocated === null || m.children.length === 0) continue;
    const parts = spreadCents(m.allocated, m.children.map((ch) => ({ id: ch.input.id, weight: ch.price })));
    for (const ch of m.children) ch.allocated = parts.get(idKey(ch.input.id)) ?? 0n;
  }
  for (const c of top) {
    if (c.override !== null && (c.hidden || c.allocated !== c.override)) {
      ctx.warnings.push(`${c.path}: price_override not applied (${c.hidden ? 'hidden line' : 'nothing to take the difference'})`);
    }
  }

  // tax on the allocated price of taxable listed lines (the whole subtotal when nothing is listed)
  const taxable = targets.length === 0
    ? subtotal
    : targets.filter((c) => c.input.taxable !== false).reduce((s, c) => s + c.allocated!, 0n);
  const tax = cents(taxRate.mul(Rational.cents(taxable)));
  const optionalTotal = top.filter((c) => c.optional && !c.hidden).reduce((s, c) => s + c.allocated!, 0n);
  const margin = subtotal - totalCost;
  const price = subtotal + tax;

  if (jobCosts.length) explain.push(...jobCosts.map((j) => j.explain));
  explain.push(`subtotal ${money(subtotal)}; tax ${pct(taxRate)} × ${money(taxable)} taxable = ${money(tax)}; price ${money(price)}`);
  explain.push(`cost ${money(totalCost)}; margin ${money(subtotal)} − ${money(totalCost)} = ${money(margin)}; margin % = ${money(margin)} ÷ price ${money(price)}`);

  return {
    totals: {
      price: dollars(price),
      subtotal: dollars(subtotal),
      tax: dollars(tax),
      cost: dollars(totalCost),
      margin: dollars(margin),
      // Document 3: margin_pct is a fraction of price, the customer total including tax.
      margin_pct: marginFraction(margin, price),
      margin_pct_of_subtotal: marginFraction(margin, subtotal),
      optional_total: dollars(optionalTotal),
    },
    lines: calcs.map(lineResult),
    job_costs: jobCosts,
    lines_price: dollars(linesPrice),
    lines_cost: dollars(linesCost),
    taxable_subtotal: dollars(taxable),
    warnings: ctx.warnings,
    explain,
  };
}
