// GET /v1/objects/{signature}: the local adapter's keyless links (link.ts). The link is the
// credential, so the route is public; what it answers (the key, the type, the disposition, how
// long) is fixed by the signature. Registered by app.ts beside /v1/health: it belongs to the
// platform, not to an area. Under the S3 adapter links point at S3 and this route finds nothing.
import { Type } from '@sinclair/typebox';
import type { Env } from '#platform/context.ts';
import { forbidden } from '#platform/errors.ts';
import { ErrorRef } from '#platform/openapi.ts';
import type { ApiApp } from '#platform/routes.ts';
import { MAX_KEY_LENGTH } from './keys.ts';

const ObjectLinkParams = Type.Object({
  signature: Type.String({ description: 'HMAC-SHA256 of the query, base64url' }),
});
const ObjectLinkQuery = Type.Object({
  key: Type.String({ maxLength: MAX_KEY_LENGTH }),
  expires: Type.Integer({ minimum: 0, description: 'Unix seconds after which the link is refused' }),
  type: Type.String({ maxLength: 200, description: 'The Content-Type answered' }),
  disposition: Type.String({ maxLength: 2000, description: 'The Content-Disposition answered' }),
});
const ObjectAnswer = {
  description: 'The file, streamed, as the type the link was made with',
  headers: {
    'Content-Length': { type: 'integer', description: 'The size of the file in bytes' },
    'Content-Disposition': { type: 'string', description: 'inline or attachment, with the filename' },
    'Cache-Control': { type: 'string', description: 'private, max-age=<seconds the link still works>' },
  },
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
};

export function objectRoutes(app: ApiApp, env: Env): void {
  app.get(
    '/v1/objects/:signature',
    {
      config: { public: true },
      schema: {
        tags: ['Files'],
        summary:
          'Download a stored file or photo by its signed link (no key: the link is the credential until it expires)',
        security: [],
        params: ObjectLinkParams,
        querystring: ObjectLinkQuery,
        response: {
          200: ObjectAnswer,
          // link_invalid (changed, or not made here) and link_expired; 503 storage_unavailable.
          403: ErrorRef,
          503: ErrorRef,
        },
      },
    },
    async (request, reply) => {
      const storage = env.deps.storage;
      if (!storage.openLink)
        throw forbidden('Invalid link', { code: 'link_invalid', message: 'This server serves no object links' });
      const opened = await storage.openLink({ signature: request.params.signature, ...request.query });
      return (
        reply
          .header('content-type', opened.contentType)
          .header('content-length', opened.bytes)
          .header('content-disposition', opened.disposition)
          .header('cache-control', `private, max-age=${opened.remainingSeconds}`)
          // A photo link may be shown on another site (an integrator's app): not same-origin only.
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(opened.body)
      );
    },
  );
}
