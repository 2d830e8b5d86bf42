// Wire shapes of estimates (document 3, Estimate, Estimate line item, Cost line) and the bodies of
// the estimate writes the spec leaves "not shown" (docs/api-decisions.md, Estimates).
import { Type, type Static } from '@sinclair/typebox';
import {
  Body,
  Nullable,
  NullableEnum,
  NullableInstant,
  NullableInteger,
  NullableNumber,
  NullableObject,
  NullableString,
  NullableText,
  One,
  OneOf,
  RecordId,
} from '#platform/schemas.ts';
import {
  BILLING,
  COST_LINE_TYPES,
  DUMP_MATERIALS,
  ESTIMATING_MODES,
  Fraction,
  HAUL_MATERIALS,
  PRICING_METHODS,
} from '#estimating/catalog/schemas.ts';

export const ESTIMATE_STATUSES = ['draft', 'estimate', 'won', 'lost', 'change_order'] as const;
export const ROUTE_KINDS = ['plant_round_trip', 'three_leg', 'dump_round_trip'] as const;

// ---- reads ----

const Totals = NullableObject(
  Type.Object({
    price: Type.Number({ description: 'customer total including tax' }),
    subtotal: Type.Number({ description: 'price minus tax' }),
    tax: Type.Number(),
    cost: Type.Number({ description: 'includes job-level costs' }),
    margin: Type.Number({ description: 'dollars' }),
    margin_pct: Nullable(
      Type.Number({ description: 'margin ÷ price: a fraction of the customer total including tax' }),
    ),
    margin_pct_of_subtotal: Nullable(
      Type.Number({ description: 'margin ÷ subtotal: the pre-tax figure, which the profit floor is compared with' }),
    ),
    optional_total: Type.Number({ description: 'not in price' }),
  }),
);

