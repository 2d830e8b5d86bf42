// /v1/photo-tags: list and create (document 3, Photos, photo tags, files), and the update and
// delete the spec leaves to us (docs/api-decisions.md, Photo tags).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { One } from '#platform/schemas.ts';
import { CreatePhotoTagBody, PhotoTagParams, PhotoTagSchema, UpdatePhotoTagBody } from './schemas.ts';
import { createPhotoTag, deletePhotoTag, listPhotoTags, photoTagObject, updatePhotoTag } from './service.ts';

const TAGS = ['Photos'];

export function photoTagRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/photo-tags',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: TAGS,
        summary: "The workspace's photo tags, A to Z",
        response: { 200: Type.Object({ data: Type.Array(PhotoTagSchema) }) },
      },
    },
    async (request) => ({ data: (await listPhotoTags(ctx(request))).map(photoTagObject) }),
  );

  app.post(
    '/v1/photo-tags',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Create a photo tag; a taken name (any case) is 409 with the existing tag',
        body: CreatePhotoTagBody,
        response: { 201: One(PhotoTagSchema) },
      },
    },
    async (request, reply) => {
      const tag = await createPhotoTag(ctx(request), request.body);
      return reply.status(201).send({ data: photoTagObject(tag) });
    },
  );

  app.patch(
    '/v1/photo-tags/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: TAGS,
        summary: 'Change a photo tag (only the fields sent; description null clears it)',
        params: PhotoTagParams,
        body: UpdatePhotoTagBody,
        response: { 200: One(PhotoTagSchema) },
      },
    },
    async (request) => ({ data: photoTagObject(await updatePhotoTag(ctx(request), request.params.id, request.body)) }),
  );

  app.delete(
    '/v1/photo-tags/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete a photo tag: it comes off every photo and pin that carries it',
        params: PhotoTagParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deletePhotoTag(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
