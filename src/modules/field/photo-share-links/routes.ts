// /v1/jobs/{job_id}/photo-share-link (document 2, Job details, site, tags, portal, reviews, share
// links): the job's photo report link. Nothing is sent to anyone: the answer carries the link for
// the caller to send. Its page is src/pages/photo-report.ts.
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { One, bodyOptional } from '#platform/schemas.ts';
import { CreatePhotoShareLinkBody, JobShareParams, PhotoShareLinkSchema, UpdatePhotoShareLinkBody } from './schemas.ts';
import { createPhotoShareLink, getPhotoShareLink, updatePhotoShareLink } from './service.ts';

export const SHARE_LINK_TAGS = ['Share links'];

export function photoShareLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:job_id/photo-share-link',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        operationId: 'get_job_photo_share_link',
        tags: SHARE_LINK_TAGS,
        summary: "The job's photo report link and its settings (enabled false until made)",
        params: JobShareParams,
        response: { 200: One(PhotoShareLinkSchema) },
      },
    },
    async (request) => getPhotoShareLink(ctx(request), request.params.job_id, originOf(request)),
  );

  app.post(
    '/v1/jobs/:job_id/photo-share-link',
    {
      config: { permissions: ['write_jobs'] },
      preValidation: bodyOptional,
      schema: {
        operationId: 'create_job_photo_share_link',
        tags: SHARE_LINK_TAGS,
        summary:
          "Make the job's photo report link (201), showing its external photos marked for reports; when it exists, " +
          'answers it as it is (200; change it with PATCH). Sends nothing',
        params: JobShareParams,
        body: CreatePhotoShareLinkBody,
        response: { 200: One(PhotoShareLinkSchema), 201: One(PhotoShareLinkSchema) },
      },
    },
    async (request, reply) => {
      const result = await createPhotoShareLink(ctx(request), request.params.job_id, request.body, originOf(request));
      return reply.status(result.created ? 201 : 200).send({ data: result.data });
    },
  );

  app.patch(
    '/v1/jobs/:job_id/photo-share-link',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        operationId: 'update_job_photo_share_link',
        tags: SHARE_LINK_TAGS,
        summary:
          'Change the photo report link: access_code (asks for it), public true (removes it), expires_in_days ' +
          '(null: never), enabled (false turns it off; true turns it on again with a new share_url)',
        params: JobShareParams,
        body: UpdatePhotoShareLinkBody,
        response: { 200: One(PhotoShareLinkSchema) },
      },
    },
    async (request) => updatePhotoShareLink(ctx(request), request.params.job_id, request.body, originOf(request)),
  );
}
