// A customer's portal link (docs/api-decisions.md, Customer portal). The page a link opens is
// src/pages/portal.ts.
import { type ApiApp, originOf } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { OnePortalLink, PortalLinkParams } from './schemas.ts';
import { disablePortalLink, enablePortalLink, getPortalLink, rotatePortalLink } from './service.ts';

const tags = ['Customer portal'];

export function portalLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/client-accounts/:id/portal-link',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: "The customer's portal link (enabled false and portal_url null until it is turned on)",
        params: PortalLinkParams,
        response: { 200: OnePortalLink },
      },
    },
    async (request) => ({ data: await getPortalLink(ctx(request), request.params.id, originOf(request)) }),
  );

  app.post(
    '/v1/client-accounts/:id/portal-link',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Turn the customer's portal link on (201) or get the one that is on (200); 403 while the customer portal is off; nothing is sent",
        params: PortalLinkParams,
        response: { 201: OnePortalLink, 200: OnePortalLink },
      },
    },
    async (request, reply) => {
      const result = await enablePortalLink(ctx(request), request.params.id, originOf(request));
      return reply.status(result.turnedOn ? 201 : 200).send({ data: result.data });
    },
  );

  app.post(
    '/v1/client-accounts/:id/portal-link/disable',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary: "Turn the customer's portal link off: the old link stops",
        params: PortalLinkParams,
        response: { 200: OnePortalLink },
      },
    },
    async (request) => ({ data: await disablePortalLink(ctx(request), request.params.id, originOf(request)) }),
  );

  app.post(
    '/v1/client-accounts/:id/portal-link/rotate',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Give the customer's portal link a new address: the old one stops (200); a link that was off is turned on (201)",
        params: PortalLinkParams,
        response: { 200: OnePortalLink, 201: OnePortalLink },
      },
    },
    async (request, reply) => {
      const result = await rotatePortalLink(ctx(request), request.params.id, originOf(request));
      return reply.status(result.turnedOn ? 201 : 200).send({ data: result.data });
    },
  );
}
