// The pricing engine's public surface. Pure: no I/O. Rules: docs/pricing.md.
export { priceEstimate } from './engine.ts';
export { spreadCents } from './allocation.ts';
export { PricingError } from './inputs.ts';
export { marginFraction, priceOfCost } from './rounding.ts';
export { compileFormula, formulaVariables, FormulaError, FORMULA_FUNCTIONS, MAX_FORMULA_LENGTH } from './formula.ts';
export type { CompiledFormula, FormulaErrorCode } from './formula.ts';
export { Rational } from './rational.ts';
export { SHOWN_QUANTITY_DECIMALS, shownQuantity, shownUnitPrice } from './shown-unit-price.ts';
export type * from './types.ts';
