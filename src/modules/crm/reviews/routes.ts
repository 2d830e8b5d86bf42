// Reviews (document 2, Job details, site, tags, portal, reviews, share links): a review request
// makes a link for the caller to send (nothing is sent); the list shows links and reviews.
import type { ApiApp } from '#platform/routes.ts';
import { originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { JobParams, ListReviewsQuery, ReviewRequestBody } from './schemas.ts';
import { ReviewSchema } from './serialize.ts';
import { listReviews, requestReview } from './service.ts';

const tags = ['Reviews'];

export function reviewRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/jobs/:job_id/review-request',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Make a review link for the job's customer (client name and email default from the job); nothing is sent",
        params: JobParams,
        body: ReviewRequestBody,
        response: { 201: One(ReviewSchema) },
      },
    },
    async (request, reply) => {
      const review = await requestReview(ctx(request), request.params.job_id, request.body, originOf(request));
      return reply.status(201).send({ data: review });
    },
  );

  app.get(
    '/v1/reviews',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: 'Review links and reviews, newest first (job_id; submitted true: written, false: waiting)',
        querystring: ListReviewsQuery,
        response: { 200: ListOf(ReviewSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { data, total } = await listReviews(
        ctx(request),
        { jobId: request.query.job_id, submitted: request.query.submitted },
        page,
        originOf(request),
      );
      return listEnvelope(data, total, page);
    },
  );
}
