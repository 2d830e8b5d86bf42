// GET /v1/measurements/{id}/shapes (document 3): a page of the measurement's shapes in the order
// they were made, filtered by kind and category, with the measurement's header and the options an
// edit may name. Only the page's rows are read, plus the areas when the page holds holes (a hole's
// actions depend on the area it cuts).
import { type SelectQueryBuilder, type Selectable, sql } from 'kysely';
import type { DB } from '#db/tables.ts';
import type { MeasurementShapeTable } from '#db/tables/measurement.ts';
import type { ServiceContext } from '#platform/context.ts';
import { visibleMeasurement } from '../measurements/service.ts';
import { itemRows } from '../measurements/repo.ts';
import { optionsOf } from './options.ts';
import { shapeOfRow } from './rows.ts';
import { type CoordinateOrder, shapeObject } from './serialize.ts';
import { areaHolding } from './sits-in.ts';
import type { EditState } from './state.ts';
import { itemsOf } from './load.ts';
import { pageStart } from './page-anchors.ts';

export interface ShapesQuery {
  kind?: string;
  category?: string;
  include_coordinates?: boolean;
  coordinate_order?: CoordinateOrder;
  limit?: number;
  offset?: number;
}

/**
 * The measurement's areas that carry what the takeoff editor owns, through the partial index
 * measurement_shapes_editable_areas (migration 038), its condition written as the index says it
 * (literals, not parameters). SQLite is told the index by name: without statistics it prefers the
 * (measurement_id, kind) index, which reads every area of the measurement (7 ms at 100k shapes).
 */
export function editableAreasQuery(engine: 'sqlite' | 'postgres', measurementId: number) {
  const from =
    engine === 'sqlite'
      ? sql`measurement_shapes indexed by measurement_shapes_editable_areas`
      : sql`measurement_shapes`;
  return sql<Selectable<MeasurementShapeTable>>`select * from ${from} where measurement_id = ${measurementId}
    and kind = 'area' and (service_id is not null or spec is not null or item_key is not null or work_area is not null)`;
}

/**
 * A page of `qb`'s shapes (the measurement's, filtered), ordered by (measurement_id, id), the order
 * of the index it reads. On a large measurement a page starts from an anchor at or before it
 * (page-anchors.ts, the first page from the first shape's id) instead of stepping over every row
 * before it, or over other measurements' rows.
 */
export function pageQuery(
  qb: ShapeRows,
  start: { fromId: number; skip: number } | null,
  limit: number,
  offset: number,
) {
  return (start ? qb.where('id', '>=', start.fromId) : qb)
    .selectAll()
    .orderBy('measurement_id')
    .orderBy('id')
    .limit(limit)
    .offset(start ? start.skip : offset);
}

type ShapeRows = SelectQueryBuilder<DB, 'measurement_shapes', {}>;

export async function listShapes(ctx: ServiceContext, id: number, q: ShapesQuery) {
  const db = ctx.database.db;
  const m = await visibleMeasurement(ctx, id);
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  let qb = db.selectFrom('measurement_shapes').where('measurement_id', '=', m.id);
  if (q.kind !== undefined) qb = qb.where('kind', '=', q.kind as 'area');
  if (q.category !== undefined) qb = qb.where('category', '=', q.category);
  // Unfiltered, the total is the measurement's own shape_count (kept at every save); filtered, counted.
  const filtered = q.kind !== undefined || q.category !== undefined;
  const start = await pageStart(db, m, { kind: q.kind, category: q.category }, offset);
  const [rows, total, items, options] = await Promise.all([
    pageQuery(qb, start, limit, offset).execute(),
    filtered
      ? qb
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      : Promise.resolve(m.shape_count),
    itemRows(db, m.id),
    optionsOf(db, m),
  ]);
  const shapes = rows.map(shapeOfRow);
  // A hole's actions depend on the area it cuts only when that area carries what the takeoff editor
  // owns (editable.ts): only such areas are read, and only for a page that holds a hole. (A hole in a
  // plain area that itself lies in such an area lists set_phase alone: fewer actions, never one the
  // save refuses.)
  const areas = shapes.some((s) => s.surface === 'hole')
    ? (await editableAreasQuery(ctx.database.dialect.engine, m.id).execute(db)).rows.map(shapeOfRow)
    : [];
  const state: EditState = {
    shapes: new Map(),
    items: itemsOf(items),
    typed: JSON.parse(m.typed_quantities),
    frame: m,
  };
  const areaOf = (s: (typeof shapes)[number]) => areaHolding(areas, s);
  const order = q.coordinate_order ?? 'lat_lng';
  const view = { includeCoordinates: q.include_coordinates ?? true, order };
  return {
    data: shapes.map((s) => shapeObject(s, state, areaOf, view)),
    pagination: { total, limit, offset },
    measurement: { id: m.id, name: m.name, job_id: m.job_id, area: m.area_sqft, rev: m.rev, coordinate_order: order },
    options,
  };
}
