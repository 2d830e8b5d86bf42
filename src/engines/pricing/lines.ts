// The estimate's lines (docs/pricing.md sections 4, 6 and 8): each line priced (unit costing, or
// the sum of its cost lines), bundle masters rolled up from their sub-lines, the counted lines'
// cost and price summed, and each line's result.
import { priceCostLine } from './cost-lines.ts';
import { methodText, money, num } from './explain.ts';
import {
  checkMethod,
  checkRate,
  compareIds,
  idKey,
  PricingError,
  readOpt,
  readReq,
  type Ctx,
  type RawLine,
} from './inputs.ts';
import { Rational } from './rational.ts';
import { cents, dollars, frac4, marginFraction, priceOfCost } from './rounding.ts';
import type { CostLineResult, LineInput, LineResult, PricingMethod } from './types.ts';

const ZERO = Rational.ZERO;

/** A line as it is worked out; later phases fill in its bundle, optional flag and allocated price. */
export interface LineCalc {
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
    input: line,
    path,
    qty,
    method,
    rate,
    cost: 0n,
    price: 0n,
    costLines: [],
    explain: '',
    isChild,
    children: [],
    optional: !!line.is_optional,
    hidden: !!line.hide_on_proposal,
    override: ov ? cents(ov) : null,
    allocated: null,
  };
  if (line.is_bundle_master) return calc; // rolled up from its children later

  if (line.estimating_mode === 'unit_costing') {
    const unitCost = readOpt(line.unit_cost, `${path}.unit_cost`) ?? ZERO;
    calc.cost = cents(qty.mul(unitCost));
    const unitPrice = readOpt(line.unit_price, `${path}.unit_price`);
    let priceText = '';
    if (unitPrice) {
      calc.price = cents(qty.mul(unitPrice));
      if (ctx.explain) priceText = `${num(qty)} × $${num(unitPrice)} unit price = ${money(calc.price)} price`;
    } else {
      calc.price = priceOfCost(calc.cost, method, rate);
      if (ctx.explain) priceText = `${methodText(method, rate)} = ${money(calc.price)} price`;
    }
    if (ctx.explain)
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
    const r = priceCostLine(ctx, line, method, rate, vars, qty, cl, clPath);
    calc.costLines.push(r.result);
    if (r.included) {
      calc.cost += r.cost;
      calc.price += r.price;
    }
  });
  const n = calc.costLines.filter((c) => c.included).length;
  if (ctx.explain)
    calc.explain = `sum of ${n} cost line${n === 1 ? '' : 's'}: ${money(calc.cost)} cost, ${money(calc.price)} price`;
  return calc;
}

/** Phase 3: every line priced in order, with its cost lines (bundle masters wait for phase 4). */
export function priceLines(ctx: Ctx, raw: RawLine[]): LineCalc[] {
  return raw.map(({ line, path }) => {
    const isChild = line.bundle_parent_service_id !== null && line.bundle_parent_service_id !== undefined;
    return priceLine(ctx, line, path, isChild);
  });
}

/** Phase 4: a bundle master's cost and price are the sums of its sub-lines, which follow its optional flag. */
export function rollUpBundles(ctx: Ctx, calcs: LineCalc[]): void {
  const calcById = new Map(calcs.map((c) => [idKey(c.input.id), c]));
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
    if (ctx.explain)
      c.explain = `bundle of ${c.children.length} sub-line${c.children.length === 1 ? '' : 's'}: ${money(c.cost)} cost, ${money(c.price)} price`;
    if (c.input.cost_lines?.length)
      ctx.warnings.push(`${c.path}: a bundle master's own cost lines are ignored (its sub-lines carry the cost)`);
    for (const ch of c.children) {
      if (ch.optional !== c.optional) ctx.warnings.push(`${ch.path}: is_optional follows the bundle master`);
      ch.optional = c.optional;
    }
  }
}

export interface LineTotals {
  /** Top-level lines (not bundle sub-lines). */
  top: LineCalc[];
  /** Top-level lines that are not optional: the ones in the totals. */
  counted: LineCalc[];
  linesCost: bigint;
  linesPrice: bigint;
}

/** Phase 5: the counted lines and their cost and price. */
export function countLines(calcs: LineCalc[]): LineTotals {
  const top = calcs.filter((c) => !c.isChild);
  const counted = top.filter((c) => !c.optional);
  return {
    top,
    counted,
    linesCost: counted.reduce((s, c) => s + c.cost, 0n),
    linesPrice: counted.reduce((s, c) => s + c.price, 0n),
  };
}

export function lineResult(c: LineCalc): LineResult {
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