const summaryFields = {
  id: Type.Integer(),
  doc_number: NullableInteger(),
  name: Type.String(),
  status: OneOf(ESTIMATE_STATUSES),
  job_id: NullableInteger(),
  parent_estimate_id: NullableInteger(),
  is_change_order: Type.Boolean(),
  change_order_mode: NullableString(),
  current_version: NullableInteger(),
  version: NullableInteger(),
  priced: Type.Boolean(),
  totals: Totals,
  awarded_at: NullableInstant(),
  award_snapshot_id: NullableInteger(),
  lost_at: NullableInstant(),
  lost_reason: NullableString(),
  template_id: NullableInteger(),
  archived_at: NullableInstant(),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const EstimateSummarySchema = Type.Object(summaryFields);

const lineFields = {
  id: Type.Integer(),
  name: Type.String(),
  service_type: NullableString(),
  category: NullableString(),
  assembly_id: NullableInteger(),
  estimating_mode: OneOf(ESTIMATING_MODES),
  quantity: Type.Number(),
  unit: Type.String(),
  unit_cost: NullableNumber(),
  unit_price: NullableNumber(),
  price: NullableNumber(),
  cost: NullableNumber(),
  margin: NullableNumber(),
  margin_pct: NullableNumber(),
  allocated_price: NullableNumber(),
  is_optional: Type.Boolean(),
  hide_on_proposal: Type.Boolean(),
  taxable: Type.Boolean(),
  parent_service_id: NullableInteger(),
  cost_code: NullableString(),
  is_bundle_master: Type.Boolean(),
  bundle_child_service_ids: Type.Array(Type.Integer()),
  bundle_parent_service_id: NullableInteger(),
  area_id: Type.Integer(),
  position: Type.Integer(),
  quantity_source: Type.String(),
  measurement_quantity: NullableString(),
  inputs: NullableObject(Type.Record(Type.String(), Type.Number())),
  pricing_method: NullableString(),
  pricing_rate: NullableNumber(),
  price_override: NullableNumber(),
  proposal_group: NullableString(),
  proposal_text: NullableString(),
  what_to_expect: NullableString(),
  internal_scope: NullableString(),
  notes: NullableString(),
  active: Type.Boolean(),
  excluded: Type.Boolean(),
};
export const LineSchema = Type.Object(lineFields);

const RouteSchema = NullableObject(
  Type.Object({
    kind: OneOf(ROUTE_KINDS),
    legs_hr: NullableObject(Type.Array(Type.Number())),
    plant_address: NullableString(),
    job_address: NullableString(),
    dump_address: NullableString(),
  }),
);

export const CostLineSchema = Type.Object({
  id: Type.Integer(),
  line_item_id: Type.Integer(),
  position: Type.Integer(),
  type: OneOf(COST_LINE_TYPES),
  catalog_item_id: NullableInteger(),
  name: Type.String(),
  quantity: NullableNumber(),
  unit: NullableString(),
  unit_cost: Type.Number(),
  cost: NullableNumber(),
  price: NullableNumber(),
  quantity_formula: NullableString(),
  manual_quantity: NullableNumber(),
  waste_factor: Type.Number(),
  pricing_method: NullableString(),
  pricing_rate: NullableNumber(),
  billing: OneOf(BILLING),
  is_alternate: Type.Boolean(),
  suppressed: Type.Boolean(),
  automatic_driving_time: Nullable(Type.Boolean()),
  route: RouteSchema,
  haul: NullableObject(
    Type.Object({
      material: OneOf(HAUL_MATERIALS),
      truck_capacity_tons: Type.Number(),
      drive_hr: NullableNumber(),
      drive_hr_source: Type.String(),
      route_km: NullableNumber(),
      load_unload_hr: NullableNumber(),
      tons: NullableNumber(),
      loads: NullableInteger(),
      cycle_hr: NullableNumber(),
      truck_hours: NullableNumber(),
    }),
  ),
  dump_material: NullableString(),
  dump_site: NullableObject(Type.Object({ vendor_id: NullableInteger(), name: NullableString() })),
  explain: NullableString(),
});

export const LineWithCostLinesSchema = Type.Object({
  ...lineFields,
  explain: NullableString(),
  cost_lines: Type.Array(CostLineSchema),
});

const PricingSchema = NullableObject(
  Type.Object({
    markup_method: OneOf(PRICING_METHODS),
    markup_rate: Type.Number(),
    contingency_rate: NullableNumber(),
    tax_rate: NullableNumber(),
    minimum_charge: NullableNumber(),
    price_list_id: NullableInteger(),
  }),
);

const RoundingSchema = Type.Object(
  { increment: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }), mode: Type.Optional(OneOf(['up', 'nearest'])) },
  { additionalProperties: false },
);
const JobCostsFields = {
  mobilization: Nullable(Type.Number({ minimum: 0, maximum: 100_000_000, description: 'dollars of cost, marked up' })),
  overhead_amount: Nullable(
    Type.Number({ minimum: 0, maximum: 100_000_000, description: 'dollars of cost, marked up' }),
  ),
  overhead_rate: Nullable(Fraction(1, 'fraction of line cost added as overhead cost')),
  bond_rate: Nullable(Fraction(1, 'fraction of the subtotal, at cost')),
  rounding: NullableObject(RoundingSchema),
};
const JobCostsSchema = NullableObject(Type.Partial(Type.Object(JobCostsFields)));
/** In a PATCH every job cost is optional (absent = none), and nothing else is accepted. */
const JobCostsBody = NullableObject(Type.Partial(Type.Object(JobCostsFields), { additionalProperties: false }));

export const EstimateSchema = Type.Object({
  ...summaryFields,
  issued_at: Type.Optional(Type.String()),
  issued_by_user_id: Type.Optional(Nullable(Type.Integer())),
  areas: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      position: Type.Integer(),
      quantity_source: Type.String(),
      takeoff_id: NullableInteger(),
      services: Type.Array(LineSchema),
    }),
  ),
  pricing: PricingSchema,
  job_costs: JobCostsSchema,
  job_level_costs: Type.Array(
    Type.Object({ kind: Type.String(), cost: Type.Number(), price: Type.Number(), explain: Type.String() }),
  ),
  warnings: Type.Array(Type.String()),
});

export const VersionSchema = Type.Object({
  version: Type.Integer(),
  issued_at: Type.String(),
  issued_by_user_id: NullableInteger(),
  totals: Totals,
  profit_floor_overridden: Type.Boolean(),
  is_current: Type.Boolean(),
});

