// A person's companies and sites with roles: /v1/contacts/{id}/links (document 2, Contacts).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { DateString, IdParam, RecordId } from '#platform/schemas.ts';
import { addLink, removeLink } from './links.ts';
import { LinkBody } from './schemas.ts';
import { LinkSchema } from './serialize.ts';

const Id = RecordId();

const NoContent = { 204: Type.Null() };

export function contactLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  // ---- links -------------------------------------------------------------------------------
  app.post(
    '/v1/contacts/:id/links',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Link the person to a company or site with roles (the same target again replaces roles)',
        params: IdParam(),
        body: LinkBody,
        response: { 201: Type.Object({ data: Type.Array(LinkSchema) }) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return reply.status(201).send({ data: await addLink(ctx(request), id, request.body) });
    },
  );
  app.delete(
    '/v1/contacts/:id/links/:kind/:target_id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Remove a company or site link, or with end=true keep it as history',
        params: Type.Object({
          id: Id,
          kind: Type.Union([Type.Literal('company'), Type.Literal('location')]),
          target_id: Id,
        }),
        querystring: Type.Object({ end: Type.Optional(Type.Boolean()), ended_on: Type.Optional(DateString) }),
        response: NoContent,
      },
    },
    async (request, reply) => {
      const { id, kind, target_id } = request.params;
      const q = request.query;
      await removeLink(ctx(request), id, kind, target_id, {
        end: q.end === true || q.ended_on !== undefined,
        endedOn: q.ended_on,
      });
      return reply.status(204).send(null);
    },
  );
}
