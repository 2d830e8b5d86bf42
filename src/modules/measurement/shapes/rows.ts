// Shapes between their rows (measurement_shapes) and the edit engine's ShapeState, and new shape
// ids: "shp_" and 12 random base-36 characters, stable for the shape's life (document 3: "id
// (stable string)").
import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { MeasurementShape } from '#db/tables.ts';
import type { MeasurementShapeTable } from '#db/tables/measurement.ts';
import { coordinatesOf, geometryFrom, type ShapeState } from './state.ts';

export function newShapeId(): string {
  const bytes = randomBytes(12);
  let id = 'shp_';
  for (const b of bytes) id += (b % 36).toString(36);
  return id;
}

export function shapeOfRow(r: MeasurementShape): ShapeState {
  return {
    shape_id: r.shape_id,
    kind: r.kind,
    surface: r.surface as ShapeState['surface'],
    category: r.category,
    label: r.label,
    item: r.item,
    geometry: geometryFrom(r.geometry, JSON.parse(r.coordinates)),
    phase: r.phase,
    spec: r.spec,
    service_id: r.service_id,
    service_labels: r.service_labels === null ? null : (JSON.parse(r.service_labels) as string[]),
    item_key: r.item_key,
    item_name: r.item_name,
    work_area: r.work_area,
    quantity: r.quantity,
    unit: r.unit,
    origin: r.origin,
  };
}

export function rowOfShape(
  s: ShapeState,
  firmId: number,
  measurementId: number,
  at: string,
): Insertable<MeasurementShapeTable> {
  return {
    firm_id: firmId,
    measurement_id: measurementId,
    shape_id: s.shape_id,
    kind: s.kind,
    surface: s.surface,
    category: s.category,
    label: s.label,
    item: s.item,
    geometry: s.geometry.type,
    phase: s.phase,
    spec: s.spec,
    service_id: s.service_id,
    service_labels: s.service_labels === null ? null : JSON.stringify(s.service_labels),
    item_key: s.item_key,
    item_name: s.item_name,
    work_area: s.work_area,
    quantity: s.quantity,
    unit: s.unit,
    coordinates: JSON.stringify(coordinatesOf(s.geometry)),
    origin: s.origin,
    created_at: at,
    updated_at: at,
  };
}
