// POST /v1/condition/paser, POST /v1/condition/pci (document 3, "Condition ratings"; Read
// measurements) and a site's ratings, GET /v1/locations/{id}/condition-ratings. A rating body is
// JSON or multipart/form-data (the multipart plugin is registered for this scope only); every
// refusal of the body is the rating's own {error, code}, so the JSON schema documents the body and
// request.ts checks it. A rating counts against the key's rate limit only when it succeeds
// (document 1).
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import type { ApiApp } from '#platform/routes.ts';
import { ListOf } from '#platform/schemas.ts';
import type { RatingType } from './compose.ts';
import { imageTooLarge, invalidRequest } from './errors.ts';
import { IMAGE_MAX_BYTES } from './image.ts';
import { RatingBodySchema, RatingResultSchema, SiteRatingsParams, SiteRatingsQuery } from './schemas.ts';
import { type RatingBody, rateCondition } from './service.ts';
import { siteRatings } from './history.ts';

const TAGS = ['Condition ratings'];
const READ_MEASUREMENTS = { permissions: ['read_measurements' as const] };
/** base64 of a 15 MB image is 20 MB; the rest of a body is small. */
const JSON_BODY_LIMIT = 21 * 1024 * 1024;

const SUMMARY: Record<RatingType, string> = {
  paser:
    'Rate asphalt 1 to 10 by the PASER manual from an image (upload, base64 or image_url) or a place (polygon, lat and lng, or address) seen in aerial imagery; JSON or multipart (file field image, polygon as a JSON string)',
  pci: 'Rate pavement 0 to 100 by ASTM D6433 PCI (asphalt; concrete as a visual estimate) from an image or a place seen in aerial imagery; JSON or multipart (file field image, polygon as a JSON string)',
};

/** The form's text fields and its one file (`image`), read whole (at most 15 MB). */
async function formBody(request: FastifyRequest): Promise<RatingBody> {
  const fields: Record<string, unknown> = {};
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image' || file !== null) {
          part.file.resume();
          throw invalidRequest('Send one file part, named image', 'image');
        }
        file = await part.toBuffer();
      } else {
        if (part.fieldname in fields) throw invalidRequest(`${part.fieldname} was sent twice`, part.fieldname);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    const code = (err as { code?: string } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw imageTooLarge('The image is over 15 MB; at most 15 MB is rated');
    if (code?.startsWith('FST_')) throw invalidRequest('The multipart body could not be read');
    throw err;
  }
  return { fields, file, form: true };
}

export function conditionRatingRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await scope.register(multipart, {
      limits: { files: 1, fileSize: IMAGE_MAX_BYTES, fields: 20, fieldSize: 64 * 1024, parts: 21, headerPairs: 200 },
      throwFileSizeLimit: true,
    });
    // Bodies that are neither JSON nor multipart: the rating's 400.
    scope.addContentTypeParser('*', (_request, _payload, done) =>
      done(invalidRequest('Send the body as JSON or multipart/form-data'), undefined),
    );
    for (const type of ['paser', 'pci'] as const)
      scope.post(
        `/v1/condition/${type}`,
        {
          bodyLimit: JSON_BODY_LIMIT,
          attachValidation: true,
          config: { ...READ_MEASUREMENTS, countOnSuccess: true },
          schema: {
            tags: TAGS,
            summary: SUMMARY[type],
            body: { content: { 'application/json': { schema: RatingBodySchema } } },
            response: { 200: RatingResultSchema },
          },
        },
        async (request) => {
          const body: RatingBody = request.isMultipart()
            ? await formBody(request)
            : { fields: (request.body ?? {}) as Record<string, unknown>, file: null, form: false };
          if (!request.isMultipart() && (typeof request.body !== 'object' || Array.isArray(request.body)))
            throw invalidRequest('The body must be a JSON object');
          return rateCondition(ctx(request), type, body);
        },
      );
  });

  app.get(
    '/v1/locations/:id/condition-ratings',
    {
      config: READ_MEASUREMENTS,
      schema: {
        tags: TAGS,
        summary: "A site's condition ratings, newest first (ratings made with its location_id)",
        params: SiteRatingsParams,
        querystring: SiteRatingsQuery,
        response: { 200: ListOf(RatingResultSchema) },
      },
    },
    async (request) => siteRatings(ctx(request), request.params.id, pageOf(request.query)),
  );
}
