// /v1/jobs/{job_id}/photos and /v1/photos (document 3, Photos, photo tags, files). The upload
// takes multipart/form-data (the multipart plugin is registered for this route's scope only) or
// JSON with a url; any other body is 400 Upload with multipart/form-data.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { ListOf, One } from '#platform/schemas.ts';
import { VIDEO_MAX_BYTES } from './limits.ts';
import {
  JobPhotosParams,
  PhotoListQuery,
  PhotoParams,
  PhotoSchema,
  UpdatePhotoBody,
  UrlUploadBody,
  type UrlUploadInput,
} from './schemas.ts';
import {
  checkFields,
  deletePhoto,
  getPhoto,
  jobPhotos,
  listWorkspacePhotos,
  preflightUpload,
  recordPhotoUpload,
  updatePhoto,
} from './service.ts';
import { storeFromUrl } from './from-url.ts';
import { fileAndUrl, noPhoto, readMultipart } from './upload.ts';

const TAGS = ['Photos'];

/**
 * The JSON form with its url. Fastify has validated the body against UrlUploadBody before the
 * handler runs, so the url is the one thing left to see (a body without one sent no photo).
 */
export function isUrlUpload(body: unknown): body is UrlUploadInput & { url: string } {
  return typeof body === 'object' && body !== null && 'url' in body && typeof body.url === 'string';
}

export const uploadWithMultipart = () =>
  badRequest('Upload with multipart/form-data', {
    code: 'invalid_request',
    message: 'Send the photo as multipart/form-data (field photo), or JSON with a url',
  });

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
        config: { permissions: ['write_jobs'] },
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
        const jobId = request.params.job_id;
        if (!request.isMultipart()) {
          const type = String(request.headers['content-type'] ?? '');
          if (!/^application\/json\b/i.test(type) || request.body == null) throw uploadWithMultipart();
          await preflightUpload(c, jobId);
          const body: unknown = request.body;
          if (!isUrlUpload(body)) throw noPhoto();
          const { url, ...fields } = body;
          checkFields(fields);
          const stored = await storeFromUrl(c, url);
          const result = await recordPhotoUpload(c, jobId, stored, fields, originOf(request));
          return reply.status(result.created ? 201 : 200).send(result);
        }
        await preflightUpload(c, jobId);
        const form = await readMultipart(c, request);
        const drop = () => (form.stored ? c.deps.storage.delete(form.stored.key).catch(() => undefined) : undefined);
        try {
          if (form.stored && form.url !== undefined) throw fileAndUrl();
          if (!form.stored) throw noPhoto();
          checkFields(form.fields);
        } catch (err) {
          await drop();
          throw err;
        }
        const result = await recordPhotoUpload(c, jobId, form.stored, form.fields, originOf(request));
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
