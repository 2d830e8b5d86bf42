// /v1/contacts with channels and links, people on a job (GET and POST /v1/jobs/{job_id}/contacts)
// and a company's people (GET /v1/client-accounts/{id}/contacts). Document 2, Contacts.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { DateString, IdParam, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { addChannel, deleteChannel, updateChannel } from './channels.ts';
import { addJobPerson, listCompanyPeople, listJobPeople } from './job-people.ts';
import { addLink, removeLink } from './links.ts';
import { AddChannelBody, ChangeChannelBody, ContactBody, JobPersonBody, LinkBody } from './schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import {
  ChannelSchema,
  CompanyPersonSchema,
  ContactSchema,
  FullContactSchema,
  LinkSchema,
  PersonOnJobSchema,
} from './serialize.ts';
import { createContact, deleteContact, getContact, listContacts, restoreContact, updateContact } from './service.ts';

const Id = RecordId();

const ChannelParams = Type.Object({ id: Id, ref: Type.String({ minLength: 1, maxLength: 40 }) });
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

  // ---- people on a job, a company's people -------------------------------------------------

  app.get(
    '/v1/jobs/:job_id/contacts',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'People on the job: primary first, then by role, then name',
        params: Type.Object({ job_id: Id }),
        response: { 200: Type.Object({ data: Type.Array(PersonOnJobSchema) }) },
      },
    },
    async (request) => {
      const { job_id } = request.params;
      return { data: await listJobPeople(ctx(request), job_id) };
    },
  );

  app.post(
    '/v1/jobs/:job_id/contacts',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: 'Put a saved or new person on the job (the first becomes primary and fills the job contact)',
        params: Type.Object({ job_id: Id }),
        body: JobPersonBody,
        response: {
          200: One(PersonOnJobSchema, { created: Type.Boolean() }),
          201: One(PersonOnJobSchema, { created: Type.Boolean() }),
        },
      },
    },
    async (request, reply) => {
      const { job_id } = request.params;
      const { entry, created } = await addJobPerson(ctx(request), job_id, request.body);
      return reply.status(created ? 201 : 200).send({ data: entry, created });
    },
  );

  app.get(
    '/v1/client-accounts/:id/contacts',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags: ['Contacts'],
        summary: "The company's people: current links and people whose primary company it is, A to Z",
        params: IdParam(),
        querystring: Type.Object({ include_archived: Type.Optional(Type.Boolean()), ...PageQuery(200) }),
        response: { 200: ListOf(CompanyPersonSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const q = request.query;
      const page = pageOf(q);
      const { data, total } = await listCompanyPeople(
        ctx(request),
        id,
        q.include_archived === true,
        page.limit,
        page.offset,
      );
      return listEnvelope(data, total, page);
    },
  );
}
