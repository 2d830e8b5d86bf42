// The measurement area's tables (035_measurements): aerial takeoffs, their shapes, custom items
// and the history of saved edits.
import type { Generated } from 'kysely';

export interface MeasurementTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number | null;
  name: string;
  started_from: 'bounds' | 'address' | 'tiles';
  address: string | null;
  /** JSON {z, x_min, x_max, y_min, y_max}. */
  tiles: string | null;
  north: number;
  south: number;
  east: number;
  west: number;
  /** JSON {source, zoom, meters_per_pixel, width, height, capture_date}. */
  imagery: string;
  detector: 'built_in' | 'segmentation';
  format: 'detected' | 'editor';
  rev: number;
  area_sqft: number;
  shape_count: number;
  /** JSON totals (measurement/shapes/totals.ts). */
  totals: string;
  locked_for_review: 0 | 1;
  /** JSON {category: quantity}. */
  typed_quantities: string;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface MeasurementShapeTable {
  id: Generated<number>;
  firm_id: number;
  measurement_id: number;
  shape_id: string;
  kind: 'area' | 'count' | 'line' | 'painted_shape' | 'custom';
  surface: string | null;
  category: string | null;
  label: string | null;
  item: string | null;
  geometry: 'point' | 'line' | 'polygon';
  phase: string | null;
  spec: string | null;
  service_id: number | null;
  /** JSON string[]. */
  service_labels: string | null;
  item_key: string | null;
  item_name: string | null;
  work_area: string | null;
  quantity: number;
  unit: 'SF' | 'LF' | 'EA';
  /** JSON [lat, lng] (point), [[lat, lng], …] (line) or [[[lat, lng], …], …] (polygon rings). */
  coordinates: string;
  origin: 'detected' | 'drawn';
  created_at: string;
  updated_at: string;
}

export interface MeasurementItemTable {
  id: Generated<number>;
  firm_id: number;
  measurement_id: number;
  name: string;
  item_type: 'point' | 'line' | 'polygon';
  color: string;
  phase_split: 0 | 1;
  counts_toward_area: 0 | 1;
  created_at: string;
}

export interface MeasurementHistoryTable {
  id: Generated<number>;
  firm_id: number;
  measurement_id: number;
  rev: number;
  user_id: number | null;
  api_key_id: number | null;
  /** JSON [{index, op, id}]. */
  operations: string;
  /** JSON [shape] as answered before the save. */
  replaced: string;
  area_sqft_before: number;
  area_sqft_after: number;
  created_at: string;
}

export interface MeasurementTables {
  measurements: MeasurementTable;
  measurement_shapes: MeasurementShapeTable;
  measurement_items: MeasurementItemTable;
  measurement_history: MeasurementHistoryTable;
}
