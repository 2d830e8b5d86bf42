// Measurements (document 1's POST /v1/detect/*; docs/measurement.md): start one from bounds, an
// address or a tile range (each accepted call counts as one against the key's usage, errors do
// not), list and read them, change and delete one.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import type { ApiApp } from '#platform/routes.ts';
import { IdParam, ListOf, One } from '#platform/schemas.ts';
import {
  DetectAddressBody,
  DetectFullBody,
  DetectTilesBody,
  MeasurementListQuery,
  MeasurementSchema,
  UpdateMeasurementBody,
} from './schemas.ts';
import { deleteMeasurement, getMeasurement, measurementList, updateMeasurement } from './service.ts';
import { startMeasurement } from './start.ts';

const TAGS = ['Measurement'];
const READ = { permissions: ['read_measurements' as const] };
const WRITE = { permissions: ['write_measurements' as const] };
const DETECT = { ...WRITE, countOnSuccess: true };

const created = (reply: FastifyReply) => reply.code(201);

export function measurementRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/detect/full',
    {
      config: DETECT,
      schema: {
        tags: TAGS,
        summary:
          'Measure the paved surfaces, painted lines and stalls inside bounds (up to 25 acres) from aerial imagery: a new measurement',
        body: DetectFullBody,
        response: { 201: One(MeasurementSchema) },
      },
    },
    async (request, reply) => {
      const { bounds, ...rest } = request.body;
      created(reply);
      return startMeasurement(ctx(request), { from: 'bounds', bounds, ...rest });
    },
  );

  app.post(
    '/v1/detect/address',
    {
      config: DETECT,
      schema: {
        tags: TAGS,
        summary: 'Measure a 150 m square around a geocoded address from aerial imagery: a new measurement',
        body: DetectAddressBody,
        response: { 201: One(MeasurementSchema) },
      },
    },
    async (request, reply) => {
      created(reply);
      return startMeasurement(ctx(request), { from: 'address', ...request.body });
    },
  );

  app.post(
    '/v1/detect/tiles',
    {
      config: DETECT,
      schema: {
        tags: TAGS,
        summary: 'Measure a range of imagery tiles (up to 8 × 8 at zoom 18 to 21): a new measurement',
        body: DetectTilesBody,
        response: { 201: One(MeasurementSchema) },
      },
    },
    async (request, reply) => {
      const { z, x_min, x_max, y_min, y_max, ...rest } = request.body;
      created(reply);
      return startMeasurement(ctx(request), { from: 'tiles', tiles: { z, x_min, x_max, y_min, y_max }, ...rest });
    },
  );

  app.get(
    '/v1/measurements',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'Measurements, newest first (job_id: one job’s)',
        querystring: MeasurementListQuery,
        response: { 200: ListOf(MeasurementSchema) },
      },
    },
    async (request) => measurementList(ctx(request), request.query, pageOf(request.query)),
  );

  app.get(
    '/v1/measurements/:id',
    {
      config: READ,
      schema: {
        tags: TAGS,
        summary: 'A measurement with its totals',
        params: IdParam(),
        response: { 200: One(MeasurementSchema) },
      },
    },
    async (request) => getMeasurement(ctx(request), request.params.id),
  );

  app.patch(
    '/v1/measurements/:id',
    {
      config: WRITE,
      schema: {
        tags: TAGS,
        summary: 'Rename a measurement, move it to a job, lock it for review, or type a category’s quantity over',
        params: IdParam(),
        body: UpdateMeasurementBody,
        response: { 200: One(MeasurementSchema) },
      },
    },
    async (request) => updateMeasurement(ctx(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/measurements/:id',
    {
      config: { permissions: ['write_measurements', 'delete_records'] },
      schema: {
        tags: TAGS,
        summary: 'Delete a measurement and its shapes (irreversible)',
        params: IdParam(),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteMeasurement(ctx(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
