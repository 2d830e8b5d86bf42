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
  { class: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })), ...PageQuery(200) },
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
    description: 'an area stays an area class, an object an object class',
  }),
  phase: Phase,
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

export const TakeoffSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('landscape_takeoff'),
  name: Type.String(),
  type: OneOf(['aerial', 'blueprint'] as const),
  mode: NullableEnum(['auto', 'manual'] as const),
  editor: NullableEnum(['plan', 'standalone'] as const),
  job_id: Type.Integer(),
  unit: StringEnum(AREA_UNITS),
  quantities: QuantitiesSchema,
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
  kind: OneOf(['detect'] as const),
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
  quantities: QuantitiesSchema,
  rev: Type.Integer(),
});
export const ItemChanged = Type.Object({ data: ItemSchema, quantities: QuantitiesSchema, rev: Type.Integer() });
