// /v1/contacts: people, with their channels, links and jobs in the answer (document 2, Contacts).
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { ContactBody } from './schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import { ContactSchema, FullContactSchema } from './serialize.ts';
import { createContact, deleteContact, getContact, listContacts, restoreContact, updateContact } from './service.ts';

const Id = RecordId();

const NoContent = { 204: Type.Null() };

export function contactRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.get(
    '/v1/contacts',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'List people A to Z (with updated_after: oldest change first)',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ description: 'case-insensitive over name, email, phone, company, title' })),
          email: Type.Optional(Type.String({ description: "exact, any case; matches any of the person's emails" })),
          client_account_id: Type.Optional(Id),
          job_id: Type.Optional(Id),
          contact_type: Type.Optional(Type.String()),
          include_archived: Type.Optional(Type.Boolean()),
          updated_after: Type.Optional(Type.String()),
          ...PageQuery(200),
        }),
        response: { 200: ListOf(ContactSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listContacts(
        ctx(request),
        {
          q: q.q?.trim() || undefined,
          email: q.email?.trim() || undefined,
          clientAccountId: q.client_account_id,
          jobId: q.job_id,
          contactType: q.contact_type?.trim() || undefined,
          includeArchived: q.include_archived,
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page.limit,
        page.offset,
      );
      return listEnvelope(data, total, page);
    },
  );
  app.get(
    '/v1/contacts/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Read a person with channels, links and jobs (archived included)',
        params: IdParam(),
        response: { 200: One(FullContactSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await getContact(ctx(request), id) };
    },
  );
  app.post(
    '/v1/contacts',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Create a person (at least a name, company, email or phone)',
        body: ContactBody,
        response: { 201: One(FullContactSchema) },
      },
    },
    async (request, reply) => {
      return reply.status(201).send({ data: await createContact(ctx(request), request.body) });
    },
  );
  app.patch(
    '/v1/contacts/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Update a person; name, email, phone and company changes reach their jobs',
        params: IdParam(),
        body: ContactBody,
        response: { 200: One(FullContactSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await updateContact(ctx(request), id, request.body) };
    },
  );
  app.delete(
    '/v1/contacts/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Archive a person, or with hard=true delete them permanently',
        params: IdParam(),
        querystring: Type.Object({ hard: Type.Optional(Type.Boolean()) }),
        response: NoContent,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteContact(ctx(request), id, request.query.hard === true);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/v1/contacts/:id/restore',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Restore an archived person',
        params: IdParam(),
        response: { 200: One(FullContactSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return { data: await restoreContact(ctx(request), id) };
    },
  );
}