export const RevisionSchema = Type.Object({
  revision: Type.Integer(),
  action: Type.String(),
  summary: Type.String(),
  changes: Type.Record(Type.String(), Type.Unknown()),
  total_before: NullableNumber(),
  total_after: NullableNumber(),
  user: NullableObject(Type.Object({ id: Type.Integer(), name: Type.String() })),
  created_at: Type.String(),
});

// ---- writes ----

const Money = (description = 'dollars') => Type.Number({ minimum: 0, maximum: 100_000_000, description });
const Quantity = Type.Number({
  minimum: 0,
  maximum: 1_000_000_000,
  description: 'in the line unit; at most 6 decimals',
});
const Rate = Nullable(
  Type.Number({ minimum: -0.99, maximum: 100, description: 'fraction: markup on cost or margin of price' }),
);

export const CreateEstimateBody = Body(
  {
    job_id: RecordId(),
    template_id: RecordId(),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  },
  { required: ['job_id'] },
);
export type CreateEstimateInput = Static<typeof CreateEstimateBody>;

const lineBodyFields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  unit: Type.String({ minLength: 1, maxLength: 20, pattern: '\\S' }),
  quantity: Quantity,
  inputs: NullableObject(
    Type.Record(
      Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,39}$' }),
      Type.Number({ minimum: -1e9, maximum: 1e9 }),
      { maxProperties: 50 },
    ),
  ),
  unit_cost: Nullable(Money('dollars per unit of cost (unit-costing lines)')),
  unit_price: Nullable(Money('dollars per unit charged (unit-costing lines); null marks up the cost')),
  is_optional: Type.Boolean(),
  hide_on_proposal: Type.Boolean(),
  taxable: Type.Boolean(),
  pricing_method: NullableEnum(PRICING_METHODS),
  pricing_rate: Rate,
  price_override: Nullable(Money('pinned customer price')),
  proposal_group: NullableText(100),
  proposal_text: NullableText(20_000),
  what_to_expect: NullableText(20_000),
  internal_scope: NullableText(20_000),
  notes: NullableText(20_000),
  cost_code: NullableText(50),
  parent_service_id: Nullable(RecordId()),
  is_bundle_master: Type.Boolean(),
  bundle_parent_service_id: Nullable(RecordId()),
  excluded: Type.Boolean({ description: 'excluded from the bid: kept, not priced, not shown' }),
  active: Type.Boolean(),
  measurement_quantity: Nullable(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description:
        'in an area linked to a measurement: the quantity the line takes from it (area, surface:main, line:curb, count:stalls, item:<name>); null stops taking it',
    }),
  ),
};

const RouteBody = NullableObject(
  Type.Object(
    {
      kind: OneOf(ROUTE_KINDS),
      legs_hr: Type.Optional(
        NullableObject(Type.Array(Type.Number({ minimum: 0, maximum: 24 }), { minItems: 3, maxItems: 3 })),
      ),
      plant_address: Type.Optional(NullableText(500)),
      job_address: Type.Optional(NullableText(500)),
      dump_address: Type.Optional(NullableText(500)),
    },
    { additionalProperties: false },
  ),
);

