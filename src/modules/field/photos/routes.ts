// /v1/jobs/{job_id}/photos and /v1/photos (document 3, Photos, photo tags, files). The upload
// takes multipart/form-data (the multipart plugin is registered for this route's scope only) or
// JSON with a url; any other body is 400 Upload with multipart/form-data.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type ApiApp, CREW_WRITE, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { VIDEO_MAX_BYTES } from './limits.ts';
import {
  JobPhotosParams,
  PhotoListQuery,
  PhotoParams,
  PhotoSchema,
  UpdatePhotoBody,
  UrlUploadBody,
} from './schemas.ts';
import { uploadJobPhoto } from './receive.ts';
import { deletePhoto, getPhoto, jobPhotos, listWorkspacePhotos, updatePhoto } from './service.ts';
import { sentPhotos, uploadWithMultipart } from './upload.ts';

const TAGS = ['Photos'];

export function photoRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await scope.register(multipart, {
      limits: { files: 1, fileSize: VIDEO_MAX_BYTES, fields: 40, fieldSize: 64 * 1024, parts: 42, headerPairs: 200 },
      throwFileSizeLimit: true,
    });
    // Bodies that are neither JSON nor multipart: the spec's 400, not a 415.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(uploadWithMultipart(), undefined));
    scope.post(
      '/v1/jobs/:job_id/photos',
      {
        // Crews photograph their work: a crew login may upload (platform/auth.ts).
        config: CREW_WRITE,
        schema: {
          tags: TAGS,
          summary:
            'Upload one photo or phone video: multipart/form-data (file field photo, up to 15 MB for images and ' +
            `${VIDEO_MAX_BYTES / 1024 / 1024} MB for video; the other fields as in the JSON form, tag_ids repeated, a comma list ` +
            'or a JSON array) or JSON with a public https url; a repeated client_uid answers 200 with the earlier photo',
          params: JobPhotosParams,
          body: { content: { 'application/json': { schema: UrlUploadBody } } },
          response: {
            200: One(PhotoSchema, { created: Type.Boolean() }),
            201: One(PhotoSchema, { created: Type.Boolean() }),
          },
        },
      },
      async (request, reply) => {
        const c = ctx(request);
        const result = await uploadJobPhoto(c, request.params.job_id, sentPhotos(c, request), originOf(request));
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );
  });

  app.get(
    '/v1/jobs/:job_id/photos',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: "The job's photos in gallery order (sort_order, then taken_at)",
        params: JobPhotosParams,
        response: { 200: Type.Object({ data: Type.Array(PhotoSchema) }) },
      },
    },
    async (request) => jobPhotos(ctx(request), request.params.job_id, originOf(request)),
  );

  app.get(
    '/v1/photos',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Photos of the workspace, newest first (updated_after: oldest changed first)',
        querystring: PhotoListQuery,
        response: { 200: ListOf(PhotoSchema) },
      },
    },
    async (request) => listWorkspacePhotos(ctx(request), request.query, originOf(request)),
  );

  app.get(
    '/v1/photos/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags: TAGS, summary: 'One photo', params: PhotoParams, response: { 200: One(PhotoSchema) } },
    },
    async (request) => getPhoto(ctx(request), request.params.id, originOf(request)),
  );

  app.patch(
    '/v1/photos/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Change a photo (only the fields sent; internal clears include_in_report; tag_ids replaces)',
        params: PhotoParams,
        body: UpdatePhotoBody,
        response: { 200: One(PhotoSchema) },
      },
    },
    async (request) => updatePhoto(ctx(request), request.params.id, request.body, originOf(request)),
  );

  app.delete(
    '/v1/photos/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete a photo and its stored files (irreversible)',
        params: PhotoParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deletePhoto(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
