// The landscape takeoff, item and run resources and the bodies that change them (document 3,
// "Landscape takeoff", "Landscape run" and "Landscape takeoffs"; docs/landscape.md).
import { Type } from '@sinclair/typebox';
import {
  Body,
  Nullable,
  NullableInstant,
  NullableInteger,
  NullableEnum,
  NullableNumber,
  NullableObject,
  NullableString,
  OneOf,
  PageQuery,
  RecordId,
  StringEnum,
  withMessage,
} from '#platform/schemas.ts';
import { DOT_KINDS } from './plans/quantities.ts';

export const AREA_UNITS = ['sf', 'sy', 'sm', 'acres'] as const;
export const MAX_ITEMS_PER_ADD = 200;
export const MAX_DETECT_POLYGONS = 20;

const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });
const LatLngSchema = Type.Tuple([Latitude, Longitude], { description: '[latitude, longitude]' });
const Outline = Type.Array(LatLngSchema, {
  minItems: 3,
  maxItems: 2_000,
  description: '[lat, lng] points of one ring',
});
const Phase = Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }));

// ——— bodies and queries ———

export const CreateTakeoffBody = Body(
  {
    type: withMessage(StringEnum(['aerial', 'blueprint'] as const), 'type must be aerial or blueprint'),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    manual: Type.Boolean({ description: 'aerial only: a Manual Aerial takeoff (no model runs)' }),
    file_url: Type.String({ maxLength: 2_048, description: 'blueprint: a public https PDF up to 100 MB' }),
    file_id: RecordId({ description: 'blueprint: a PDF already in the job’s files' }),
    pages: Type.Array(Type.Integer({ minimum: 1, maximum: 10_000 }), { minItems: 1, maxItems: 500, uniqueItems: true }),
  },
  { required: ['type'] },
);

export const TakeoffListQuery = Type.Object(
  {
    job_id: Type.Optional(RecordId()),
    type: Type.Optional(withMessage(StringEnum(['aerial', 'blueprint'] as const), 'type must be aerial or blueprint')),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

export const UnitQuery = Type.Object(
  { unit: Type.Optional(StringEnum(AREA_UNITS, { default: 'sf', description: 'area values in sf, sy, sm or acres' })) },
  { additionalProperties: false },
);

export const ItemListQuery = Type.Object(
  {
    class: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'aerial: one class' })),
    plant_id: Type.Optional(RecordId({ description: 'plans: one plant’s dots' })),
    kind: Type.Optional(StringEnum(DOT_KINDS, { description: 'plans: one kind of dot' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: 'plans: one sheet’s dots' })),
    ...PageQuery(200),
  },
  { additionalProperties: false },
);

const NewItem = Type.Object(
  {
    class: Type.String({ minLength: 1, maxLength: 50 }),
    polygon: Type.Optional(Outline),
    point: Type.Optional(LatLngSchema),
    phase: Type.Optional(Phase),
  },
  { additionalProperties: false },
);

export const AddItemsBody = Body(
  { items: Type.Array(NewItem, { minItems: 1, maxItems: MAX_ITEMS_PER_ADD }) },
  { required: ['items'] },
);

export const UpdateItemBody = Body({
  class: Type.String({
    minLength: 1,
    maxLength: 50,
    description: 'aerial: an area stays an area class, an object an object class',
  }),
  phase: Phase,
  plant_id: RecordId({ description: 'plans: moves the dot to another plant of the takeoff' }),
  quantity: Nullable(
    Type.Number({
      minimum: 0,
      maximum: 100_000,
      description: 'plans: what the dot counts for (null clears: one plant, or its callout’s count)',
    }),
  ),
});