const CostLineBody = Type.Object(
  {
    id: Type.Optional(RecordId({ description: 'the cost line to change or remove; absent adds one' })),
    deleted: Type.Optional(Type.Boolean()),
    position: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    type: Type.Optional(OneOf(COST_LINE_TYPES)),
    catalog_item_id: Type.Optional(Nullable(RecordId())),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    unit: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: '\\S' })),
    unit_cost: Type.Optional(
      Type.Number({
        minimum: -100_000_000,
        maximum: 100_000_000,
        description: "this estimate's; negative for adjustments",
      }),
    ),
    quantity_formula: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    manual_quantity: Type.Optional(Nullable(Quantity)),
    waste_factor: Type.Optional(Fraction(10, 'fraction: 0.05 = 5%')),
    pricing_method: Type.Optional(NullableEnum(PRICING_METHODS)),
    pricing_rate: Type.Optional(Rate),
    billing: Type.Optional(OneOf(BILLING)),
    is_alternate: Type.Optional(Type.Boolean()),
    suppressed: Type.Optional(Type.Boolean()),
    haul: Type.Optional(
      NullableObject(
        Type.Object(
          {
            material: Type.Optional(OneOf(HAUL_MATERIALS)),
            truck_capacity_tons: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
            drive_hr: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 24, description: 'one-way hours' }))),
            load_unload_hr: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 24 }))),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    automatic_driving_time: Type.Optional(Type.Boolean()),
    route: Type.Optional(RouteBody),
    dump_material: Type.Optional(NullableEnum(DUMP_MATERIALS)),
    dump_site: Type.Optional(
      NullableObject(
        Type.Object(
          { vendor_id: Type.Optional(Nullable(RecordId())), name: Type.Optional(NullableText(200)) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** A cost line in a line's `cost_lines`: `{id, …changes}`, `{id, deleted: true}` or a new one. */
export type CostLineInput = Static<typeof CostLineBody>;

const CostLines = Type.Array(CostLineBody, { maxItems: 100 });

export const AddLineBody = Body(
  {
    service_id: RecordId({ description: "catalog service (the line's assembly_id)" }),
    assembly_id: RecordId({ description: 'same as service_id' }),
    area_id: RecordId(),
    area_name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    estimating_mode: OneOf(ESTIMATING_MODES),
    cost_lines: CostLines,
    ...lineBodyFields,
  },
  { required: [] },
);
export type AddLineInput = Static<typeof AddLineBody>;

export const ChangeLineBody = Body({
  area_id: RecordId(),
  position: Type.Integer({ minimum: 1, maximum: 100_000 }),
  cost_lines: CostLines,
  ...lineBodyFields,
});
export type ChangeLineInput = Static<typeof ChangeLineBody>;
/** The line's own fields, as an add or a change sends them. */
export type LineFieldsInput = Omit<ChangeLineInput, 'area_id' | 'position' | 'cost_lines'>;

export const UpdateEstimateBody = Body({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  pricing: Type.Null({ description: 'null returns to the workspace default pricing' }),
  markup_method: OneOf(PRICING_METHODS),
  markup_rate: Type.Number({ minimum: 0, maximum: 10, description: 'fraction' }),
  contingency_rate: Nullable(Fraction(1, 'fraction of cost added before markup; null is off')),
  tax_rate: Nullable(Fraction(1, 'fraction')),
  minimum_charge: Nullable(Money()),
  price_list_id: Nullable(RecordId()),
  job_costs: JobCostsBody,
  areas: Type.Array(
    Type.Object(
      {
        id: Type.Optional(RecordId()),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
        active: Type.Optional(Type.Boolean()),
        position: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
        takeoff_id: Type.Optional(
          Nullable(
            RecordId({
              description:
                "a measurement whose quantities the area's lines take (quantity_source takeoff); null unlinks it",
            }),
          ),
        ),
      },
      { additionalProperties: false },
    ),
    { maxItems: 100 },
  ),
  archived: Type.Boolean({ description: 'false restores an archived estimate' }),
});
export type UpdateEstimateInput = Static<typeof UpdateEstimateBody>;
export type AreaInput = NonNullable<UpdateEstimateInput['areas']>[number];

export const IssueBody = Body({
  override_profit_floor: Type.Boolean({ description: 'owner or estimating admin: issue below the profit floor' }),
});
export type IssueInput = Static<typeof IssueBody>;
export const MarkLostBody = Body({ reason: Nullable(Type.String({ maxLength: 2000 })) });
export type MarkLostInput = Static<typeof MarkLostBody>;
export const ChangeOrderBody = Body({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  pricing_mode: OneOf(['additive', 'revision']),
});
export type ChangeOrderInput = Static<typeof ChangeOrderBody>;

/** /v1/estimates/{id} and its line items' paths. */
export const EstimateParams = Type.Object({ id: RecordId() });
export const EstimateLineParams = Type.Object({ id: RecordId(), line_item_id: RecordId() });

/** A write's answer: the fresh estimate wrapped in data. */
export const EstimateEnvelope = One(EstimateSchema);
