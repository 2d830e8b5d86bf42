// The condition rating body and result (document 3, "Condition rating result" and "Condition
// ratings"). The JSON body is described here for the OpenAPI document; request.ts reads it (and the
// multipart form) so that every refusal is the rating's own `{error, code}`.
import { Type } from '@sinclair/typebox';
import { SEVERITIES } from '#engines/condition/index.ts';
import { Nullable, NullableNumber, NullableString, RecordId, StringEnum } from '#platform/schemas.ts';
import { IMAGE_URL_MAX, IMAGERY_SOURCES, NOTES_MAX, PAVEMENT_TYPES, ZOOM } from './request.ts';

const LatLngPair = Type.Array(Type.Number(), { minItems: 2, maxItems: 2 });

export const RatingBodySchema = Type.Object(
  {
    image: Type.Optional(
      Type.String({
        description: 'JPEG, PNG or WebP as base64 or a data URI; up to 15 MB and 60 megapixels, at least 64 px',
      }),
    ),
    image_url: Type.Optional(Type.String({ maxLength: IMAGE_URL_MAX, description: 'a public https URL of the image' })),
    polygon: Type.Optional(
      Type.Union([Type.Array(LatLngPair, { minItems: 3 }), Type.Object({}, { additionalProperties: true })], {
        description:
          '[[lat, lng], ...] with 3 or more points, or a GeoJSON Polygon or Feature ([lng, lat]); in forms, a JSON string',
      }),
    ),
    lat: Type.Optional(Type.Number({ minimum: -85, maximum: 85 })),
    lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    address: Type.Optional(Type.String({ maxLength: 500, description: 'geocoded' })),
    imagery_source: Type.Optional(StringEnum(IMAGERY_SOURCES, { description: 'standard (default) or premium' })),
    zoom: Type.Optional(
      Type.Integer({
        minimum: ZOOM.min,
        maximum: ZOOM.max,
        description: 'default fits the polygon (up to 20), or 20 for a point',
      }),
    ),
    pavement_type: Type.Optional(StringEnum(PAVEMENT_TYPES, { description: 'auto (default), asphalt, concrete' })),
    notes: Type.Optional(Type.String({ maxLength: NOTES_MAX })),
    return_image: Type.Optional(
      Type.Boolean({
        description: 'answer the rated JPEG with the polygon outlined in image.jpeg_base64; not with image_url',
      }),
    ),
    location_id: Type.Optional(
      RecordId({
        description: "a site of the workspace: the rating joins its history; a PCI rating sets the site's pci",
      }),
    ),
  },
  { additionalProperties: false },
);

const Severity = StringEnum(SEVERITIES);

const PaserBlock = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 10 }),
  label: Type.String(),
  description: Type.String(),
  recommended_treatment: Type.String(),
  limited_by: Type.Array(
    Type.Object({
      distress: Type.String(),
      severity: Severity,
      density_pct: Type.Number(),
      max_rating: Type.Integer(),
      rule: Type.String(),
    }),
  ),
  rubric_version: Type.String(),
});

const PciBlock = Type.Object({
  score: Type.Number({ minimum: 0, maximum: 100 }),
  label: Type.String(),
  strategy: Type.String(),
  color: Type.String(),
  recommended_treatment: Type.String(),
  method: StringEnum(['astm_d6433', 'visual_estimate'] as const),
  deducts: Type.Array(
    Type.Object({
      distress: Type.String(),
      severity: Severity,
      density_pct: Type.Number(),
      deduct_value: Type.Number(),
    }),
  ),
  highest_deduct: Type.Number({ description: 'HDV' }),
  allowed_deducts: Type.Union([Type.Number(), Type.Null()], {
    description: 'm; null when at most one deduct is over 2',
  }),
  iterations: Type.Array(
    Type.Object({
      deducts: Type.Array(Type.Number()),
      total_deduct: Type.Number(),
      q: Type.Integer(),
      corrected_deduct: Type.Number(),
    }),
    { description: 'each row of the corrected-deduct procedure' },
  ),
  max_corrected_deduct: Type.Number(),
});

const ImageBlock = Type.Object({
  source: StringEnum(['standard', 'premium', 'upload', 'url'] as const),
  capture_date: Type.Optional(
    Nullable(Type.String({ description: 'premium imagery only, else null; absent for own images' })),
  ),
  survey_id: NullableString(),
  lat: NullableNumber(),
  lng: NullableNumber(),
  zoom: Nullable(Type.Integer()),
  width: Type.Integer(),
  height: Type.Integer(),
  meters_per_pixel: NullableNumber(),
  outlined: Type.Boolean(),
  view: StringEnum(['aerial', 'ground', 'other'] as const),
  quality: StringEnum(['good', 'fair', 'poor'] as const),
  visible_pavement_pct: Type.Number(),
  jpeg_base64: Type.Optional(Type.String({ description: 'with return_image' })),
});

export const RatingResultSchema = Type.Object({
  rating_type: StringEnum(['paser', 'pci'] as const),
  rubric_version: Type.String(),
  paser: Type.Optional(PaserBlock),
  pci: Type.Optional(PciBlock),
  pavement_type: StringEnum(['asphalt', 'concrete'] as const),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  summary: Type.String(),
  distresses: Type.Array(
    Type.Object({
      type: Type.String(),
      label: Type.String(),
      severity: Severity,
      density_pct: Type.Number(),
      density_unit: StringEnum(['area', 'linear', 'pothole_area', 'slabs'] as const),
      where: NullableString(),
    }),
  ),
  limitations: Type.Array(Type.String()),
  image: ImageBlock,
  notes: NullableString(),
  location_id: Nullable(Type.Integer()),
  request_id: Type.String(),
  rated_at: Type.String({ description: 'UTC, Z' }),
});

export const SiteRatingsParams = Type.Object({ id: RecordId() });
export const SiteRatingsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
