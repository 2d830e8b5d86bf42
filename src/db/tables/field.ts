// The field-capture area: photo tags (008), assessment services (009).
import type { Generated } from 'kysely';

export interface PhotoTagTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  /** The name lowercased with spaces folded: unique per workspace. */
  name_key: string;
  /** #rrggbb, lowercase. */
  color: string;
  /** What the tag means, for people and for photo analysis. */
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface AssessmentServiceTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  /** The trade it belongs to (the API's `group`). */
  service_group: string;
  color: string;
  measurement_type: 'none' | 'count' | 'sqft' | 'dimensions' | 'volume' | 'lf';
  /** The catalog service that prices its pins; null when none does (or it was deleted). */
  catalog_service_id: number | null;
  /** Order in the list (the starter set's order). */
  position: number;
  created_at: string;
  updated_at: string;
}

export interface FieldTables {
  photo_tags: PhotoTagTable;
  assessment_services: AssessmentServiceTable;
}
