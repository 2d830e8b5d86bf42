// Photo request and answer schemas (document 3, Photo, photo tag, file; Photos, photo tags, files).
// The multipart upload is read field by field in upload.ts; its JSON twin (a url) is validated here.
import { type Static, Type } from '@sinclair/typebox';
import { Body, IdParam, Nullable, PageQuery, RecordId, StringEnum } from '#platform/schemas.ts';

export const STAGES = ['before', 'during', 'after', 'general'] as const;
export const VISIBILITIES = ['external', 'internal'] as const;
export type Stage = (typeof STAGES)[number];
export type Visibility = (typeof VISIBILITIES)[number];

export const TITLE_MAX = 100;
export const CAPTION_MAX = 2000;
export const FILENAME_MAX = 255;
export const CLIENT_UID_MAX = 64;

const Wire = (description: string) => Type.String({ description });

export const PhotoSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  url: Wire('A signed link to the photo (or video) that works without a key for one hour'),
  thumbnail_url: Nullable(Wire('A signed link to a 400 px JPEG; null for a video or an undecodable HEIC')),
  caption: Nullable(Type.String()),
  title: Nullable(Type.String()),
  stage: StringEnum(STAGES),
  visibility: StringEnum(VISIBILITIES),
  include_in_report: Type.Boolean({ description: 'Always false for internal photos' }),
  taken_at: Wire('UTC without suffix, microseconds'),
  taken_by: Nullable(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      username: Nullable(Type.String()),
      email: Nullable(Type.String()),
    }),
  ),
  lat: Nullable(Type.Number()),
  lng: Nullable(Type.Number()),
  compass_heading: Nullable(Type.Integer({ description: 'Degrees clockwise from north, 0 to 359' })),
  tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() })),
  daily_report_id: Nullable(Type.Integer({ description: 'The daily report the photo was taken for (crew app)' })),
  created_at: Wire('UTC without suffix, microseconds'),
  updated_at: Wire('UTC without suffix, microseconds'),
});

const Title = Nullable(Type.String({ maxLength: TITLE_MAX, description: `At most ${TITLE_MAX} characters` }));
const Caption = Nullable(Type.String({ maxLength: CAPTION_MAX }));
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });
const Heading = Type.Number({
  minimum: -1e6,
  maximum: 1e6,
  description: 'Degrees clockwise from north; wrapped to 0 to 359',
});
const TagIds = Type.Array(RecordId(), { maxItems: 100, description: 'Photo tags (GET /v1/photo-tags)' });

/** The JSON form of POST /v1/jobs/{job_id}/photos: the photo fetched from a public https url. */
export const UrlUploadBody = Body({
  url: Type.String({ maxLength: 2048, description: 'A public https image file, up to 15 MB' }),
  filename: Type.String({ maxLength: FILENAME_MAX }),
  caption: Caption,
  title: Title,
  stage: StringEnum(STAGES, { description: 'Default general' }),
  visibility: StringEnum(VISIBILITIES, { description: 'Default the workspace setting photo_default_visibility' }),
  include_in_report: Type.Boolean({ description: 'Default the workspace setting; ignored for internal' }),
  latitude: Latitude,
  longitude: Longitude,
  compass_heading: Heading,
  taken_at: Type.String({ maxLength: 64, description: 'ISO 8601; default EXIF, else now' }),
  tag_ids: TagIds,
  client_uid: Type.String({ minLength: 1, maxLength: CLIENT_UID_MAX }),
  daily_report_id: RecordId({ description: "A daily report of the photo's job (the crew app's report photos)" }),
});

export const UpdatePhotoBody = Body({
  caption: Caption,
  title: Title,
  stage: StringEnum(STAGES),
  visibility: StringEnum(VISIBILITIES, { description: 'internal clears include_in_report' }),
  include_in_report: Type.Boolean(),
  tag_ids: TagIds,
  latitude: Nullable(Latitude),
  longitude: Nullable(Longitude),
  compass_heading: Nullable(Heading),
  sort_order: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
});

export const JobPhotosParams = IdParam('job_id');
export const PhotoParams = IdParam();

export const PhotoListQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  stage: Type.Optional(StringEnum(STAGES)),
  visibility: Type.Optional(StringEnum(VISIBILITIES)),
  updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; oldest first' })),
  ...PageQuery(200),
});

/** What an upload carries besides the file, from either form (upload.ts reads multipart into it). */
export interface PhotoFields {
  filename?: string;
  caption?: string | null;
  title?: string | null;
  stage?: Stage;
  visibility?: Visibility;
  include_in_report?: boolean;
  latitude?: number;
  longitude?: number;
  compass_heading?: number;
  taken_at?: string;
  tag_ids?: number[];
  client_uid?: string;
  daily_report_id?: number;
}

export type UrlUploadInput = Static<typeof UrlUploadBody>;
export type UpdatePhotoInput = Static<typeof UpdatePhotoBody>;
export type PhotoListInput = Static<typeof PhotoListQuery>;
export type PhotoObject = Static<typeof PhotoSchema>;
