// Reading the engine's input: numbers read exactly, methods and rates checked, the estimate-wide
// pricing resolved, and the lines gathered (flat and by area) with their ids and bundles checked.
// Every mistake is a PricingError naming where in the input it is.
import type { CompiledFormula } from './formula.ts';
import { Rational } from './rational.ts';
import type { EstimateInput, LineInput, PricingMethod } from './types.ts';

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

export type Id = number | string;
const ONE = Rational.ONE;

function readNum(v: unknown, path: string, opts: { nullable?: boolean } = {}): Rational | null {
  if (v === null || v === undefined) {
    if (opts.nullable) return null;
    throw new PricingError('missing_value', 'a number is required', path);
  }
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new PricingError('bad_number', 'must be a finite number', path);
  return Rational.from(v);
}
export function readReq(v: unknown, path: string): Rational {
  return readNum(v, path) as Rational;
}
export function readOpt(v: unknown, path: string): Rational | null {
  return readNum(v, path, { nullable: true });
}

export function checkRate(method: PricingMethod, rate: Rational, path: string): void {
  if (method === 'margin' && rate.cmp(ONE) >= 0)
    throw new PricingError('bad_rate', 'a margin must be less than 1 (100%)', path);
  if (method === 'markup' && rate.cmp(ONE.neg()) <= 0)
    throw new PricingError('bad_rate', 'a markup must be more than -1 (-100%)', path);
}
export function checkMethod(m: unknown, path: string): PricingMethod {
  if (m !== 'markup' && m !== 'margin') throw new PricingError('bad_method', 'must be "markup" or "margin"', path);
  return m;
}

export function idKey(id: Id): string {
  return `${typeof id}:${id}`;
}
/** Order-independent tie-breaker: numbers before strings, numbers by value, strings by code unit. */
export function compareIds(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What every phase reads: the estimate's method and rate, and where warnings and compiled formulas go. */
export interface Ctx {
  method: PricingMethod;
  rate: Rational;
  /** Whether lines and cost lines write their explain texts (PriceOptions.explain). */
  explain: boolean;
  formulas: Map<string, CompiledFormula>;
  warnings: string[];
}

/** The estimate-wide pricing inputs, read and checked. */
export interface Pricing {
  ctx: Ctx;
  contingencyRate: Rational | null;
  taxRate: Rational;
  minimum: Rational | null;
}

/** Phase 1: the estimate's method and rate (lines and cost lines follow them), contingency, tax and minimum. */
export function readPricing(input: EstimateInput, explain = true): Pricing {
  if (!input || typeof input !== 'object' || !input.pricing)
    throw new PricingError('missing_value', 'pricing is required', 'pricing');
  const p = input.pricing;
  const method = checkMethod(p.markup_method, 'pricing.markup_method');
  const rate = readReq(p.markup_rate, 'pricing.markup_rate');
  checkRate(method, rate, 'pricing.markup_rate');
  const contingencyRate = readOpt(p.contingency_rate, 'pricing.contingency_rate');
  const taxRate = readOpt(p.tax_rate, 'pricing.tax_rate') ?? Rational.ZERO;
  const minimum = readOpt(p.minimum_charge, 'pricing.minimum_charge');
  return { ctx: { method, rate, explain, formulas: new Map(), warnings: [] }, contingencyRate, taxRate, minimum };
}

export interface RawLine {
  line: LineInput;
  path: string;
}

/**
 * Phase 2: the lines in order (the flat list, then each area's), each with its path. Ids are
 * unique, and a bundle sub-line names a bundle master of this estimate and is not one itself.
 */
export function gatherLines(input: EstimateInput): RawLine[] {
  const raw: RawLine[] = [];
  (input.lines ?? []).forEach((line, i) => {
    raw.push({ line, path: `lines[${i}]` });
  });
  (input.areas ?? []).forEach((area, a) => {
    (area.services ?? []).forEach((line, i) => {
      raw.push({ line, path: `areas[${a}].services[${i}]` });
    });
  });
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
      throw new PricingError(
        'bad_bundle',
        `bundle parent ${parent} is not a bundle master line of this estimate`,
        `${path}.bundle_parent_service_id`,
      );
    }
    if (line.is_bundle_master)
      throw new PricingError(
        'bad_bundle',
        'a bundle master cannot be inside another bundle',
        `${path}.is_bundle_master`,
      );
  }
  return raw;
}
