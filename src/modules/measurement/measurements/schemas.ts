// The measurement resource and the bodies that start one (docs/measurement.md, "The measurement
// object"; document 1's POST /v1/detect/*).
import { Type } from '@sinclair/typebox';
import { Body, Nullable, NullableInteger, NullableString, OneOf, PageQuery, RecordId } from '#platform/schemas.ts';

const BoundsSchema = Type.Object(
  {
    north: Type.Number({ minimum: -90, maximum: 90 }),
    south: Type.Number({ minimum: -90, maximum: 90 }),
    east: Type.Number({ minimum: -180, maximum: 180 }),
    west: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
);

const common = {
  job_id: RecordId({ description: 'the job the measurement is for (its measurement_count counts it)' }),
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: 'default: the address, else "Measurement"',
  }),
};

export const DetectFullBody = Body({ bounds: BoundsSchema, ...common }, { required: ['bounds'] });
export const DetectAddressBody = Body(
  { address: Type.String({ minLength: 3, maxLength: 300, pattern: '\\S' }), ...common },
  { required: ['address'] },
);
const TileIndex = Type.Integer({ minimum: 0, maximum: 2_097_151 });
export const DetectTilesBody = Body(
  {
    z: Type.Integer({ minimum: 18, maximum: 21, description: 'the tiles zoom (18 to 21: coarser tiles hide paint)' }),
    x_min: TileIndex,
    x_max: TileIndex,
    y_min: TileIndex,
    y_max: TileIndex,
    ...common,
  },
  { required: ['z', 'x_min', 'x_max', 'y_min', 'y_max'] },
);

export const UpdateMeasurementBody = Body({
  name: common.name,
  job_id: Nullable(RecordId()),
  locked_for_review: Type.Boolean({ description: 'true: shape edits answer 409 Takeoff locked for review' }),
  typed_quantities: Type.Record(Type.String({ maxLength: 50 }), Nullable(Type.Number({ minimum: 0, maximum: 1e9 })), {
    description: 'category → quantity typed over the measured one; null takes the typing back',
  }),
});

export const MeasurementListQuery = Type.Object(
  { job_id: Type.Optional(RecordId()), ...PageQuery(200) },
  { additionalProperties: false },
);

const AreaTotal = Type.Object({
  surface: Type.String(),
  label: Type.String(),
  count: Type.Integer(),
  area_sqft: Type.Number(),
});
const LineTotal = Type.Object({
  category: Type.String(),
  label: Type.String(),
  count: Type.Integer(),
  linear_feet: Type.Number(),
  typed: Type.Boolean(),
});
const CountTotal = Type.Object({
  category: Type.String(),
  label: Type.String(),
  count: Type.Number(),
  typed: Type.Boolean(),
});
const QuantityTotal = Type.Object({
  count: Type.Integer(),
  quantity: Type.Number(),
  unit: Type.String(),
});

export const TotalsSchema = Type.Object({
  area_sqft: Type.Number(),
  areas: Type.Array(AreaTotal),
  lines: Type.Array(LineTotal),
  counts: Type.Array(CountTotal),
  painted_shapes: Type.Array(
    Type.Intersect([Type.Object({ category: Type.String(), label: Type.String() }), QuantityTotal]),
  ),
  custom: Type.Array(Type.Intersect([Type.Object({ item: Type.String(), item_type: Type.String() }), QuantityTotal])),
  phases: Type.Array(Type.String()),
});

export const MeasurementSchema = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('measurement'),
  name: Type.String(),
  job_id: NullableInteger(),
  status: Type.Literal('completed'),
  started_from: OneOf(['bounds', 'address', 'tiles'] as const),
  address: NullableString(),
  tiles: Nullable(
    Type.Object({
      z: Type.Integer(),
      x_min: Type.Integer(),
      x_max: Type.Integer(),
      y_min: Type.Integer(),
      y_max: Type.Integer(),
    }),
  ),
  bounds: Type.Object({ north: Type.Number(), south: Type.Number(), east: Type.Number(), west: Type.Number() }),
  imagery: Type.Object({
    source: Type.String(),
    zoom: Type.Integer(),
    meters_per_pixel: Type.Number(),
    width: Type.Integer(),
    height: Type.Integer(),
    capture_date: NullableString(),
  }),
  detector: OneOf(['built_in', 'segmentation'] as const),
  area: Type.Number({ description: 'square feet: every area less its holes' }),
  unit: Type.Literal('sf'),
  totals: TotalsSchema,
  rev: Type.Integer(),
  shape_count: Type.Integer(),
  format: OneOf(['detected', 'editor'] as const),
  locked_for_review: Type.Boolean(),
  typed_quantities: Type.Record(Type.String(), Type.Number()),
  screening_note: Type.String(),
  editor_url: Type.String(),
  created_by_user_id: NullableInteger(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
