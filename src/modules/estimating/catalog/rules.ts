// Turning catalog input (from the API or an imported document) into stored rows: defaults, exact
// decimals, formula checks and the rules between fields. Both paths share these functions so a
// document import accepts exactly what the endpoints accept.
import type { Static } from '@sinclair/typebox';
import { compileFormula, FormulaError } from '#engines/pricing/formula.ts';
import { badRequest, invalidField } from '#platform/errors.ts';
import { dollarsToCents } from '#platform/money.ts';
import { nameKey } from '#platform/text.ts';
import type { UpdateCostLineBody, UpdateItemBody, UpdateServiceBody } from './schemas.ts';

/** A wire number kept exactly as decimal text ('0.05'); at most `places` decimals. */
export function decimalText(n: number, field: string, places = 6): string {
  const text = String(n);
  if (!new RegExp(`^\\d+(\\.\\d{1,${places}})?$`).test(text)) {
    throw invalidField(field, `${field} takes at most ${places} decimal places`);
  }
  return text;
}

const nullableDecimal = (n: number | null | undefined, field: string) =>
  n === null || n === undefined ? null : decimalText(n, field);
const cents = (n: number | null | undefined) => (n === null || n === undefined ? null : dollarsToCents(n));
const trimmed = (s: string) => s.trim();

/** Compiles a quantity formula with the pricing engine's parser; a bad one is 400 invalid_formula. */
export function checkFormula(text: string, field = 'quantity_formula'): string {
  try {
    compileFormula(text);
  } catch (e) {
    if (e instanceof FormulaError) {
      throw badRequest(`Invalid quantity formula: ${e.message}`, {
        code: 'invalid_formula',
        field,
        message: e.message,
        formula: text,
      });
    }
    throw e;
  }
  return text;
}

// ---- items ----

/** An item's fields as a body sends them (the endpoints' and an imported document's). */
export type ItemInput = Omit<Static<typeof UpdateItemBody>, 'archived'>;

export interface ItemRow {
  kind: string;
  name: string;
  name_key: string;
  unit: string;
  unit_cost_cents: number;
  attributes: string;
}

export function itemRow(input: ItemInput, base?: ItemRow): ItemRow {
  const name = input.name !== undefined ? trimmed(input.name) : base!.name;
  return {
    kind: input.kind ?? base!.kind,
    name,
    name_key: nameKey(name),
    unit: input.unit !== undefined ? trimmed(input.unit) : base!.unit,
    unit_cost_cents: input.unit_cost !== undefined ? dollarsToCents(input.unit_cost) : base!.unit_cost_cents,
    attributes: input.attributes !== undefined ? JSON.stringify(input.attributes) : (base?.attributes ?? '{}'),
  };
}

// ---- services ----

/** A service's own fields as a body sends them (its cost lines apart). */
export type ServiceInput = Omit<Static<typeof UpdateServiceBody>, 'archived'>;

export interface ServiceRow {
  name: string;
  name_key: string;
  category: string | null;
  unit: string;
  estimating_mode: string;
  unit_cost_cents: number | null;
  unit_price_cents: number | null;
  pricing_method: string | null;
  pricing_rate: string | null;
  cost_code: string | null;
  proposal_text: string | null;
  what_to_expect: string | null;
  internal_scope: string | null;
}

const blankToNull = (s: string | null | undefined) => (s === null || s === undefined || s.trim() === '' ? null : s);

export function serviceRow(input: ServiceInput, base?: ServiceRow): ServiceRow {
  const pick = <K extends keyof ServiceInput>(k: K) => input[k] !== undefined;
  const name = pick('name') ? trimmed(input.name!) : base!.name;
  const row: ServiceRow = {
    name,
    name_key: nameKey(name),
    category: pick('category') ? (blankToNull(input.category)?.trim() ?? null) : (base?.category ?? null),
    unit: pick('unit') ? trimmed(input.unit!) : base!.unit,
    estimating_mode: input.estimating_mode ?? base!.estimating_mode,
    unit_cost_cents: pick('unit_cost') ? cents(input.unit_cost) : (base?.unit_cost_cents ?? null),
    unit_price_cents: pick('unit_price') ? cents(input.unit_price) : (base?.unit_price_cents ?? null),
    pricing_method: pick('pricing_method') ? input.pricing_method! : (base?.pricing_method ?? null),
    pricing_rate: pick('pricing_rate')
      ? nullableDecimal(input.pricing_rate, 'pricing_rate')
      : (base?.pricing_rate ?? null),
    cost_code: pick('cost_code') ? blankToNull(input.cost_code) : (base?.cost_code ?? null),
    proposal_text: pick('proposal_text') ? blankToNull(input.proposal_text) : (base?.proposal_text ?? null),
    what_to_expect: pick('what_to_expect') ? blankToNull(input.what_to_expect) : (base?.what_to_expect ?? null),
    internal_scope: pick('internal_scope') ? blankToNull(input.internal_scope) : (base?.internal_scope ?? null),
  };
  if ((row.pricing_method === null) !== (row.pricing_rate === null)) {
    throw invalidField(
      row.pricing_method === null ? 'pricing_method' : 'pricing_rate',
      'pricing_method and pricing_rate are set together (both null follows the estimate)',
    );
  }
  if (row.pricing_method === 'margin' && row.pricing_rate !== null && Number(row.pricing_rate) >= 1) {
    throw invalidField('pricing_rate', 'A margin is a fraction of price below 1');
  }
  return row;
}

