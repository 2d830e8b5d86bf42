// The customer pages (GUIDE "Customer pages"): server-rendered HTML a customer opens from a link,
// no API key. Each page sits in its area beside the visit.ts that decides what it shows
// (`estimating/proposals/page.ts`) and is named in the area's manifest (`pages`); app.ts installs
// them all here, outside /v1 (no key lookup, no API rate limit, no OpenAPI operation: pages are not
// API calls).
//
// Paths: /share/<kind>/<token>. A kind's page finds its live link by the token's hash, answers
// sendGone (410) for an expired or retired link and sendUnknownLink (404) otherwise. Params,
// queries and form posts are validated by TypeBox schemas as /v1 routes are, and text holding NUL
// is refused as the JSON API refuses it: a failure is a clear HTML page (pages/errors.ts), and
// nothing is stored.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Env } from '#platform/context.ts';
import { MAX_PATH_SEGMENT } from '#platform/error-handler.ts';
import { installTextGuard } from '#platform/text-guard.ts';
import { installPageErrors } from './errors.ts';
import { faviconIco } from './favicon.ts';

/** The instance a page module registers on: typed from its schemas like an API route module. */
export type PageApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** One page kind's routes, registered with the process's database and deps. */
export type PageModule = (app: PageApp, env: Env) => void;

/** A link's token in the path: a token longer than any we make names no link (404, not 400). */
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: MAX_PATH_SEGMENT }) });

/** Every page kind, in one scope hidden from the OpenAPI document. */
export async function installPages(app: FastifyInstance, env: Env, pages: readonly PageModule[]): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    installTextGuard(scope);
    installPageErrors(scope);
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    // A browser asks every page's origin for its icon; answer it rather than log a 404 per page view.
    typed.get('/favicon.ico', async (_request, reply) =>
      reply
        .header('content-type', 'image/x-icon')
        .header('cache-control', 'public, max-age=86400')
        .send(await faviconIco()),
    );
    for (const register of pages) register(typed, env);
  });
}

/**
 * A page kind's own plugin scope (so its form parser and limits stay its own), typed like the page
 * app so its handlers read params, queries and forms from their schemas.
 */
export function pageScope(app: PageApp, build: (scope: PageApp) => void | Promise<void>): void {
  app.register(async (scope) => build(scope.withTypeProvider<TypeBoxTypeProvider>()));
}
