// /v1/schedule/holds (document 2, Holds). Reads need read_jobs; writes write_jobs, operations on and
// a schedule editor (service.ts); DELETE also delete_records.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional } from '#platform/schemas.ts';
import { OneWorkOrder } from '../work-orders/schemas.ts';
import {
  CreatedHold,
  CreateHoldBody,
  HoldList,
  HoldListQuery,
  HoldParams,
  LinkedHold,
  LinkHoldBody,
  OneHold,
  UpdateHoldBody,
} from './schemas.ts';
import { convertHold, createHold, deleteHold, getHold, linkHold, listHolds, updateHold } from './service.ts';

const tags = ['Holds'];
const params = HoldParams;
const NoBody = Type.Object({}, { additionalProperties: false });

export function holdRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/schedule/holds',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List holds by date (a hold is included when any of its days falls in the range)',
        querystring: HoldListQuery,
        response: { 200: HoldList },
      },
    },
    async (request) => {
      const q = request.query;
      return listHolds(
        ctx(request),
        { startDate: q.start_date, endDate: q.end_date, crewId: q.crew_id, jobId: q.job_id },
        pageOf(q),
      );
    },
  );

  app.post(
    '/v1/schedule/holds',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Hold a crew's days for a job (or a name, making a lightweight job): never published, dispatched or told to the customer; a held or locked crew day is 409 with locks",
        body: CreateHoldBody,
        response: { 201: CreatedHold },
      },
    },
    async (request, reply) => reply.status(201).send(await createHold(ctx(request), request.body)),
  );

  app.get(
    '/v1/schedule/holds/:id',
    { config: READ, schema: { tags, summary: 'Read a hold', params, response: { 200: OneHold } } },
    async (request) => ({ data: await getHold(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/schedule/holds/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Change a hold (only sent fields change); moving it or changing its crew re-checks and moves its locks',
        params,
        body: UpdateHoldBody,
        response: { 200: OneHold },
      },
    },
    async (request) => ({ data: await updateHold(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/schedule/holds/:id/convert',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'Turn a hold into a real visit on the same day and crew: its locks are released and it is a draft until published',
        params,
        body: NoBody,
        response: { 200: OneWorkOrder },
      },
    },
    async (request) => ({ data: await convertHold(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/schedule/holds/:id/link',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Move a hold onto the real job keeping its date, crew, times and locks; a placeholder job nothing else uses is merged into it',
        params,
        body: LinkHoldBody,
        response: { 200: LinkedHold },
      },
    },
    async (request) => linkHold(ctx(request), request.params.id, request.body.job_id),
  );

  app.delete(
    '/v1/schedule/holds/:id',
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Remove a hold and its crew-day locks (the job stays)',
        params,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteHold(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