// ---- cost lines ----

/** A cost line's fields as a body sends them; the item it links and its position are resolved by the caller. */
export type CostLineInput = Omit<Static<typeof UpdateCostLineBody>, 'catalog_item_id' | 'position'>;

export interface CostLineRow {
  type: string;
  catalog_item_id: number | null;
  name: string;
  unit: string;
  unit_cost_cents: number;
  quantity_formula: string | null;
  quantity: string | null;
  waste_factor: string;
  billing: string;
  haul_material: string | null;
  dump_material: string | null;
  pricing_method: string | null;
  pricing_rate: string | null;
}

export interface ItemRef {
  id: number;
  name: string;
  unit: string;
  unit_cost_cents: number;
}

/**
 * A cost line's row. Name, unit and unit cost default to the catalog item's when one is linked
 * (on create, or when the item changes); without an item they are required.
 */
export function costLineRow(input: CostLineInput, item: ItemRef | null, base?: CostLineRow): CostLineRow {
  const has = <K extends keyof CostLineInput>(k: K) => input[k] !== undefined;
  const itemChanged = item !== null && item.id !== base?.catalog_item_id;
  const fromItem = <T>(given: T | undefined, ofItem: T | undefined, ofBase: T | undefined, field: string): T => {
    if (given !== undefined) return given;
    if (itemChanged && ofItem !== undefined) return ofItem;
    if (ofBase !== undefined) return ofBase;
    if (ofItem !== undefined) return ofItem;
    throw invalidField(field, `${field} is required for a cost line without a catalog item`);
  };
  const row: CostLineRow = {
    type: input.type ?? base?.type ?? '',
    catalog_item_id: item?.id ?? null,
    name: fromItem(has('name') ? trimmed(input.name!) : undefined, item?.name, base?.name, 'name'),
    unit: fromItem(has('unit') ? trimmed(input.unit!) : undefined, item?.unit, base?.unit, 'unit'),
    unit_cost_cents: fromItem(
      has('unit_cost') ? dollarsToCents(input.unit_cost!) : undefined,
      item?.unit_cost_cents,
      base?.unit_cost_cents,
      'unit_cost',
    ),
    quantity_formula: has('quantity_formula')
      ? input.quantity_formula === null
        ? null
        : checkFormula(input.quantity_formula!.trim())
      : (base?.quantity_formula ?? null),
    quantity: has('quantity') ? nullableDecimal(input.quantity, 'quantity') : (base?.quantity ?? null),
    waste_factor: has('waste_factor') ? decimalText(input.waste_factor!, 'waste_factor') : (base?.waste_factor ?? '0'),
    billing: input.billing ?? base?.billing ?? 'billed',
    haul_material: has('haul_material') ? input.haul_material! : (base?.haul_material ?? null),
    dump_material: has('dump_material') ? input.dump_material! : (base?.dump_material ?? null),
    pricing_method: has('pricing_method') ? input.pricing_method! : (base?.pricing_method ?? null),
    pricing_rate: has('pricing_rate')
      ? nullableDecimal(input.pricing_rate, 'pricing_rate')
      : (base?.pricing_rate ?? null),
  };
  // A formula sent replaces a fixed quantity and the other way round, unless both are sent.
  if (has('quantity_formula') && row.quantity_formula !== null && !has('quantity')) row.quantity = null;
  if (has('quantity') && row.quantity !== null && !has('quantity_formula')) row.quantity_formula = null;
  if (row.quantity_formula !== null && row.quantity !== null) {
    throw invalidField('quantity', 'Give quantity_formula or quantity, not both');
  }
  if (row.haul_material !== null && row.type !== 'trucking') {
    throw invalidField('haul_material', 'haul_material is only for trucking cost lines');
  }
  if (row.dump_material !== null && row.type !== 'misc') {
    throw invalidField('dump_material', 'dump_material is only for misc (dump fee) cost lines');
  }
  if ((row.pricing_method === null) !== (row.pricing_rate === null)) {
    throw invalidField(
      row.pricing_method === null ? 'pricing_method' : 'pricing_rate',
      'pricing_method and pricing_rate are set together (both null follows the line)',
    );
  }
  if (row.pricing_method === 'margin' && Number(row.pricing_rate) >= 1) {
    throw invalidField('pricing_rate', 'A margin is a fraction of price below 1');
  }
  return row;
}

/** Template quantities are kept exactly too. */
export function templateQuantity(q: number | null | undefined): string | null {
  return nullableDecimal(q, 'quantity');
}
