// /v1/jobs/{job_id}/portal-messages (document 2, Job details, site, tags, portal, reviews, share
// links): what the customer reads and answers on their portal page.
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { One } from '#platform/schemas.ts';
import { Type } from '@sinclair/typebox';
import { CreatePortalMessageBody, JobParams, ListPortalMessagesQuery } from './schemas.ts';
import { PortalMessageSchema } from './serialize.ts';
import { listPortalMessages, postPortalMessage } from './service.ts';

const tags = ['Customer portal'];

export function portalMessageRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/jobs/:job_id/portal-messages',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: "The job's portal messages: the most recent N (limit, default 100, max 200), oldest first",
        params: JobParams,
        querystring: ListPortalMessagesQuery,
        response: { 200: Type.Object({ data: Type.Array(PortalMessageSchema) }) },
      },
    },
    async (request) => ({
      data: await listPortalMessages(ctx(request), request.params.job_id, request.query.limit),
    }),
  );

  app.post(
    '/v1/jobs/:job_id/portal-messages',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Post a message the customer sees in their portal, signed by the key's user; it is not emailed or texted",
        params: JobParams,
        body: CreatePortalMessageBody,
        response: { 201: One(PortalMessageSchema) },
      },
    },
    async (request, reply) => {
      const message = await postPortalMessage(ctx(request), request.params.job_id, request.body);
      return reply.status(201).send({ data: message });
    },
  );
}
