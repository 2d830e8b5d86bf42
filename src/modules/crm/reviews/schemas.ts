// Request schemas of reviews (document 2: POST /v1/jobs/{job_id}/review-request, GET /v1/reviews).
import { Type, type Static } from '@sinclair/typebox';
import { Body, Nullable, PageQuery, RecordId } from '#platform/schemas.ts';

export const JobParams = Type.Object({ job_id: RecordId() });

export const ReviewRequestBody = Body({
  client_name: Nullable(
    Type.String({ maxLength: 200, description: "Default: the job's contact, else its bill-to name, else its company" }),
  ),
  client_email: Nullable(
    Type.String({
      maxLength: 255,
      description: "Default: the job's contact email, else its bill-to email, else the customer's",
    }),
  ),
});
export type ReviewRequestInput = Static<typeof ReviewRequestBody>;

export const ListReviewsQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  submitted: Type.Optional(Type.Boolean({ description: 'true: written reviews; false: links still waiting' })),
  ...PageQuery(200),
});
