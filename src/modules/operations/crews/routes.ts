// /v1/crews (docs/api-decisions.md, "Operations: crews"): crew scheduling on for every call; writes
// need a schedule editor (service.ts).
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import { CreateCrewBody, CrewList, CrewListQuery, CrewParams, OneCrew, UpdateCrewBody } from './schemas.ts';
import { createCrew, getCrew, listCrews, updateCrew } from './service.ts';

const tags = ['Crews'];

export function crewRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/crews',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List the crews A to Z with their members (working crews unless active=false)',
        querystring: CrewListQuery,
        response: { 200: CrewList },
      },
    },
    async (request) => listCrews(ctx(request), request.query.active ?? true, pageOf(request.query)),
  );

  app.post(
    '/v1/crews',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Make a crew (schedule editor); the foreman joins its members',
        body: CreateCrewBody,
        response: { 201: OneCrew },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createCrew(ctx(request), request.body) }),
  );

  app.get(
    '/v1/crews/:id',
    {
      config: READ,
      schema: { tags, summary: 'Read a crew with its members', params: CrewParams, response: { 200: OneCrew } },
    },
    async (request) => ({ data: await getCrew(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/crews/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Change a crew (schedule editor): only sent fields change; member_user_ids replaces the members',
        params: CrewParams,
        body: UpdateCrewBody,
        response: { 200: OneCrew },
      },
    },
    async (request) => ({ data: await updateCrew(ctx(request), request.params.id, request.body) }),
  );
}
