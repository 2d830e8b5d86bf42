// The people on a job (GET and POST /v1/jobs/{job_id}/contacts) and a company's people
// (GET /v1/client-accounts/{id}/contacts). Document 2, Contacts.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { IdParam, ListOf, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { addJobPerson, listCompanyPeople, listJobPeople } from './job-people.ts';
import { JobPersonBody } from './schemas.ts';
import { CompanyPersonSchema, PersonOnJobSchema } from './serialize.ts';

const Id = RecordId();

export function jobPeopleRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
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