const SheetBoxSchema = Type.Object(
  {
    x: Type.Number({ minimum: 0, maximum: 100_000 }),
    y: Type.Number({ minimum: 0, maximum: 100_000 }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
  },
  { additionalProperties: false, description: 'a box in sheet pixels at 144 dpi, origin top left' },
);

export const ScheduleBody = Body(
  {
    page: Type.Integer({ minimum: 1, maximum: 10_000, description: 'the sheet the plant schedule is on' }),
    box: SheetBoxSchema,
  },
  { required: ['page', 'box'] },
);

const RunPages = Type.Array(Type.Integer({ minimum: 1, maximum: 10_000 }), {
  minItems: 1,
  maxItems: 500,
  uniqueItems: true,
  description: 'the sheets to read (default: every sheet taken off)',
});
const PlantIds = Type.Array(RecordId(), {
  minItems: 1,
  maxItems: 500,
  uniqueItems: true,
  description: 'the plants to work on (default: all)',
});

export const ReadCalloutsBody = Body({ pages: RunPages });
export const FindPlantsBody = Body({ pages: RunPages, plant_ids: PlantIds });
export const GroupPlantsBody = Body({
  pages: RunPages,
  plant_ids: PlantIds,
  within_px: Type.Number({
    minimum: 1,
    maximum: 1_440,
    default: 72,
    description: 'dots of a plant closer than this (sheet pixels; 72 = half an inch of paper) join one group',
  }),
});
export const AdvancedRunBody = Body({ pages: RunPages });
export const IrrigationBody = Body({
  pages: RunPages,
  apply: Type.Boolean({
    default: false,
    description: 'true writes the findings to the takeoff’s irrigation quantities',
  }),
});

const BoundsSchema = Type.Object(
  { north: Latitude, south: Latitude, east: Longitude, west: Longitude },
  { additionalProperties: false },
);

export const DetectBody = Body({
  polygon: Outline,
  polygons: Type.Array(Outline, { minItems: 1, maxItems: MAX_DETECT_POLYGONS }),
  bounds: BoundsSchema,
  area_classes: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, uniqueItems: true }),
  include_areas: Type.Boolean({ default: true }),
  include_objects: Type.Boolean({ default: true }),
  replace_existing: Type.Boolean({
    description:
      'true: model-found items of the detected classes are replaced; false (default): new areas are clipped to what is there',
  }),
});

// ——— resources ———

const QuantitiesSchema = Type.Object({
  areas: Type.Array(
    Type.Object({
      class: Type.String(),
      label: Type.String(),
      count: Type.Integer(),
      area_sqft: Type.Number(),
      area: Type.Number(),
    }),
  ),
  objects: Type.Array(Type.Object({ class: Type.String(), label: Type.String(), count: Type.Integer() })),
  total_area_sqft: Type.Number(),
  total_area: Type.Number(),
  tree_count: Type.Integer(),
  object_count: Type.Integer(),
});

const PlanQuantitiesSchema = Type.Object({
  plants: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: NullableString(),
      code: Type.String(),
      common_name: NullableString(),
      kind: OneOf(['plant', 'callout', 'callout_tag', 'other'] as const),
      unit: Type.String(),
      quantity: Type.Number(),
      quantity_source: OneOf(['callouts', 'dots', 'typed'] as const),
      dot_count: Type.Integer(),
      pages: Type.Array(Type.Integer()),
    }),
  ),
  plant_total: Type.Number(),
  areas: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      count: Type.Integer(),
      area_sqft: Type.Number(),
      area: Type.Number(),
      quantity_sqft: Type.Number(),
      quantity: Type.Number(),
      quantity_source: Type.String(),
    }),
  ),
  lines: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), linear_feet: Type.Number() })),
  other_counts: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), count: Type.Integer() })),
  irrigation: Type.Object({
    heads_and_valves: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        kind: OneOf(['head', 'valve'] as const),
        unit: Type.String(),
        quantity: Type.Number(),
        quantity_source: OneOf(['dots', 'typed'] as const),
        dot_count: Type.Integer(),
        pages: Type.Array(Type.Integer()),
        plan_quantity: NullableInteger(),
      }),
    ),
    pipes: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), linear_feet: NullableNumber() })),
    zones: Type.Array(
      Type.Object({
        zone: Type.String(),
        valve_size: NullableString(),
        gpm: NullableNumber(),
        heads: Type.Integer(),
        lateral_lf: NullableNumber(),
      }),
    ),
  }),
});

const BoxOut = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() });

const ScheduleSchema = Type.Object({
  status: OneOf(['found', 'not_found', 'placed'] as const),
  page: NullableInteger(),
  box: NullableObject(BoxOut),
  rows: Type.Array(
    Type.Object({
      code: Type.String(),
      botanical_name: NullableString(),
      common_name: NullableString(),
      size: NullableString(),
      quantity: NullableInteger(),
      box: BoxOut,
      symbol_box: NullableObject(BoxOut),
    }),
  ),
  rows_ignored: Type.Array(Type.Object({ text: Type.String(), reason: Type.String() })),
});

