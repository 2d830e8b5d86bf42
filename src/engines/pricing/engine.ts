// The pricing engine: a pure function from an estimate's inputs to every number the API shows.
// No I/O, no clock, no randomness, no binary floating point in arithmetic (exact rationals,
// rounded half away from zero only at the points listed in docs/pricing.md). priceEstimate runs
// the phases in order; each lives in the file named for it.
import { allocatePrices } from './allocation.ts';
import { explainEstimate } from './explain.ts';
import { gatherLines, readPricing } from './inputs.ts';
import { jobCostsToSubtotal } from './job-costs.ts';
import { countLines, lineResult, priceLines, rollUpBundles, type LineCalc } from './lines.ts';
import { Rational } from './rational.ts';
import { cents, dollars, marginFraction } from './rounding.ts';
import type { EstimateInput, EstimateResult, PriceOptions } from './types.ts';

/**
 * Phase 8: tax on the allocated price of the taxable listed lines (the whole subtotal when nothing
 * is listed), the price with tax, and the optional lines' total.
 */
function taxAndPrice(taxRate: Rational, targets: LineCalc[], top: LineCalc[], subtotal: bigint) {
  const taxable =
    targets.length === 0
      ? subtotal
      : targets.filter((c) => c.input.taxable !== false).reduce((s, c) => s + c.allocated!, 0n);
  const tax = cents(taxRate.mul(Rational.cents(taxable)));
  const optionalTotal = top.filter((c) => c.optional && !c.hidden).reduce((s, c) => s + c.allocated!, 0n);
  return { taxable, tax, price: subtotal + tax, optionalTotal };
}

export function priceEstimate(input: EstimateInput, options: PriceOptions = {}): EstimateResult {
  const pricing = readPricing(input, options.explain ?? true);
  const { ctx } = pricing;
  const calcs = priceLines(ctx, gatherLines(input));
  rollUpBundles(ctx, calcs);
  const lines = countLines(calcs);
  const { jobCosts, jobCost, subtotal } = jobCostsToSubtotal(pricing, input.job_costs, lines);
  const totalCost = lines.linesCost + jobCost;
  const targets = allocatePrices(ctx, lines, subtotal);
  const { taxable, tax, price, optionalTotal } = taxAndPrice(pricing.taxRate, targets, lines.top, subtotal);
  const margin = subtotal - totalCost;
  const explain = explainEstimate({
    linesCost: lines.linesCost,
    linesPrice: lines.linesPrice,
    countedLines: lines.counted.length,
    jobCosts,
    subtotal,
    taxRate: pricing.taxRate,
    taxable,
    tax,
    price,
    totalCost,
    margin,
  });

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
    lines_price: dollars(lines.linesPrice),
    lines_cost: dollars(lines.linesCost),
    taxable_subtotal: dollars(taxable),
    warnings: ctx.warnings,
    explain,
  };
}
