// Estimate line and cost line input (POST/PATCH …/line-items) into stored columns: exact
// decimals, cents, and the rules between fields. Rules that need the rest of the estimate
// (bundles, areas) live in lines.ts.
import { invalidField } from '#platform/errors.ts';
import { dollarsToCents } from '#platform/money.ts';
import type { Settings } from '#platform/workspace.ts';
import { checkFormula, decimalText } from '#estimating/catalog/rules.ts';
import type { StoredHaul } from './calculation.ts';
import type { EstimateCostLine, EstimateLine } from './repo.ts';
import type { CostLineInput, LineFieldsInput } from './schemas.ts';
import { checkedKey } from './takeoff-quantities.ts';

const cents = (n: number | null) => (n === null ? null : dollarsToCents(n));
const nullableDecimal = (n: number | null, field: string) => (n === null ? null : decimalText(n, field));

export type LineColumns = Partial<Omit<EstimateLine, 'id' | 'firm_id' | 'estimate_id' | 'created_at'>>;

const PLAIN_TEXT = [
  'proposal_group',
  'proposal_text',
  'what_to_expect',
  'internal_scope',
  'notes',
  'cost_code',
] as const;
const FLAGS = ['is_optional', 'hide_on_proposal', 'taxable', 'is_bundle_master', 'excluded', 'active'] as const;

/** Sets a method and rate pair the way catalog lines do: both, or both null (follow the parent). */
function pricingPair(
  input: { pricing_method?: string | null; pricing_rate?: number | null },
  base: { pricing_method: string | null; pricing_rate: string | null } | undefined,
  out: { pricing_method?: string | null; pricing_rate?: string | null },
): void {
  if (input.pricing_method === undefined && input.pricing_rate === undefined) return;
  const method = input.pricing_method !== undefined ? input.pricing_method : (base?.pricing_method ?? null);
  const rate =
    input.pricing_rate !== undefined
      ? nullableDecimal(input.pricing_rate, 'pricing_rate')
      : (base?.pricing_rate ?? null);
  if ((method === null) !== (rate === null)) {
    throw invalidField(
      method === null ? 'pricing_method' : 'pricing_rate',
      'pricing_method and pricing_rate are set together (both null follows the parent)',
    );
  }
  if (method === 'margin' && Number(rate) >= 1)
    throw invalidField('pricing_rate', 'A margin is a fraction of price below 1');
  out.pricing_method = method;
  out.pricing_rate = rate;
}

/** Formula inputs: names a formula can use, with finite numbers. */
function inputsText(inputs: Record<string, number> | null): string | null {
  if (inputs === null) return null;
  for (const [name, value] of Object.entries(inputs)) {
    if (name === 'quantity') throw invalidField('inputs', '`quantity` is the line quantity and cannot be an input');
    decimalText(Math.abs(value), `inputs.${name}`);
  }
  return Object.keys(inputs).length === 0 ? null : JSON.stringify(inputs);
}

/** Column changes of a line from the body; `base` is the stored line on PATCH. */
export function lineColumns(input: LineFieldsInput, mode: string, base?: EstimateLine): LineColumns {
  const out: LineColumns = {};
  if (input.name !== undefined) out.name = input.name.trim();
  if (input.unit !== undefined) out.unit = input.unit.trim();
  if (input.quantity !== undefined) {
    out.quantity = decimalText(input.quantity, 'quantity');
    out.quantity_source = 'manual';
  }
  if (input.measurement_quantity !== undefined)
    out.measurement_quantity = input.measurement_quantity === null ? null : checkedKey(input.measurement_quantity);
  if (input.inputs !== undefined) out.inputs = inputsText(input.inputs);
  if (input.unit_cost !== undefined || input.unit_price !== undefined) {
    if (mode !== 'unit_costing') {
      throw invalidField(
        input.unit_cost !== undefined ? 'unit_cost' : 'unit_price',
        "unit_cost and unit_price are typed on unit-costing lines; a detailed line's come from its cost lines",
      );
    }
    if (input.unit_cost !== undefined) {
      out.unit_cost_cents = cents(input.unit_cost);
      out.unit_cost_typed = 1;
    }
    if (input.unit_price !== undefined) {
      out.unit_price_cents = cents(input.unit_price);
      out.unit_price_typed = 1;
    }
  }
  for (const f of FLAGS) if (input[f] !== undefined) out[f] = input[f] ? 1 : 0;
  for (const f of PLAIN_TEXT) if (input[f] !== undefined) out[f] = input[f] === null ? null : input[f]!.trim() || null;
  if (input.price_override !== undefined) out.price_override_cents = cents(input.price_override);
  if (input.parent_service_id !== undefined) out.parent_service_id = input.parent_service_id;
  if (input.bundle_parent_service_id !== undefined) out.bundle_parent_service_id = input.bundle_parent_service_id;
  pricingPair(input, base, out);
  return out;
}

