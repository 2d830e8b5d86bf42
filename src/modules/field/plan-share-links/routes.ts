// Capital plan links (document 2: POST /v1/locations/{location_id}/plan-share-link, …/disable,
// …/rotate), and the GET the spec leaves out (docs/api-decisions.md, Assessment and capital plan
// links). The page a link opens is src/pages/capital-plan.ts.
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { OnePlanShareLink, PlanLinkParams } from './schemas.ts';
import { disablePlanShareLink, enablePlanShareLink, getPlanShareLink, rotatePlanShareLink } from './service.ts';

const tags = ['Sites'];

export function planShareLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/locations/:id/plan-share-link',
    {
      config: READ,
      schema: {
        tags,
        summary: "The site's capital plan link (enabled false and share_url null until it is turned on)",
        params: PlanLinkParams,
        response: { 200: OnePlanShareLink },
      },
    },
    async (request) => ({ data: await getPlanShareLink(ctx(request), request.params.id, originOf(request)) }),
  );

  app.post(
    '/v1/locations/:id/plan-share-link',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Turn the site's capital plan link on (201) or get the one that is on (200); 403 when capital planning is off; nothing is sent",
        params: PlanLinkParams,
        response: { 201: OnePlanShareLink, 200: OnePlanShareLink },
      },
    },
    async (request, reply) => {
      const result = await enablePlanShareLink(ctx(request), request.params.id, originOf(request));
      return reply.status(result.turnedOn ? 201 : 200).send({ data: result.data });
    },
  );

  app.post(
    '/v1/locations/:id/plan-share-link/disable',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Turn the site's capital plan link off: the old link stops",
        params: PlanLinkParams,
        response: { 200: OnePlanShareLink },
      },
    },
    async (request) => ({ data: await disablePlanShareLink(ctx(request), request.params.id, originOf(request)) }),
  );

  app.post(
    '/v1/locations/:id/plan-share-link/rotate',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Give the site's capital plan link a new address: the old one stops (200); a link that was off is turned on (201)",
        params: PlanLinkParams,
        response: { 200: OnePlanShareLink, 201: OnePlanShareLink },
      },
    },
    async (request, reply) => {
      const result = await rotatePlanShareLink(ctx(request), request.params.id, originOf(request));
      return reply.status(result.turnedOn ? 201 : 200).send({ data: result.data });
    },
  );
}
