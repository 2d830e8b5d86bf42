// GET /v1/assessment-services answer (document 3, Site assessment and pin: "Assessment service:
// id, name, group, color, measurement_type"), with the catalog service it prices.
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '#platform/schemas.ts';

/** How a pin for the service is measured (the pin's measurement.type). */
export const MEASUREMENT_TYPES = ['none', 'count', 'sqft', 'dimensions', 'volume', 'lf'] as const;
export type MeasurementType = (typeof MEASUREMENT_TYPES)[number];

export const AssessmentServiceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  group: Type.String(),
  color: Type.String({ description: '#rrggbb' }),
  measurement_type: StringEnum(MEASUREMENT_TYPES),
  catalog_service: Nullable(
    Type.Object(
      { id: Type.Integer(), name: Type.String() },
      { description: 'The catalog service a pin’s quantity prices on the job’s draft estimate' },
    ),
  ),
});
