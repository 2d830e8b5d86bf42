// A shape as the API answers it (document 3, "Saved-takeoff shape"), in the caller's coordinate
// order, with the edits it allows (editable.ts).
import type { Static } from '@sinclair/typebox';
import { rounded, type LatLng } from '#engines/geometry/index.ts';
import { actionsOf, type AreaOf } from './editable.ts';
import type { ShapeSchema } from './schemas.ts';
import { coordinatesOf, type EditState, type ShapeState } from './state.ts';

export type CoordinateOrder = 'lat_lng' | 'lng_lat';

/** Points swapped to [lng, lat] for GeoJSON order; the stored order is [lat, lng]. */
function ordered(c: unknown, order: CoordinateOrder): unknown {
  if (order === 'lat_lng') return c;
  const swap = (v: unknown): unknown =>
    Array.isArray(v) && typeof v[0] === 'number' ? [(v as LatLng)[1], (v as LatLng)[0]] : (v as unknown[]).map(swap);
  return swap(c);
}

export interface ShapeView {
  includeCoordinates: boolean;
  order: CoordinateOrder;
}

export function shapeObject(
  s: ShapeState,
  state: EditState,
  areaOf: AreaOf,
  view: ShapeView = { includeCoordinates: true, order: 'lat_lng' },
): Static<typeof ShapeSchema> {
  return {
    id: s.shape_id,
    kind: s.kind,
    surface: s.surface,
    category: s.category,
    label: s.label,
    item: s.item,
    geometry: s.geometry.type,
    phase: s.phase,
    spec: s.spec,
    service_labels: s.service_labels,
    service_id: s.service_id,
    item_key: s.item_key,
    item_name: s.item_name,
    work_area: s.work_area,
    quantity: rounded(s.quantity),
    unit: s.unit,
    ...(view.includeCoordinates ? { coordinates: ordered(coordinatesOf(s.geometry), view.order) } : {}),
    actions: [...actionsOf(s, state, areaOf)],
  };
}
