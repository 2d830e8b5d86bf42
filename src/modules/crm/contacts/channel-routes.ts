// A person's phones and emails: /v1/contacts/{id}/channels (document 2, Contacts).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { IdParam, One } from '#platform/schemas.ts';
import { addChannel, deleteChannel, updateChannel } from './channels.ts';
import { AddChannelBody, ChangeChannelBody, ChannelParams } from './schemas.ts';
import { ChannelSchema } from './serialize.ts';

const NoContent = { 204: Type.Null() };

export function contactChannelRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  // ---- channels ----------------------------------------------------------------------------
  app.post(
    '/v1/contacts/:id/channels',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Add a phone or email (phones are formatted; the first of each kind is primary)',
        params: IdParam(),
        body: AddChannelBody,
        response: { 201: One(ChannelSchema) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return reply.status(201).send({ data: await addChannel(ctx(request), id, request.body) });
    },
  );
  app.patch(
    '/v1/contacts/:id/channels/:ref',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Change a phone or email (ref: its id, or v-<kind>-<n>)',
        params: ChannelParams,
        body: ChangeChannelBody,
        response: { 200: One(ChannelSchema) },
      },
    },
    async (request) => {
      const { id, ref } = request.params;
      return { data: await updateChannel(ctx(request), id, ref, request.body) };
    },
  );
  app.delete(
    '/v1/contacts/:id/channels/:ref',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Remove a phone or email; the next of that kind becomes primary',
        params: ChannelParams,
        response: NoContent,
      },
    },
    async (request, reply) => {
      const { id, ref } = request.params;
      await deleteChannel(ctx(request), id, ref);
      return reply.status(204).send(null);
    },
  );
}
