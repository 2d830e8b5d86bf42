// /v1/jobs/{job_id}/photo-selection-shares request and answer schemas (document 2, Job details,
// site, tags, portal, reviews, share links): links to chosen photos of a job.
import { type Static, Type } from '@sinclair/typebox';
import { Body, Nullable, NullableInstant, PageQuery, RecordId } from '#platform/schemas.ts';

export const SELECTION_DAYS = [7, 30, 90] as const;
export const SELECTION_TITLE_MAX = 200;
export const SELECTION_PHOTOS_MAX = 200;

export const PhotoSelectionShareSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  title: Nullable(Type.String()),
  photo_ids: Type.Array(Type.Integer(), {
    description:
      'The chosen photos the page shows, in the order given: a photo deleted since drops out, and one made internal is left out while it is internal',
  }),
  photo_count: Type.Integer({ description: 'How many photos the page shows (photo_ids)' }),
  share_url: Nullable(
    Type.String({ description: 'The customer link (/share/photo-selections/<token>); null once revoked or expired' }),
  ),
  expires_at: Type.String({ description: 'UTC, Z, to the second' }),
  is_expired: Type.Boolean(),
  revoked_at: NullableInstant(),
  created_at: Type.String({ description: 'UTC, Z, to the second' }),
});

export const CreatePhotoSelectionShareBody = Body(
  {
    photo_ids: Type.Array(RecordId(), {
      minItems: 1,
      maxItems: SELECTION_PHOTOS_MAX,
      description: `External photos of this job (1 to ${SELECTION_PHOTOS_MAX}), shown in this order; a repeat counts once`,
    }),
    title: Nullable(
      Type.String({
        maxLength: SELECTION_TITLE_MAX,
        description: `The page's heading, at most ${SELECTION_TITLE_MAX} characters`,
      }),
    ),
    expires_in_days: Type.Unsafe<(typeof SELECTION_DAYS)[number]>({
      type: 'integer',
      enum: [...SELECTION_DAYS],
      description: '7, 30 or 90; default 30',
    }),
  },
  { required: ['photo_ids'] },
);

export const JobSharesParams = Type.Object({ job_id: RecordId() });
export const SelectionShareParams = Type.Object({ job_id: RecordId(), share_id: RecordId() });
export const SelectionShareListQuery = Type.Object({ ...PageQuery(200) });

export type PhotoSelectionShareObject = Static<typeof PhotoSelectionShareSchema>;
export type CreatePhotoSelectionShareInput = Static<typeof CreatePhotoSelectionShareBody>;
