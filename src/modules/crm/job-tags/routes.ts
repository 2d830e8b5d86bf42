// /v1/job-tags and /v1/jobs/{job_id}/tags.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { Body, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { addTagsToJob, createTag, listTags, removeTagFromJob, tagObject } from './service.ts';

export const TagSchema = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });
const Id = RecordId();

export function jobTagRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/job-tags',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Tags'],
        summary: "The workspace's job tags, A to Z",
        querystring: Type.Object({ q: Type.Optional(Type.String()), ...PageQuery(200) }),
        response: { 200: ListOf(TagSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { rows, total } = await listTags(ctx(request), q.q?.trim() || undefined, page.limit, page.offset);
      return listEnvelope(rows.map(tagObject), total, page);
    },
  );

  app.post(
    '/v1/job-tags',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Tags'],
        summary: 'Create a tag; a taken name is 409 with the existing tag',
        body: Body(
          {
            name: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
            color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' }),
          },
          { required: ['name'] },
        ),
        response: { 201: One(TagSchema) },
      },
    },
    async (request, reply) => {
      const tag = await createTag(ctx(request), request.body);
      return reply.status(201).send({ data: tagObject(tag) });
    },
  );

  app.post(
    '/v1/jobs/:job_id/tags',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Tags'],
        summary: "Add tags to a job; answers the job's tags",
        params: Type.Object({ job_id: Id }),
        body: Body({ tag_ids: Type.Array(Id, { minItems: 1, maxItems: 200 }) }, { required: ['tag_ids'] }),
        response: { 200: Type.Object({ data: Type.Array(TagSchema) }) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      const tags = await addTagsToJob(ctx(request), job_id, request.body.tag_ids);
      return { data: tags.map(tagObject) };
    },
  );

  app.delete(
    '/v1/jobs/:job_id/tags/:tag_id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Tags'],
        summary: 'Take a tag off a job (the tag stays)',
        params: Type.Object({ job_id: Id, tag_id: Id }),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { job_id, tag_id } = request.params;
      await removeTagFromJob(ctx(request), job_id, tag_id);
      return reply.status(204).send(null);
    },
  );
}