// ---- cost lines ----

export type CostLineColumns = Partial<
  Omit<EstimateCostLine, 'id' | 'firm_id' | 'estimate_id' | 'line_item_id' | 'created_at'>
>;

export interface ItemDefaults {
  id: number;
  name: string;
  unit: string;
  unit_cost_cents: number;
}

/** The haul after a change; null when the line is no haul. */
function nextHaul(input: CostLineInput, base: StoredHaul | null, settings: Settings): StoredHaul | null {
  const touched = input.haul !== undefined || input.automatic_driving_time !== undefined || input.route !== undefined;
  if (!touched) return base;
  if (input.haul === null) return null;
  let haul: StoredHaul;
  if (base) {
    haul = { ...base };
  } else {
    if (!input.haul?.material)
      throw invalidField('haul.material', 'A haul needs haul.material (asphalt, millings or spoil)');
    haul = {
      material: input.haul.material,
      truck_capacity_tons: settings.haul_truck_capacity_tons,
      drive_hr: settings.haul_drive_hr,
      load_unload_hr: settings.haul_load_unload_hr,
      automatic_driving_time: false,
      route: null,
      drive_hr_source: 'default',
    };
  }
  const h = input.haul ?? {};
  if (h.material !== undefined) haul.material = h.material;
  if (h.truck_capacity_tons !== undefined)
    haul.truck_capacity_tons = Number(decimalText(h.truck_capacity_tons, 'haul.truck_capacity_tons'));
  if (h.load_unload_hr !== undefined)
    haul.load_unload_hr =
      h.load_unload_hr === null ? null : Number(decimalText(h.load_unload_hr, 'haul.load_unload_hr'));
  if (h.drive_hr !== undefined) {
    haul.drive_hr = h.drive_hr === null ? null : Number(decimalText(h.drive_hr, 'haul.drive_hr'));
    haul.drive_hr_source = 'typed';
    if (input.automatic_driving_time === undefined) haul.automatic_driving_time = false;
  }
  if (input.route !== undefined) {
    haul.route =
      input.route === null
        ? null
        : {
            kind: input.route.kind,
            legs_hr: input.route.legs_hr ?? null,
            plant_address: input.route.plant_address ?? null,
            job_address: input.route.job_address ?? null,
            dump_address: input.route.dump_address ?? null,
          };
  }
  if (input.automatic_driving_time !== undefined) haul.automatic_driving_time = input.automatic_driving_time;
  if (haul.automatic_driving_time && (input.automatic_driving_time !== undefined || input.route !== undefined)) {
    // Looked up again before pricing (drive-times.ts).
    haul.drive_hr = null;
    haul.drive_hr_source = 'automatic';
    haul.route_km = null;
    if (haul.route?.kind === 'three_leg') haul.route = { ...haul.route, legs_hr: null };
  }
  if (!haul.automatic_driving_time && haul.drive_hr_source === 'automatic') {
    haul.drive_hr = settings.haul_drive_hr;
    haul.drive_hr_source = 'default';
    haul.route_km = null;
  }
  // Typed legs are needed unless they are looked up; a dump trip looked up needs the dump's address.
  const route = haul.route;
  if (
    route?.kind === 'three_leg' &&
    !haul.automatic_driving_time &&
    (!Array.isArray(route.legs_hr) || route.legs_hr.length !== 3)
  ) {
    throw invalidField('route.legs_hr', 'A three_leg route needs legs_hr: hours of plant→job, job→dump and dump→plant');
  }
  if (route && route.kind !== 'plant_round_trip' && haul.automatic_driving_time && !route.dump_address) {
    throw invalidField('route.dump_address', `A ${route.kind} route with automatic driving time needs dump_address`);
  }
  return haul;
}

