// The explain texts: how money, quantities and rates are written, and the estimate's own lines of
// explanation (each cost line, line and job-level cost writes its own as it is worked out).
import { Rational } from './rational.ts';
import type { JobCostResult, PricingMethod } from './types.ts';

function groupDigits(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
export function money(c: bigint): string {
  const neg = c < 0n;
  const abs = neg ? -c : c;
  const whole = groupDigits((abs / 100n).toString());
  const fr = (abs % 100n).toString().padStart(2, '0');
  return `${neg ? '-' : ''}$${whole}.${fr}`;
}
export function num(x: Rational, digits = 4): string {
  const t = x.toFixed(digits);
  const [w, f = ''] = t.split('.');
  const neg = w.startsWith('-');
  const ww = groupDigits(neg ? w.slice(1) : w);
  const ff = f.replace(/0+$/, '');
  return `${neg ? '-' : ''}${ww}${ff ? '.' + ff : ''}`;
}
export function pct(rate: Rational): string {
  return `${num(rate.mul(Rational.int(100)), 4)}%`;
}
export function methodText(method: PricingMethod, rate: Rational): string {
  return method === 'markup' ? `${pct(rate)} markup on cost` : `${pct(rate)} margin of price`;
}

/** The figures the estimate's explanation walks through, in integer cents. */
export interface ExplainFigures {
  linesCost: bigint;
  linesPrice: bigint;
  countedLines: number;
  jobCosts: JobCostResult[];
  subtotal: bigint;
  taxRate: Rational;
  taxable: bigint;
  tax: bigint;
  price: bigint;
  totalCost: bigint;
  margin: bigint;
}

/** Last phase: the estimate's explanation, from its lines to its margin. */
export function explainEstimate(f: ExplainFigures): string[] {
  return [
    `lines: ${money(f.linesCost)} cost, ${money(f.linesPrice)} price (${f.countedLines} counted line${f.countedLines === 1 ? '' : 's'})`,
    ...f.jobCosts.map((j) => j.explain),
    `subtotal ${money(f.subtotal)}; tax ${pct(f.taxRate)} × ${money(f.taxable)} taxable = ${money(f.tax)}; price ${money(f.price)}`,
    `cost ${money(f.totalCost)}; margin ${money(f.subtotal)} − ${money(f.totalCost)} = ${money(f.margin)}; margin % = ${money(f.margin)} ÷ price ${money(f.price)}`,
  ];
}
