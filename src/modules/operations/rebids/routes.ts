// /v1/rebid-cycles, /v1/rebids and /v1/rebids/history (document 2, "Re-bids, reminders,
// follow-ups"; docs/decisions/operations-rebids.md). Identity of a re-bid is key plus cycle_id in
// the JSON body; a body field an endpoint does not take is 400 naming it (Body schemas).
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { pageOf } from '#platform/pagination.ts';
import { type ApiApp, DELETE, READ, WRITE } from '#platform/routes.ts';
import {
  CreateRebidHistoryBody,
  CreateRebidJobsBody,
  CreateRebidJobsResult,
  FollowUpRebidBody,
  NotDoingRebidBody,
  OneRebid,
  OneRebidCycle,
  OneRebidHistoryRecord,
  RebidCycleList,
  RebidCycleParams,
  RebidFollowUp,
  RebidHistoryParams,
  RebidList,
  RebidListQuery,
  RebidPairBody,
  SnoozeRebidBody,
  UpdateRebidCycleBody,
} from './schemas.ts';
import {
  addHistory,
  createRebidJobs,
  deleteHistory,
  followUpRebid,
  listCycles,
  listRebids,
  notDoingRebid,
  resetRebid,
  snoozeRebid,
  updateCycle,
} from './service.ts';

const tags = ['Re-bids'];

export function rebidRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/rebid-cycles',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List the services that come due again and how often (A to Z)',
        response: { 200: RebidCycleList },
      },
    },
    async (request) => listCycles(ctx(request)),
  );

  app.patch(
    '/v1/rebid-cycles/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Change how often a service comes due (office users); its re-bids move with it',
        params: RebidCycleParams,
        body: UpdateRebidCycleBody,
        response: { 200: OneRebidCycle },
      },
    },
    async (request) => ({ data: await updateCycle(ctx(request), request.params.id, request.body) }),
  );

  app.get(
    '/v1/rebids',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List re-bids: sites whose service comes due again, soonest due first',
        querystring: RebidListQuery,
        response: { 200: RebidList },
      },
    },
    async (request) => listRebids(ctx(request), request.query, pageOf(request.query)),
  );

  app.post(
    '/v1/rebids/create-jobs',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Make a job for each listed re-bid (up to 100); 201 when at least one was made',
        body: CreateRebidJobsBody,
        response: { 200: CreateRebidJobsResult, 201: CreateRebidJobsResult },
      },
    },
    async (request, reply) => {
      const data = await createRebidJobs(ctx(request), request.body);
      return reply.status(data.created > 0 ? 201 : 200).send({ data });
    },
  );

  app.post(
    '/v1/rebids/snooze',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Hide a re-bid until a date',
        body: SnoozeRebidBody,
        response: { 200: OneRebid },
      },
    },
    async (request) => ({ data: await snoozeRebid(ctx(request), request.body) }),
  );

  app.post(
    '/v1/rebids/not-doing',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Take a re-bid off the list, with the reason',
        body: NotDoingRebidBody,
        response: { 200: OneRebid },
      },
    },
    async (request) => ({ data: await notDoingRebid(ctx(request), request.body) }),
  );

  app.post(
    '/v1/rebids/reset',
    {
      config: WRITE,
      schema: { tags, summary: 'Undo a snooze or not-doing', body: RebidPairBody, response: { 200: OneRebid } },
    },
    async (request) => ({ data: await resetRebid(ctx(request), request.body) }),
  );

  app.post(
    '/v1/rebids/follow-up',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Make a company follow-up about a re-bid on the property's company",
        body: FollowUpRebidBody,
        response: { 201: RebidFollowUp },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await followUpRebid(ctx(request), request.body) }),
  );

  app.post(
    '/v1/rebids/history',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Record work done on a site for a cycle (new_service adds a cycle)',
        body: CreateRebidHistoryBody,
        response: { 201: OneRebidHistoryRecord },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await addHistory(ctx(request), request.body) }),
  );

  app.delete(
    '/v1/rebids/history/:record_id',
    {
      config: DELETE,
      schema: { tags, summary: 'Remove hand-added work', params: RebidHistoryParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await deleteHistory(ctx(request), request.params.record_id);
      return reply.status(204).send(null);
    },
  );
}
