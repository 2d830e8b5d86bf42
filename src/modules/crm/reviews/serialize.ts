// The review object (document 2, Tag, portal message, review, share links: id, job_id,
// client_name, client_email, submitted, rating, content, is_public, review_url, submitted_at,
// created_at). Until the customer answers, rating and content are null and is_public false.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { ReviewTable } from '#db/tables.ts';
import type { LinkTokens } from '#platform/link-tokens.ts';
import { Nullable } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';

export type Review = Selectable<ReviewTable>;

export const REVIEW_LINK_KIND = 'review';

/** The customer page of a token: `<origin>/share/reviews/<token>`. */
export const reviewUrl = (origin: string, token: string) => `${origin}/share/reviews/${token}`;

export const ReviewSchema = Type.Object({
  id: Type.Integer(),
  job_id: Type.Integer(),
  client_name: Nullable(Type.String()),
  client_email: Nullable(Type.String()),
  submitted: Type.Boolean({ description: 'true once the customer has written the review' }),
  rating: Nullable(Type.Integer({ minimum: 1, maximum: 5, description: 'Stars, 1 to 5; null until submitted' })),
  content: Nullable(Type.String()),
  is_public: Type.Boolean({ description: 'The customer allows the review to be shown publicly' }),
  review_url: Type.String({ description: 'The page where the customer writes the review (no key needed)' }),
  submitted_at: Nullable(Type.String()),
  created_at: Type.String(),
});

export async function reviewObject(links: LinkTokens, r: Review, origin: string) {
  return {
    id: r.id,
    job_id: r.job_id,
    client_name: r.client_name,
    client_email: r.client_email,
    submitted: r.submitted === 1,
    rating: r.rating,
    content: r.content,
    is_public: r.is_public === 1,
    review_url: reviewUrl(origin, await links.tokenOf(REVIEW_LINK_KIND, r.token_salt)),
    submitted_at: zWire(r.submitted_at),
    created_at: zWire(r.created_at),
  };
}
