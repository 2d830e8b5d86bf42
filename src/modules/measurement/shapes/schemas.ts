// The saved-takeoff shape resource, its listing and the edit save (document 3, "Saved-takeoff
// shape" and "Saved-takeoff shapes"; docs/measurement.md).
import { Type } from '@sinclair/typebox';
import { Body, Nullable, NullableInteger, NullableString, OneOf, RecordId } from '#platform/schemas.ts';
import { KINDS, OPS } from './vocabulary.ts';

const Coordinates = Type.Unknown({
  description: '[lat, lng] for a point, a list of points for a line, a list of rings (outline first) for a polygon',
});

export const ShapeSchema = Type.Object({
  id: Type.String(),
  kind: OneOf(KINDS),
  surface: NullableString(),
  category: NullableString(),
  label: NullableString(),
  item: NullableString(),
  geometry: OneOf(['point', 'line', 'polygon'] as const),
  phase: NullableString(),
  spec: NullableString(),
  service_labels: Nullable(Type.Array(Type.String())),
  service_id: NullableInteger(),
  item_key: NullableString(),
  item_name: NullableString(),
  work_area: NullableString(),
  quantity: Type.Number(),
  unit: OneOf(['SF', 'LF', 'EA'] as const),
  coordinates: Type.Optional(Coordinates),
  actions: Type.Array(OneOf(OPS)),
});

export const COORDINATE_ORDERS = ['lat_lng', 'lng_lat'] as const;

export const ShapesQuery = Type.Object(
  {
    kind: Type.Optional(OneOf(KINDS)),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    include_coordinates: Type.Optional(Type.Boolean({ default: true })),
    coordinate_order: Type.Optional(
      OneOf(COORDINATE_ORDERS, { description: 'lat_lng (default) or lng_lat (GeoJSON order)' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

export const ShapesParams = Type.Object({ id: RecordId() });

export const ShapeListSchema = Type.Object({
  data: Type.Array(ShapeSchema),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
  measurement: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    job_id: NullableInteger(),
    area: Type.Number(),
    rev: Type.Integer(),
    coordinate_order: OneOf(COORDINATE_ORDERS),
  }),
  options: Type.Object({
    count_categories: Type.Array(Type.String()),
    line_categories: Type.Array(Type.String()),
    surfaces: Type.Array(Type.String()),
    custom_items: Type.Array(
      Type.Object({ name: Type.String(), type: Type.String(), color: Type.String(), on_takeoff: Type.Boolean() }),
    ),
    types: Type.Record(Type.String(), Type.Array(Type.String())),
    phases: Type.Array(Type.String()),
  }),
});

export const EditsBody = Body({
  base_rev: Type.Integer({
    minimum: 0,
    maximum: 2_147_483_647,
    description: 'measurement.rev, or the last save’s rev',
  }),
  operations: Type.Array(Type.Unknown(), { description: '1 to 200 operations, applied in order and saved together' }),
  coordinate_order: OneOf(COORDINATE_ORDERS),
  confirm_remove_all_areas: Type.Boolean(),
});

export const EditResultSchema = Type.Object({
  data: Type.Object({
    measurement_id: Type.Integer(),
    rev: Type.Integer(),
    area: Type.Number(),
    results: Type.Array(
      Type.Object(
        {
          index: Type.Integer(),
          op: Type.String(),
          id: Type.String(),
          quantity: Nullable(Type.Number()),
          unit: NullableString(),
        },
        { additionalProperties: true },
      ),
    ),
  }),
});

export const HistoryQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

export const HistoryEntrySchema = Type.Object({
  rev: Type.Integer(),
  user: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  saved_at: Type.String(),
  operations: Type.Array(Type.Object({ index: Type.Integer(), op: Type.String(), id: Type.String() })),
  replaced: Type.Array(ShapeSchema),
  area_before: Type.Number(),
  area_after: Type.Number(),
});