export const TakeoffSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('landscape_takeoff'),
  name: Type.String(),
  type: OneOf(['aerial', 'blueprint'] as const),
  mode: NullableEnum(['auto', 'manual'] as const),
  editor: NullableEnum(['plan', 'standalone'] as const),
  job_id: Type.Integer(),
  unit: StringEnum(AREA_UNITS),
  quantities: Type.Union([QuantitiesSchema, PlanQuantitiesSchema], {
    description: 'aerial: areas and objects; blueprint: plants, areas, lines and irrigation',
  }),
  page_count: Nullable(Type.Integer({ description: 'blueprint: pages in the PDF' })),
  pages: NullableObject(
    Type.Array(Type.Integer(), { description: 'blueprint: the pages taken off (their sheets are stored)' }),
  ),
  schedule: NullableObject(ScheduleSchema),
  ai_detection: Type.Object({
    enabled: Type.Boolean({ description: 'false for Manual Aerial takeoffs' }),
    credit_used: Type.Boolean({ description: 'its first model run used a takeoff credit; later runs are free' }),
  }),
  rev: Type.Integer(),
  item_count: Type.Integer(),
  sent_for_cleanup: Type.Boolean(),
  screening_note: Type.String(),
  editor_url: Type.String(),
  created_by_user_id: NullableInteger(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const TakeoffRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: OneOf(['aerial', 'blueprint'] as const),
  mode: Type.Optional(OneOf(['auto', 'manual'] as const)),
  editor: Type.Optional(OneOf(['plan', 'standalone'] as const)),
  job_id: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ItemSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('landscape_item'),
  kind: OneOf(['area', 'object'] as const),
  class: Type.String(),
  label: Type.String(),
  tree: Nullable(Type.Boolean({ description: 'objects: whether the class is a tree' })),
  phase: NullableString(),
  area_sqft: NullableNumber(),
  rings: NullableObject(Type.Array(Type.Array(LatLngSchema), { description: 'areas: outline first, then holes' })),
  lat: NullableNumber(),
  lng: NullableNumber(),
  source: OneOf(['manual', 'detected'] as const),
  run_id: NullableInteger(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const DotSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('landscape_dot'),
  plant_id: NullableInteger(),
  plant_name: NullableString(),
  kind: StringEnum(DOT_KINDS),
  page: Type.Integer(),
  x: Type.Number({ description: 'sheet pixels at 144 dpi from the left' }),
  y: Type.Number({ description: 'sheet pixels at 144 dpi from the top' }),
  quantity: Nullable(
    Type.Number({ description: 'what a user typed on the dot; null: one plant, or its callout’s count' }),
  ),
  callout_quantity: Nullable(Type.Integer({ description: 'the count its callout states (callout dots)' })),
  source: OneOf(['manual', 'detected'] as const),
  run_id: NullableInteger(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const AnyItemSchema = Type.Union([ItemSchema, DotSchema]);

export const ClassesSchema = Type.Object({
  areas: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      color: Type.String(),
      unit: Type.String(),
      detected: Type.Boolean(),
    }),
  ),
  objects: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      color: Type.String(),
      unit: Type.String(),
      tree: Type.Boolean(),
      detected: Type.Boolean(),
    }),
  ),
});

export const RunSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('landscape_run'),
  kind: OneOf([
    'detect',
    'plan',
    'find_plants',
    'group_plants',
    'read_callouts',
    'advanced_run',
    'irrigation',
  ] as const),
  status: OneOf(['pending', 'completed', 'failed', 'undone'] as const),
  takeoff_id: NullableInteger(),
  job_id: Type.Integer(),
  poll_url: Type.String(),
  request: Type.Record(Type.String(), Type.Unknown()),
  result: NullableObject(Type.Record(Type.String(), Type.Unknown())),
  failure: NullableObject(Type.Object({ code: Type.String(), message: Type.String() })),
  credit_used: Type.Boolean(),
  created_at: Type.String(),
  started_at: NullableInstant(),
  completed_at: NullableInstant(),
  undone_at: NullableInstant(),
});

export const ItemsAdded = Type.Object({
  data: Type.Array(ItemSchema),
  quantities: Type.Union([QuantitiesSchema, PlanQuantitiesSchema]),
  rev: Type.Integer(),
});
export const ItemChanged = Type.Object({
  data: AnyItemSchema,
  quantities: Type.Union([QuantitiesSchema, PlanQuantitiesSchema]),
  rev: Type.Integer(),
});
