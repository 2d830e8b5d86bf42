// Wire shapes of the catalog: services with their default cost lines, catalog items, price lists
// and estimate templates (request paths, list queries and bodies, and answers). Money is dollars
// with two decimals; fractions are numbers.
import { Type } from '@sinclair/typebox';
import { Body, IdParam, Nullable, NullableEnum, NullableText, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';

export const ITEM_KINDS = ['crew', 'equipment', 'material', 'truck', 'subcontractor', 'dump_site', 'other'] as const;
export const COST_LINE_TYPES = [
  'crew',
  'equipment',
  'material',
  'trucking',
  'subcontractor',
  'misc',
  'overhead',
  'adjustment',
] as const;
export const ESTIMATING_MODES = ['detailed', 'unit_costing'] as const;
export const PRICING_METHODS = ['markup', 'margin'] as const;
export const BILLING = ['billed', 'internal_only'] as const;
export const HAUL_MATERIALS = ['asphalt', 'millings', 'spoil'] as const;
export const DUMP_MATERIALS = ['millings', 'spoil'] as const;

const Money = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'dollars' });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Unit = Type.String({
  minLength: 1,
  maxLength: 20,
  pattern: '\\S',
  description: 'SY, SF, LF, TON, GAL, EA, HR, DAY, CY, ACRE, VISIT…',
});
/** A fraction kept exactly (at most 6 decimals). */
export const Fraction = (max: number, description: string) => Type.Number({ minimum: 0, maximum: max, description });
const Formula = Type.String({ minLength: 1, maxLength: 500 });
const Id = RecordId();

// ---- paths and list queries ----

export const IdParams = IdParam();
export const CostLineParams = Type.Object({ id: Id, line_id: Id });

const listQueryFields = {
  q: Type.Optional(Type.String({ maxLength: 200, description: 'case-insensitive contains on the name' })),
  include_archived: Type.Optional(Type.Boolean()),
  ...PageQuery(200),
};
/** Price lists and templates: name search, archived ones on request, a page. */
export const CatalogListQuery = Type.Object(listQueryFields);
export const ServiceListQuery = Type.Object({
  category: Type.Optional(Type.String({ maxLength: 100 })),
  estimating_mode: Type.Optional(OneOf(ESTIMATING_MODES)),
  ...listQueryFields,
});
export const ItemListQuery = Type.Object({ kind: Type.Optional(OneOf(ITEM_KINDS)), ...listQueryFields });

// ---- items ----

export const itemFields = {
  kind: OneOf(ITEM_KINDS),
  name: Name,
  unit: Unit,
  unit_cost: Money,
  attributes: Type.Record(
    Type.String({ maxLength: 50 }),
    Type.Union([
      Type.String({ maxLength: 500 }),
      Type.Number(),
      Type.Boolean(),
      Type.Null(),
      Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 }),
    ]),
    {
      description:
        'kind-specific attributes, e.g. capacity_tons of a truck, crew_size of a crew, certifications of a subcontractor or vendor (["DBE", "WBE"]: MBE, WBE, DBE, SBE, VBE; the minority report reads them)',
    },
  ),
};
export const CreateItemBody = Body(itemFields, { required: ['kind', 'name', 'unit', 'unit_cost'] });
export const UpdateItemBody = Body({ ...itemFields, archived: Type.Boolean() });

export const ItemSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  name: Type.String(),
  unit: Type.String(),
  unit_cost: Type.Number(),
  attributes: Type.Record(Type.String(), Type.Unknown()),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

// ---- cost lines ----

export const costLineFields = {
  type: OneOf(COST_LINE_TYPES),
  catalog_item_id: Nullable(Id),
  name: Name,
  unit: Unit,
  unit_cost: Money,
  quantity_formula: Nullable(Formula),
  quantity: Nullable(Type.Number({ minimum: 0, maximum: 1_000_000_000 })),
  waste_factor: Fraction(10, 'fraction added to the quantity, 0.05 = 5%'),
  billing: OneOf(BILLING),
  haul_material: NullableEnum(HAUL_MATERIALS),
  dump_material: NullableEnum(DUMP_MATERIALS),
  pricing_method: NullableEnum(PRICING_METHODS),
  pricing_rate: Nullable(Fraction(100, 'markup or margin as a fraction; null follows the line')),
};
export const CreateCostLineBody = Body(
  { ...costLineFields, position: Type.Integer({ minimum: 1, maximum: 1000 }) },
  { required: ['type'] },
);
export const UpdateCostLineBody = Body({ ...costLineFields, position: Type.Integer({ minimum: 1, maximum: 1000 }) });

