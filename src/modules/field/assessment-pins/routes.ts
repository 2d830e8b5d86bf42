// /v1/assessment-pins (document 3, Site assessments and pins). Pin photos join with the photos module.
import { Type } from '@sinclair/typebox';
import type { ApiApp } from '#platform/routes.ts';
import { contextFor, type Env } from '#platform/context.ts';
import { CreatePinBody, OnePin, PinList, PinListQuery, PinParams, UpdatePinBody } from './schemas.ts';
import { createPin, deletePin, getPin, listAssessmentPins, updatePin } from './service.ts';

const tags = ['Site assessments'];

export function assessmentPinRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/assessment-pins',
    {
      config: { permissions: ['read_jobs'] },
      schema: {
        tags,
        summary: 'Pins, newest first (updated_after: oldest changed first)',
        querystring: PinListQuery,
        response: { 200: PinList },
      },
    },
    async (request) => listAssessmentPins(ctx(request), request.query),
  );

  app.post(
    '/v1/assessment-pins',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary:
          "Add a pin to the given open assessment or the job's open one; a service pin on a job with none starts one",
        body: CreatePinBody,
        response: { 201: OnePin },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createPin(ctx(request), request.body) }),
  );

  app.get(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['read_jobs'] },
      schema: { tags, summary: 'A pin', params: PinParams, response: { 200: OnePin } },
    },
    async (request) => ({ data: await getPin(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['write_jobs'] },
      schema: {
        tags,
        summary: 'Change a pin (any create field except job_id and assessment_id)',
        params: PinParams,
        body: UpdatePinBody,
        response: { 200: OnePin },
      },
    },
    async (request) => ({ data: await updatePin(ctx(request), request.params.id, request.body) }),
  );

  app.delete(
    '/v1/assessment-pins/:id',
    {
      config: { permissions: ['write_jobs', 'delete_records'] },
      schema: { tags, summary: 'Delete a pin', params: PinParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await deletePin(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
