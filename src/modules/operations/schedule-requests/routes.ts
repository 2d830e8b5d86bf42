// /v1/schedule/date-requests and /v1/schedule/queue (document 2, Schedule requests). Any operations
// user may ask; approving and declining need a schedule editor (service.ts).
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, CREW_WRITE, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional } from '#platform/schemas.ts';
import {
  ApprovedRequest,
  CreateRequestBody,
  DecisionBody,
  OneRequest,
  Queue,
  QueueQuery,
  RequestList,
  RequestListQuery,
  RequestParams,
} from './schemas.ts';
import { approveRequest, createRequest, declineRequest, getRequest, listRequests, scheduleQueue } from './service.ts';

const tags = ['Schedule requests'];
const params = RequestParams;

export function scheduleRequestRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/schedule/date-requests',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List schedule requests, newest first',
        querystring: RequestListQuery,
        response: { 200: RequestList },
      },
    },
    async (request) => {
      const q = request.query;
      return listRequests(
        ctx(request),
        { status: q.status, kind: q.kind, jobId: q.job_id, workOrderId: q.work_order_id },
        pageOf(q),
      );
    },
  );

  app.post(
    '/v1/schedule/date-requests',
    {
      config: CREW_WRITE,
      schema: {
        tags,
        summary:
          'Ask for a date (date: job_id, requested_date, optional estimate_service_id), a move (work_order_id, requested_date) or a skipped day (work_order_id, skip_date); schedule editors are notified',
        body: CreateRequestBody,
        response: { 201: OneRequest },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createRequest(ctx(request), request.body) }),
  );

  app.get(
    '/v1/schedule/date-requests/:id',
    { config: READ, schema: { tags, summary: 'Read a schedule request', params, response: { 200: OneRequest } } },
    async (request) => ({ data: await getRequest(ctx(request), request.params.id) }),
  );

  app.post(
    '/v1/schedule/date-requests/:id/approve',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'Approve a pending request (schedule editor): the work is placed, moved or its day skipped under the crew-day lock rules (409); the note reaches the visit’s dispatch notes and the requester',
        params,
        body: DecisionBody,
        response: { 200: ApprovedRequest },
      },
    },
    async (request) => {
      const { data, work_order } = await approveRequest(ctx(request), request.params.id, request.body?.note);
      return { data, work_order: work_order! };
    },
  );

  app.post(
    '/v1/schedule/date-requests/:id/decline',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary: 'Decline a pending request (schedule editor): the schedule is unchanged; the requester is notified',
        params,
        body: DecisionBody,
        response: { 200: OneRequest },
      },
    },
    async (request) => ({ data: (await declineRequest(ctx(request), request.params.id, request.body?.note)).data }),
  );

  app.get(
    '/v1/schedule/queue',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The estimate lines of won jobs not yet on the calendar (what a date request may name), job by job',
        querystring: QueueQuery,
        response: { 200: Queue },
      },
    },
    async (request) => scheduleQueue(ctx(request), request.query.job_id, pageOf(request.query)),
  );
}