export const CostLineSchema = Type.Object({
  id: Type.Integer(),
  service_id: Type.Integer(),
  position: Type.Integer(),
  type: Type.String(),
  catalog_item_id: Nullable(Type.Integer()),
  name: Type.String(),
  unit: Type.String(),
  unit_cost: Type.Number(),
  quantity_formula: Nullable(Type.String()),
  quantity: Nullable(Type.Number()),
  waste_factor: Type.Number(),
  billing: Type.String(),
  haul_material: Nullable(Type.String()),
  dump_material: Nullable(Type.String()),
  pricing_method: Nullable(Type.String()),
  pricing_rate: Nullable(Type.Number()),
});

// ---- services ----

export const serviceFields = {
  name: Name,
  category: NullableText(100),
  unit: Unit,
  estimating_mode: OneOf(ESTIMATING_MODES),
  unit_cost: Nullable(Money),
  unit_price: Nullable(Money),
  pricing_method: NullableEnum(PRICING_METHODS),
  pricing_rate: Nullable(Fraction(100, 'markup or margin as a fraction; null follows the estimate')),
  cost_code: NullableText(50),
  proposal_text: NullableText(20_000),
  what_to_expect: NullableText(20_000),
  internal_scope: NullableText(20_000),
};
export const CreateServiceBody = Body(
  {
    ...serviceFields,
    cost_lines: Type.Array(Body(costLineFields, { required: ['type'] }), { maxItems: 100 }),
  },
  { required: ['name', 'unit', 'estimating_mode'] },
);
export const UpdateServiceBody = Body({ ...serviceFields, archived: Type.Boolean() });

const serviceProps = {
  id: Type.Integer(),
  name: Type.String(),
  service_type: Type.String(),
  category: Nullable(Type.String()),
  unit: Type.String(),
  estimating_mode: Type.String(),
  unit_cost: Nullable(Type.Number()),
  unit_price: Nullable(Type.Number()),
  pricing_method: Nullable(Type.String()),
  pricing_rate: Nullable(Type.Number()),
  cost_code: Nullable(Type.String()),
  proposal_text: Nullable(Type.String()),
  what_to_expect: Nullable(Type.String()),
  internal_scope: Nullable(Type.String()),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const ServiceSummarySchema = Type.Object(serviceProps);
export const ServiceSchema = Type.Object({ ...serviceProps, cost_lines: Type.Array(CostLineSchema) });

// ---- price lists ----

const ServiceEntryInput = Type.Object({ service_id: Id, unit_price: Money }, { additionalProperties: false });
const ItemEntryInput = Type.Object({ catalog_item_id: Id, unit_cost: Money }, { additionalProperties: false });
export const priceListFields = {
  name: Name,
  description: NullableText(2000),
  is_default: Type.Boolean({ description: 'the workspace default; setting it clears the flag on the others' }),
  services: Type.Array(ServiceEntryInput, { maxItems: 2000, description: "replaces the list's service prices" }),
  items: Type.Array(ItemEntryInput, { maxItems: 2000, description: "replaces the list's item costs" }),
};
export const CreatePriceListBody = Body(priceListFields, { required: ['name'] });
export const UpdatePriceListBody = Body({ ...priceListFields, archived: Type.Boolean() });

const plProps = {
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_default: Type.Boolean(),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const PriceListSummarySchema = Type.Object(plProps);
export const PriceListSchema = Type.Object({
  ...plProps,
  services: Type.Array(
    Type.Object({ service_id: Type.Integer(), name: Type.String(), unit: Type.String(), unit_price: Type.Number() }),
  ),
  items: Type.Array(
    Type.Object({
      catalog_item_id: Type.Integer(),
      name: Type.String(),
      unit: Type.String(),
      unit_cost: Type.Number(),
    }),
  ),
});

// ---- estimate templates ----

const TemplateArea = Type.Object(
  {
    name: Name,
    services: Type.Array(
      Type.Object(
        {
          service_id: Id,
          quantity: Type.Optional(
            Nullable(
              Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'null or absent: typed on the estimate' }),
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 200 },
    ),
  },
  { additionalProperties: false },
);
export const templateFields = {
  name: Name,
  description: NullableText(2000),
  areas: Type.Array(TemplateArea, { minItems: 1, maxItems: 50 }),
};
export const CreateTemplateBody = Body(templateFields, { required: ['name', 'areas'] });
export const UpdateTemplateBody = Body({ ...templateFields, archived: Type.Boolean() });

const tProps = {
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  archived_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const TemplateSchema = Type.Object({
  ...tProps,
  areas: Type.Array(
    Type.Object({
      name: Type.String(),
      services: Type.Array(
        Type.Object({
          service_id: Type.Integer(),
          name: Type.String(),
          unit: Type.String(),
          quantity: Nullable(Type.Number()),
        }),
      ),
    }),
  ),
});
