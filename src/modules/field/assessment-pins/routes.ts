// /v1/assessment-pins (document 3, Site assessments and pins). Pin photos go through the photos
// module's upload path: multipart/form-data (the multipart plugin registered for that route's
// scope only, up to PIN_PHOTOS_PER_REQUEST files named photo) or JSON with a url.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { VIDEO_MAX_BYTES } from '#field/photos/limits.ts';
import { UrlUploadBody } from '#field/photos/schemas.ts';
import { sentPhotos, uploadWithMultipart } from '#field/photos/upload.ts';
import { PIN_PHOTOS_PER_REQUEST, tooManyPinPhotos, uploadPinPhotos } from './photos.ts';
import { CreatePinBody, OnePin, PinList, PinListQuery, PinParams, PinSchema, UpdatePinBody } from './schemas.ts';
import { createPin, deletePin, getPin, listAssessmentPins, updatePin } from './service.ts';

const tags = ['Site assessments'];

export function assessmentPinRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/assessment-pins',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: 'Pins, newest first (updated_after: oldest changed first)',
        querystring: PinListQuery,
        response: { 200: PinList },
      },
    },
    async (request) => listAssessmentPins(ctx(request), request.query, originOf(request)),
  );

  app.post(
    '/v1/assessment-pins',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Add a pin to the given open assessment or the job's open one; a service pin on a job with none starts one",
        body: CreatePinBody,
        response: { 201: OnePin },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createPin(ctx(request), request.body) }),
  );

  app.get(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags, summary: 'A pin', params: PinParams, response: { 200: OnePin } },
    },
    async (request) => ({ data: await getPin(ctx(request), request.params.id, originOf(request)) }),
  );

  app.patch(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary: 'Change a pin (any create field except job_id and assessment_id)',
        params: PinParams,
        body: UpdatePinBody,
        response: { 200: OnePin },
      },
    },
    async (request) => ({ data: await updatePin(ctx(request), request.params.id, request.body, originOf(request)) }),
  );

  app.delete(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: { tags, summary: 'Delete a pin', params: PinParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await deletePin(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  const PinPhotosAnswer = Type.Object({
    data: PinSchema,
    photo_ids: Type.Array(Type.Integer(), { description: 'The photos this request added, in the order sent' }),
  });
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await scope.register(multipart, {
      limits: {
        files: PIN_PHOTOS_PER_REQUEST,
        fileSize: VIDEO_MAX_BYTES,
        fields: 40,
        fieldSize: 64 * 1024,
        parts: 40 + PIN_PHOTOS_PER_REQUEST,
        headerPairs: 200,
      },
      throwFileSizeLimit: true,
    });
    // Bodies that are neither JSON nor multipart: the spec's 400, not a 415.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(uploadWithMultipart(), undefined));
    scope.post(
      '/v1/assessment-pins/:id/photos',
      {
        config: { permissions: ['write_jobs'] },
        schema: {
          tags,
          summary:
            `Add photos to a pin: multipart/form-data (file field photo, repeatable up to ${PIN_PHOTOS_PER_REQUEST}; ` +
            'the other fields as in POST /v1/jobs/{job_id}/photos) or JSON with a public https url. Each becomes a ' +
            "photo of the pin's job; answers the pin and the photo_ids just added",
          params: PinParams,
          body: { content: { 'application/json': { schema: UrlUploadBody } } },
          response: { 200: PinPhotosAnswer, 201: PinPhotosAnswer },
        },
      },
      async (request, reply) => {
        const c = ctx(request);
        const sent = sentPhotos(c, request, { maxFiles: PIN_PHOTOS_PER_REQUEST, tooMany: tooManyPinPhotos });
        const { created, ...answer } = await uploadPinPhotos(c, request.params.id, sent, originOf(request));
        return reply.status(created ? 201 : 200).send(answer);
      },
    );
  });
}
