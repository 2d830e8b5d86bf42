// A detailed line's cost lines (docs/pricing.md section 5): base quantity (manual, formula or the
// line's), waste, a trucking haul's loads and truck hours, cost, and price under the cost line's
// method and rate (blank follows the line). Alternates and suppressed lines are worked out but not
// counted.
import { compileFormula, FormulaError, type CompiledFormula } from './formula.ts';
import { checkMethod, checkRate, PricingError, readOpt, readReq, type Ctx } from './inputs.ts';
import { methodText, money, num, pct } from './explain.ts';
import { Rational } from './rational.ts';
import { cents, dollars, priceOfCost, qty4 } from './rounding.ts';
import type { CostLineInput, CostLineResult, HaulResult, LineInput, PricingMethod } from './types.ts';

const ZERO = Rational.ZERO;
const ONE = Rational.ONE;

export interface CostLineCalc {
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

/** A trucking haul: loads of `tons`, the cycle of one load, and the truck hours that are costed. */
function haulOf(
  cl: CostLineInput,
  tons: Rational,
  path: string,
  explain: boolean,
): { result: HaulResult; hours: Rational; text: string } {
  const h = cl.haul!;
  if (h.material !== 'asphalt' && h.material !== 'millings' && h.material !== 'spoil') {
    throw new PricingError('bad_haul', 'haul.material must be asphalt, millings or spoil', `${path}.haul.material`);
  }
  const cap = readReq(h.truck_capacity_tons, `${path}.haul.truck_capacity_tons`);
  if (cap.cmp(ZERO) <= 0)
    throw new PricingError('bad_haul', 'truck capacity must be more than 0', `${path}.haul.truck_capacity_tons`);
  const loadUnload = readOpt(h.load_unload_hr, `${path}.haul.load_unload_hr`) ?? ZERO;
  if (loadUnload.isNegative())
    throw new PricingError('bad_haul', 'must not be negative', `${path}.haul.load_unload_hr`);
  const kind = h.route?.kind ?? 'plant_round_trip';
  let driving: Rational;
  let drivingText = '';
  if (kind === 'three_leg') {
    const legs = h.route?.legs_hr;
    if (!Array.isArray(legs) || legs.length !== 3) {
      throw new PricingError(
        'bad_route',
        'a three_leg route needs legs_hr with 3 leg times in hours',
        `${path}.haul.route.legs_hr`,
      );
    }
    const vals = legs.map((v, i) => readReq(v, `${path}.haul.route.legs_hr[${i}]`));
    if (vals.some((v) => v.isNegative()))
      throw new PricingError('bad_route', 'leg times must not be negative', `${path}.haul.route.legs_hr`);
    driving = vals.reduce((a, b) => a.add(b), ZERO);
    if (explain) drivingText = `legs ${vals.map((v) => num(v)).join(' + ')} h`;
  } else if (kind === 'plant_round_trip' || kind === 'dump_round_trip') {
    if (h.drive_hr === null || h.drive_hr === undefined) {
      const why = h.automatic_driving_time ? 'automatic driving time was not resolved' : 'drive_hr is required';
      throw new PricingError('drive_time_missing', why, `${path}.haul.drive_hr`);
    }
    const one = readReq(h.drive_hr, `${path}.haul.drive_hr`);
    if (one.isNegative()) throw new PricingError('bad_route', 'must not be negative', `${path}.haul.drive_hr`);
    driving = one.mul(Rational.int(2));
    if (explain) drivingText = `2 × ${num(one)} h ${kind === 'dump_round_trip' ? 'job↔dump' : 'plant↔job'}`;
  } else {
    throw new PricingError(
      'bad_route',
      'route.kind must be plant_round_trip, three_leg or dump_round_trip',
      `${path}.haul.route.kind`,
    );
  }
  const loads = tons.cmp(ZERO) <= 0 ? 0n : tons.div(cap).ceil();
  const cycle = driving.add(loadUnload);
  const hours = Rational.int(loads).mul(cycle).round(2);
  const text = !explain
    ? ''
    : `${num(tons)} t ÷ ${num(cap)} t/load = ${loads} loads; cycle ${drivingText}` +
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

/** One cost line of `line`, with the line's method, rate, formula variables and quantity. */
export function priceCostLine(
  ctx: Ctx,
  line: LineInput,
  lineMethod: PricingMethod,
  lineRate: Rational,
  vars: Map<string, Rational>,
  lineQty: Rational,
  cl: CostLineInput,
  path: string,
): CostLineCalc {
  // The explain text's parts, or null when the caller asked for numbers only (ctx.explain).
  const parts: string[] | null = ctx.explain ? [] : null;
  let base: Rational;
  const manual = readOpt(cl.manual_quantity, `${path}.manual_quantity`);
  if (manual) {
    base = manual;
    parts?.push(`manual ${num(base)}`);
  } else if (cl.quantity_formula !== null && cl.quantity_formula !== undefined && cl.quantity_formula.trim() !== '') {
    const f = compiled(ctx, cl.quantity_formula, `${path}.quantity_formula`);
    try {
      base = f.evaluate(vars);
    } catch (e) {
      if (e instanceof FormulaError)
        throw new PricingError(`formula_${e.code}`, e.message, `${path}.quantity_formula`, { cause: e });
      throw e;
    }
    parts?.push(`${cl.quantity_formula} = ${num(base)}`);
  } else {
    base = lineQty;
    parts?.push(`line quantity ${num(base)}`);
  }
  const waste = readOpt(cl.waste_factor, `${path}.waste_factor`) ?? ZERO;
  let q = base.mul(ONE.add(waste));
  if (!waste.isZero()) parts?.push(`× (1 + ${pct(waste)} waste) = ${num(q)}`);
  q = qty4(q);
  let haul: HaulResult | null = null;
  let unit = cl.unit ?? null;
  if (cl.haul) {
    if (cl.type !== 'trucking')
      throw new PricingError('bad_haul', 'only trucking cost lines carry a haul', `${path}.haul`);
    const h = haulOf(cl, q, path, ctx.explain);
    haul = h.result;
    parts?.push(h.text);
    q = h.hours;
    unit = 'hr';
  }
  if (cl.dump_material != null && cl.dump_material !== 'millings' && cl.dump_material !== 'spoil') {
    throw new PricingError('bad_dump_material', 'dump_material must be millings or spoil', `${path}.dump_material`);
  }
  const unitCost = readReq(cl.unit_cost, `${path}.unit_cost`);
  const cost = cents(q.mul(unitCost));
  parts?.push(`${num(q)}${unit ? ' ' + unit : ''} × $${num(unitCost)} = ${money(cost)} cost`);

  const method = cl.pricing_method != null ? checkMethod(cl.pricing_method, `${path}.pricing_method`) : lineMethod;
  const rate = readOpt(cl.pricing_rate, `${path}.pricing_rate`) ?? lineRate;
  checkRate(method, rate, `${path}.pricing_rate`);
  const price = priceOfCost(cost, method, rate);
  parts?.push(`${methodText(method, rate)} = ${money(price)} price`);
  const included = !cl.is_alternate && !cl.suppressed;
  if (!included) parts?.push(cl.suppressed ? '(suppressed: not in totals)' : '(alternate: not in totals)');

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
      explain: parts === null ? '' : parts.join('; '),
    },
  };
}
