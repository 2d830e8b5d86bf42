// /v1/activities: interactions logged by other systems (a phone system, an email tool, a CRM),
// idempotent on source + external_id.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import { ActivityBody, ListActivitiesQuery } from './schemas.ts';
import { ActivitySchema } from './serialize.ts';
import { getActivity, listActivitiesOf, upsertActivity } from './service.ts';

export function activityRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/activities',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Activities'],
        summary:
          'Log an activity from another system; a repeat of source + external_id is 200 created false and updates it',
        body: ActivityBody,
        response: {
          200: One(ActivitySchema, { created: Type.Boolean() }),
          201: One(ActivitySchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { activity, created } = await upsertActivity(ctx(request), request.body);
      return reply.status(created ? 201 : 200).send({ data: activity, created });
    },
  );

  app.get(
    '/v1/activities',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Activities'],
        summary: 'List activities, newest first (with updated_after: oldest updated first)',
        querystring: ListActivitiesQuery,
        response: { 200: ListOf(ActivitySchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listActivitiesOf(
        ctx(request),
        {
          jobId: q.job_id,
          clientAccountId: q.client_account_id,
          contactId: q.contact_id,
          leadId: q.lead_id,
          type: q.type,
          source: q.source,
          externalId: q.external_id,
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/activities/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Activities'],
        summary: 'Read an activity',
        params: IdParam(),
        response: { 200: One(ActivitySchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await getActivity(ctx(request), id) };
    },
  );
}
