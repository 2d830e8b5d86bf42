// /v1/activities: interactions logged by other systems (a phone system, an email tool, a CRM),
// idempotent on source + external_id.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { Body, ExternalRef, IdParam, ListOf, Nullable, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { ACTIVITY_TYPES, ActivitySchema, DIRECTIONS } from './serialize.ts';
import { getActivity, listActivitiesOf, upsertActivity } from './service.ts';

const ActivityType = Type.Union(ACTIVITY_TYPES.map((t) => Type.Literal(t)));

const body = Body({
  type: ActivityType,
  subject: Nullable(Type.String({ maxLength: 500 })),
  body: Nullable(Type.String({ maxLength: 50_000 })),
  outcome: Nullable(Type.String({ maxLength: 255, description: 'e.g. connected, left voicemail; a call may send only this' })),
  direction: Type.Union([...DIRECTIONS.map((d) => Type.Literal(d)), Type.Null()]),
  duration_seconds: Nullable(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  occurred_at: Type.String({ maxLength: 64, description: 'ISO 8601 (no zone means UTC); default now' }),
  source: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S', description: "the logging system; default 'api'" }),
  external_id: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'with source, makes the call idempotent' }),
  associations: Body({
    job_id: Nullable(RecordId()),
    job_external_ref: Nullable(ExternalRef()),
    client_account_id: Nullable(RecordId()),
    client_account_external_ref: Nullable(ExternalRef()),
    contact_id: Nullable(RecordId()),
    lead_id: Nullable(RecordId()),
  }),
}, { required: ['type'] });

export function activityRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post('/v1/activities', {
    config: { permissions: ['write_jobs'] },
    schema: {
      tags: ['Activities'],
      summary: 'Log an activity from another system; a repeat of source + external_id is 200 created false and updates it',
      body,
      response: { 200: One(ActivitySchema, { created: Type.Boolean() }), 201: One(ActivitySchema, { created: Type.Boolean() }) },
    },
  }, async (request, reply) => {
    const { activity, created } = await upsertActivity(ctx(request), request.body);
    return reply.status(created ? 201 : 200).send({ data: activity, created });
  });

  app.get('/v1/activities', {
    config: { permissions: ['read_jobs'] },
    schema: {
      tags: ['Activities'], summary: 'List activities, newest first (with updated_after: oldest updated first)',
      querystring: Type.Object({
        job_id: Type.Optional(RecordId()),
        client_account_id: Type.Optional(RecordId()),
        contact_id: Type.Optional(RecordId()),
        lead_id: Type.Optional(RecordId()),
        type: Type.Optional(ActivityType),
        source: Type.Optional(Type.String({ maxLength: 50 })),
        external_id: Type.Optional(Type.String({ maxLength: 255 })),
        updated_after: Type.Optional(Type.String({ description: 'ISO 8601; no zone means UTC' })),
        ...PageQuery(200),
      }),
      response: { 200: ListOf(ActivitySchema) },
    },
  }, async (request) => {
    const q = request.query;
    const page = pageOf(q);
    const { data, total } = await listActivitiesOf(ctx(request), {
      jobId: q.job_id, clientAccountId: q.client_account_id, contactId: q.contact_id, leadId: q.lead_id, type: q.type,
      source: q.source, externalId: q.external_id, updatedAfter: syncWindow(q.updated_after, 'second'),
    }, page);
    return listEnvelope(data, total, page);
  });

  app.get('/v1/activities/:id', {
    config: { permissions: ['read_jobs'] },
    schema: { tags: ['Activities'], summary: 'Read an activity', params: IdParam(), response: { 200: One(ActivitySchema) } },
  }, async (request) => {
    const { id } = request.params;
    return { data: await getActivity(ctx(request), id) };
  });
}
