// /v1/work-orders and /v1/schedule/publish (docs/api-decisions.md, "Operations: work orders").
// Reads need read_jobs; writes write_jobs, operations on and a schedule editor (service.ts).
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional } from '#platform/schemas.ts';
import { publishSchedule } from './publish.ts';
import {
  CompleteBody,
  CreateWorkOrderBody,
  OneWorkOrder,
  PublishBody,
  PublishResult,
  UpdateWorkOrderBody,
  WorkOrderList,
  WorkOrderListQuery,
  WorkOrderParams,
} from './schemas.ts';
import {
  cancelWorkOrder,
  completeWorkOrder,
  createWorkOrder,
  getWorkOrder,
  listWorkOrders,
  updateWorkOrder,
} from './service.ts';

const tags = ['Work orders'];
const params = WorkOrderParams;
const NoBody = Type.Object({}, { additionalProperties: false });

export function workOrderRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/work-orders',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'List work orders by date (unscheduled last): start_date and end_date take those with any day in range; holds only with include_holds',
        querystring: WorkOrderListQuery,
        response: { 200: WorkOrderList },
      },
    },
    async (request) => {
      const q = request.query;
      return listWorkOrders(
        ctx(request),
        {
          includeHolds: q.include_holds,
          startDate: q.start_date,
          endDate: q.end_date,
          crewId: q.crew_id,
          jobId: q.job_id,
          status: q.status,
          updatedAfter: q.updated_after,
        },
        pageOf(q),
      );
    },
  );

  app.post(
    '/v1/work-orders',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Make a work order for a job (a draft until the schedule is published); a date fires job_scheduled; a held crew day is 409 with locks',
        body: CreateWorkOrderBody,
        response: { 201: OneWorkOrder },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createWorkOrder(ctx(request), request.body) }),
  );

  app.get(
    '/v1/work-orders/:id',
    {
      config: READ,
      schema: { tags, summary: 'Read a work order or hold', params, response: { 200: OneWorkOrder } },
    },
    async (request) => ({ data: await getWorkOrder(ctx(request), request.params.id) }),
  );

  app.patch(
    '/v1/work-orders/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Change a work order: only sent fields change; giving or moving scheduled_date fires job_scheduled; a held crew day is 409 with locks',
        params,
        body: UpdateWorkOrderBody,
        response: { 200: OneWorkOrder },
      },
    },
    async (request) => ({ data: await updateWorkOrder(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/work-orders/:id/complete',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Mark a work order complete (work_order_completed); its later days are freed',
        params,
        body: CompleteBody,
        response: { 200: OneWorkOrder },
      },
    },
    async (request) => ({ data: await completeWorkOrder(ctx(request), request.params.id, request.body ?? {}) }),
  );

  app.post(
    '/v1/work-orders/:id/cancel',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Cancel a work order: it leaves the calendar and frees its crew days',
        params,
        body: NoBody,
        response: { 200: OneWorkOrder },
      },
    },
    async (request) => ({ data: await cancelWorkOrder(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/schedule/publish',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Publish the drafts with a day in the range (at most 93 days): crews see them and they lock their crew days; drafts on a held day are held back',
        body: PublishBody,
        response: { 200: PublishResult },
      },
    },
    async (request) => ({ data: await publishSchedule(ctx(request), request.body) }),
  );
}
