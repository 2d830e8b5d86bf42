// /v1/jobs/{job_id}/photo-selection-shares (document 2, Job details, site, tags, portal, reviews,
// share links): links to chosen photos of a job. Nothing is sent to anyone: the answer carries the
// link for the caller to send. Its page is src/pages/photo-selection.ts.
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { SHARE_LINK_TAGS } from '#field/photo-share-links/routes.ts';
import {
  CreatePhotoSelectionShareBody,
  JobSharesParams,
  PhotoSelectionShareSchema,
  SelectionShareListQuery,
  SelectionShareParams,
} from './schemas.ts';
import { createSelectionShare, listSelectionShares, revokeSelectionShare } from './service.ts';

export function photoSelectionShareRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:job_id/photo-selection-shares',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        operationId: 'list_job_photo_selection_shares',
        tags: SHARE_LINK_TAGS,
        summary: "The job's links to chosen photos, newest first (revoked and expired ones included)",
        params: JobSharesParams,
        querystring: SelectionShareListQuery,
        response: { 200: ListOf(PhotoSelectionShareSchema) },
      },
    },
    async (request) => listSelectionShares(ctx(request), request.params.job_id, request.query, originOf(request)),
  );

  app.post(
    '/v1/jobs/:job_id/photo-selection-shares',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        operationId: 'create_job_photo_selection_share',
        tags: SHARE_LINK_TAGS,
        summary:
          'Make a link showing the chosen external photos of the job, in the order given (expires in 7, 30 or 90 ' +
          'days; default 30). Photos added to the job later never appear. Sends nothing',
        params: JobSharesParams,
        body: CreatePhotoSelectionShareBody,
        response: { 201: One(PhotoSelectionShareSchema) },
      },
    },
    async (request, reply) => {
      const data = await createSelectionShare(ctx(request), request.params.job_id, request.body, originOf(request));
      return reply.status(201).send({ data });
    },
  );

  app.post(
    '/v1/jobs/:job_id/photo-selection-shares/:share_id/revoke',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        operationId: 'revoke_job_photo_selection_share',
        tags: SHARE_LINK_TAGS,
        summary: 'Turn a chosen-photo link off for good (its page says it was revoked); a second call answers the same',
        params: SelectionShareParams,
        response: { 200: One(PhotoSelectionShareSchema) },
      },
    },
    async (request) =>
      revokeSelectionShare(ctx(request), request.params.job_id, request.params.share_id, originOf(request)),
  );
}
