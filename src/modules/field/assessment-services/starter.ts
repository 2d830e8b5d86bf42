// The assessment services every workspace starts with (document 3, GET /v1/assessment-services):
// what an assessor drops pins for on a site walk, grouped by trade, each with the measurement its
// pins take and the starter-catalog service that prices it (src/seed/starter-catalog.ts, by name).
import type { MeasurementType } from './schemas.ts';

export interface StarterAssessmentService {
  name: string;
  group: string;
  color: string;
  measurement_type: MeasurementType;
  /** The catalog service whose line a pin's quantity feeds; null when no starter service prices it. */
  catalog_service: string | null;
}

export const STARTER_ASSESSMENT_SERVICES: readonly StarterAssessmentService[] = [
  {
    name: 'Crack sealing',
    group: 'Asphalt',
    color: '#f59e0b',
    measurement_type: 'lf',
    catalog_service: 'Crack sealing',
  },
  {
    name: 'Pothole patching',
    group: 'Asphalt',
    color: '#dc2626',
    measurement_type: 'sqft',
    catalog_service: 'Full-depth asphalt patch',
  },
  {
    name: 'Base failure repair',
    group: 'Asphalt',
    color: '#991b1b',
    measurement_type: 'dimensions',
    catalog_service: 'Full-depth asphalt patch',
  },
  {
    name: 'Sealcoating',
    group: 'Asphalt',
    color: '#374151',
    measurement_type: 'sqft',
    catalog_service: 'Sealcoating, 2 coats',
  },
  {
    name: 'Mill and overlay',
    group: 'Asphalt',
    color: '#1f2937',
    measurement_type: 'sqft',
    catalog_service: 'Mill and overlay, 2"',
  },
  {
    name: 'Line striping',
    group: 'Striping',
    color: '#eab308',
    measurement_type: 'lf',
    catalog_service: 'Line striping',
  },
  {
    name: 'Parking stall striping',
    group: 'Striping',
    color: '#facc15',
    measurement_type: 'count',
    catalog_service: 'Parking stall striping',
  },
  {
    name: 'ADA stall',
    group: 'Striping',
    color: '#2563eb',
    measurement_type: 'count',
    catalog_service: 'ADA stall with stencil',
  },
  {
    name: 'Concrete repair',
    group: 'Concrete',
    color: '#9ca3af',
    measurement_type: 'dimensions',
    catalog_service: 'Concrete flatwork',
  },
  { name: 'Drainage', group: 'Drainage', color: '#0ea5e9', measurement_type: 'count', catalog_service: null },
  {
    name: 'Mulch beds',
    group: 'Landscape',
    color: '#92400e',
    measurement_type: 'sqft',
    catalog_service: 'Mulch install',
  },
  {
    name: 'Sod repair',
    group: 'Landscape',
    color: '#16a34a',
    measurement_type: 'sqft',
    catalog_service: 'Sod install',
  },
  { name: 'Tree work', group: 'Landscape', color: '#15803d', measurement_type: 'count', catalog_service: null },
];
