// /v1/jobs/{job_id}/photo-share-link request and answer schemas (document 2, Tag, portal message,
// review, share links: Photo report link).
import { type Static, Type } from '@sinclair/typebox';
import { Body, IdParam, Nullable, NullableInstant, StringEnum } from '#platform/schemas.ts';

export const ACCESS_MODES = ['public', 'code'] as const;
export const ACCESS_CODE_MIN = 4;
export const ACCESS_CODE_MAX = 64;
export const EXPIRES_IN_DAYS_MAX = 365;

export const PhotoShareLinkSchema = Type.Object({
  job_id: Type.Integer(),
  enabled: Type.Boolean({ description: 'False until the link is made, and while it is turned off' }),
  share_url: Nullable(
    Type.String({
      description: 'The customer link (/share/photos/<token>); null until made, while turned off and while expired',
    }),
  ),
  access_mode: StringEnum(ACCESS_MODES, { description: 'code: the page asks for the access code first' }),
  has_access_code: Type.Boolean({ description: 'The code itself is never shown' }),
  expires_at: NullableInstant(),
  is_expired: Type.Boolean(),
});

const AccessCode = Type.String({
  minLength: ACCESS_CODE_MIN,
  maxLength: ACCESS_CODE_MAX,
  description: `${ACCESS_CODE_MIN} to ${ACCESS_CODE_MAX} characters, no spaces at either end; the page asks for it (access_mode code). Stored hashed, never shown`,
});
const ExpiresInDays = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: EXPIRES_IN_DAYS_MAX,
    description: `1 to ${EXPIRES_IN_DAYS_MAX} days from now; null: never expires`,
  }),
);

export const CreatePhotoShareLinkBody = Body({ access_code: AccessCode, expires_in_days: ExpiresInDays });

export const UpdatePhotoShareLinkBody = Body({
  access_code: AccessCode,
  public: Type.Boolean({ description: 'true removes the access code (access_mode public)' }),
  expires_in_days: ExpiresInDays,
  enabled: Type.Boolean({
    description: 'false turns the link off (its page says so); true turns it on again with a new share_url',
  }),
});

export const JobShareParams = IdParam('job_id');

export type PhotoShareLinkObject = Static<typeof PhotoShareLinkSchema>;
export type CreatePhotoShareLinkInput = Static<typeof CreatePhotoShareLinkBody>;
export type UpdatePhotoShareLinkInput = Static<typeof UpdatePhotoShareLinkBody>;
