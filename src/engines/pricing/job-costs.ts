// From the lines to the subtotal (docs/pricing.md section 8): mobilization, overhead and
// contingency as marked-up job-level costs, the bond at cost, the minimum charge and the rounding
// of the subtotal. Job-level costs count in the estimate's cost, never in a line's.
import { methodText, money, pct } from './explain.ts';
import { PricingError, readOpt, readReq, type Ctx, type Pricing } from './inputs.ts';
import { Rational } from './rational.ts';
import { cents, dollars, priceOfCost } from './rounding.ts';
import type { JobCostResult, JobCostsInput } from './types.ts';
import type { LineTotals } from './lines.ts';

const ZERO = Rational.ZERO;

export interface JobCostSheet {
  jobCosts: JobCostResult[];
  /** Cents of cost added to the lines' cost. */
  jobCost: bigint;
  /** Cents: the pre-tax price. */
  subtotal: bigint;
}

/** Mobilization, overhead and contingency: costs priced with the estimate's method and rate. */
function markedUpCosts(
  ctx: Ctx,
  jc: JobCostsInput,
  contingencyRate: Rational | null,
  linesCost: bigint,
  sheet: JobCostSheet,
): void {
  const { method, rate } = ctx;
  const addMarkedUp = (kind: JobCostResult['kind'], cost: bigint, why: string) => {
    const price = priceOfCost(cost, method, rate);
    sheet.jobCosts.push({
      kind,
      cost: dollars(cost),
      price: dollars(price),
      explain: `${why}; ${methodText(method, rate)} = ${money(price)} price`,
    });
    return price;
  };
  const mob = readOpt(jc.mobilization, 'job_costs.mobilization');
  const mobCost = mob ? cents(mob) : 0n;
  if (mobCost !== 0n) {
    sheet.subtotal += addMarkedUp('mobilization', mobCost, `mobilization ${money(mobCost)} cost`);
    sheet.jobCost += mobCost;
  }
  const ohAmount = readOpt(jc.overhead_amount, 'job_costs.overhead_amount');
  const ohRate = readOpt(jc.overhead_rate, 'job_costs.overhead_rate');
  let ohCost = 0n;
  if ((ohAmount && !ohAmount.isZero()) || (ohRate && !ohRate.isZero())) {
    ohCost = cents((ohAmount ?? ZERO).add((ohRate ?? ZERO).mul(Rational.cents(linesCost))));
    const why = [
      ohAmount && !ohAmount.isZero() ? `${money(cents(ohAmount))} fixed` : '',
      ohRate && !ohRate.isZero() ? `${pct(ohRate)} × ${money(linesCost)} line cost` : '',
    ]
      .filter(Boolean)
      .join(' + ');
    sheet.subtotal += addMarkedUp('overhead', ohCost, `overhead ${why} = ${money(ohCost)} cost`);
    sheet.jobCost += ohCost;
  }
  if (contingencyRate && !contingencyRate.isZero()) {
    const baseCost = linesCost + mobCost + ohCost;
    const cCost = cents(contingencyRate.mul(Rational.cents(baseCost)));
    sheet.subtotal += addMarkedUp(
      'contingency',
      cCost,
      `contingency ${pct(contingencyRate)} × ${money(baseCost)} = ${money(cCost)} cost`,
    );
    sheet.jobCost += cCost;
  }
}

/** The bond: a rate of the subtotal so far, passed through at cost. */
function bond(jc: JobCostsInput, sheet: JobCostSheet): void {
  const bondRate = readOpt(jc.bond_rate, 'job_costs.bond_rate');
  if (bondRate && !bondRate.isZero()) {
    const amount = cents(bondRate.mul(Rational.cents(sheet.subtotal)));
    sheet.jobCosts.push({
      kind: 'bond',
      cost: dollars(amount),
      price: dollars(amount),
      explain: `bond ${pct(bondRate)} × ${money(sheet.subtotal)} = ${money(amount)} (at cost)`,
    });
    sheet.jobCost += amount;
    sheet.subtotal += amount;
  }
}

/** The minimum charge: a subtotal below it is raised to it (price with no cost). */
function minimumCharge(minimum: Rational, sheet: JobCostSheet): void {
  const minC = cents(minimum);
  if (sheet.subtotal < minC) {
    const uplift = minC - sheet.subtotal;
    sheet.jobCosts.push({
      kind: 'minimum_charge',
      cost: 0,
      price: dollars(uplift),
      explain: `minimum charge ${money(minC)} − ${money(sheet.subtotal)} = ${money(uplift)} added`,
    });
    sheet.subtotal = minC;
  }
}

/** The subtotal rounded up (or to the nearest) multiple of the increment; the difference is price with no cost. */
function roundSubtotal(rounding: NonNullable<JobCostsInput['rounding']>, sheet: JobCostSheet): void {
  const inc = readReq(rounding.increment, 'job_costs.rounding.increment');
  if (inc.cmp(ZERO) <= 0)
    throw new PricingError('bad_rounding', 'increment must be more than 0', 'job_costs.rounding.increment');
  const incC = cents(inc);
  if (incC <= 0n)
    throw new PricingError('bad_rounding', 'increment must be at least one cent', 'job_costs.rounding.increment');
  const mode = rounding.mode ?? 'up';
  if (mode !== 'up' && mode !== 'nearest')
    throw new PricingError('bad_rounding', 'mode must be up or nearest', 'job_costs.rounding.mode');
  const steps = Rational.of(sheet.subtotal, incC);
  const rounded = (mode === 'up' ? steps.ceil() : steps.roundInt()) * incC;
  const diff = rounded - sheet.subtotal;
  if (diff !== 0n) {
    sheet.jobCosts.push({
      kind: 'rounding',
      cost: 0,
      price: dollars(diff),
      explain: `round ${money(sheet.subtotal)} ${mode} to a multiple of ${money(incC)} = ${money(rounded)}`,
    });
    sheet.subtotal = rounded;
  }
}

/**
 * Phase 6: the job-level costs in order, from the counted lines' price to the subtotal. The
 * minimum charge and rounding apply only when some line is counted.
 */
export function jobCostsToSubtotal(
  pricing: Pricing,
  jobCostsInput: JobCostsInput | null | undefined,
  lines: LineTotals,
): JobCostSheet {
  const jc = jobCostsInput ?? {};
  const anyCounted = lines.counted.length > 0;
  const sheet: JobCostSheet = { jobCosts: [], jobCost: 0n, subtotal: lines.linesPrice };
  markedUpCosts(pricing.ctx, jc, pricing.contingencyRate, lines.linesCost, sheet);
  bond(jc, sheet);
  if (pricing.minimum && anyCounted) minimumCharge(pricing.minimum, sheet);
  if (jc.rounding && anyCounted) roundSubtotal(jc.rounding, sheet);
  return sheet;
}