/**
 * Column values of a cost line from the body. On create (`base` undefined) name, unit and
 * unit_cost default to the catalog item's; without an item they are required.
 */
export function costLineColumns(
  input: CostLineInput,
  base: EstimateCostLine | undefined,
  item: ItemDefaults | null,
  settings: Settings,
  path: string,
): CostLineColumns {
  const at = (f: string) => `${path}.${f}`;
  const out: CostLineColumns = {};
  const type = input.type ?? base?.type;
  if (!type) throw invalidField(at('type'), 'A new cost line needs a type');
  if (input.type !== undefined) out.type = input.type;
  const itemChanged = item !== null && item.id !== base?.catalog_item_id;
  if (input.catalog_item_id !== undefined) out.catalog_item_id = input.catalog_item_id;
  const pick = <T>(given: T | undefined, ofItem: T | undefined, field: string): T | undefined => {
    if (given !== undefined) return given;
    if (itemChanged && ofItem !== undefined) return ofItem;
    if (base) return undefined;
    if (ofItem !== undefined) return ofItem;
    throw invalidField(at(field), `${field} is required for a cost line without a catalog item`);
  };
  const name = pick(input.name?.trim(), item?.name, 'name');
  if (name !== undefined) out.name = name;
  const unit = pick(input.unit?.trim(), item?.unit, 'unit');
  if (unit !== undefined) out.unit = unit;
  const unitCost = pick(
    input.unit_cost === undefined ? undefined : dollarsToCents(input.unit_cost),
    item?.unit_cost_cents,
    'unit_cost',
  );
  if (unitCost !== undefined) out.unit_cost_cents = unitCost;
  out.unit_cost_typed = input.unit_cost !== undefined ? 1 : itemChanged ? 0 : (base?.unit_cost_typed ?? 0);
  if (input.quantity_formula !== undefined) {
    out.quantity_formula =
      input.quantity_formula === null || input.quantity_formula.trim() === ''
        ? null
        : checkFormula(input.quantity_formula.trim(), at('quantity_formula'));
  }
  if (input.manual_quantity !== undefined)
    out.manual_quantity = nullableDecimal(input.manual_quantity, at('manual_quantity'));
  if (input.waste_factor !== undefined) out.waste_factor = decimalText(input.waste_factor, at('waste_factor'));
  else if (!base) out.waste_factor = '0';
  if (input.billing !== undefined) out.billing = input.billing;
  else if (!base) out.billing = 'billed';
  if (input.is_alternate !== undefined) out.is_alternate = input.is_alternate ? 1 : 0;
  else if (!base) out.is_alternate = 0;
  if (input.suppressed !== undefined) out.suppressed = input.suppressed ? 1 : 0;
  else if (!base) out.suppressed = 0;
  pricingPair(input, base, out);

  const baseHaul = base?.haul ? (JSON.parse(base.haul) as StoredHaul) : null;
  const haul = type === 'trucking' ? nextHaul(input, baseHaul, settings) : null;
  if (type !== 'trucking' && (input.haul || input.route || input.automatic_driving_time)) {
    throw invalidField(at('haul'), 'Hauls, routes and automatic driving time are for trucking cost lines');
  }
  if (haul !== baseHaul) out.haul = haul === null ? null : JSON.stringify(haul);

  const dumpMaterial = input.dump_material !== undefined ? input.dump_material : (base?.dump_material ?? null);
  if (dumpMaterial !== null && type !== 'misc')
    throw invalidField(at('dump_material'), 'dump_material is only for misc (dump fee) cost lines');
  if (input.dump_material !== undefined) out.dump_material = input.dump_material;
  if (input.dump_site !== undefined) {
    out.dump_site =
      input.dump_site === null
        ? null
        : JSON.stringify({ vendor_id: input.dump_site.vendor_id ?? null, name: input.dump_site.name?.trim() || null });
  }
  if (!base && out.dump_site === undefined) out.dump_site = null;
  return out;
}
