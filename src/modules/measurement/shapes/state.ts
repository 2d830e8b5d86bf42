// A measurement's shapes as the edit engine holds them while a save is applied (apply.ts): plain
// objects with their geometry parsed, keyed by the stable shape id.
import { type Geometry, type LatLng, UNIT_OF, quantityOf, type QuantityUnit } from '#engines/geometry/index.ts';
import type { Kind, Surface } from './vocabulary.ts';

export interface ShapeState {
  shape_id: string;
  kind: Kind;
  surface: Surface | null;
  category: string | null;
  label: string | null;
  item: string | null;
  geometry: Geometry;
  phase: string | null;
  spec: string | null;
  service_id: number | null;
  service_labels: string[] | null;
  item_key: string | null;
  item_name: string | null;
  work_area: string | null;
  quantity: number;
  unit: QuantityUnit;
  origin: 'detected' | 'drawn';
}

export interface ItemState {
  name: string;
  item_type: Geometry['type'];
  color: string;
  phase_split: boolean;
  counts_toward_area: boolean;
}

/** The frame a measurement was detected in: new shapes far from it (and its shapes) are refused. */
export interface Frame {
  north: number;
  south: number;
  east: number;
  west: number;
}

export interface EditState {
  shapes: Map<string, ShapeState>;
  /** Custom items by lower-cased name. */
  items: Map<string, ItemState>;
  /** Categories whose quantity the office typed over. */
  typed: Record<string, number>;
  frame: Frame;
}

/** A new shape of `kind`: its geometry measured, nothing else set (the caller fills category, surface …). */
export function newShape(
  shapeId: string,
  kind: Kind,
  geometry: Geometry,
  origin: ShapeState['origin'],
  fields: Partial<ShapeState> = {},
): ShapeState {
  return {
    shape_id: shapeId,
    kind,
    surface: null,
    category: null,
    label: null,
    item: null,
    geometry,
    phase: null,
    spec: null,
    service_id: null,
    service_labels: null,
    item_key: null,
    item_name: null,
    work_area: null,
    ...measured(geometry),
    origin,
    ...fields,
  };
}

/** A shape's quantity and unit from its geometry. */
export function measured(geometry: Geometry): { quantity: number; unit: QuantityUnit } {
  return { quantity: quantityOf(geometry), unit: UNIT_OF[geometry.type] };
}

/** Coordinates as stored and answered ([lat, lng]): a point, a line's points, or a polygon's rings. */
export function coordinatesOf(g: Geometry): LatLng | LatLng[] | LatLng[][] {
  return g.type === 'point' ? g.point : g.type === 'line' ? g.points : g.rings;
}

export function geometryFrom(type: Geometry['type'], coordinates: unknown): Geometry {
  if (type === 'point') return { type, point: coordinates as LatLng };
  if (type === 'line') return { type, points: coordinates as LatLng[] };
  return { type, rings: coordinates as LatLng[][] };
}
