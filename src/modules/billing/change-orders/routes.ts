// /v1/change-orders and /v1/change-order-stages (document 3, Change orders). Reads need read_jobs,
// writes write_jobs, and every write needs operations on for the workspace (service.ts). Only
// send reaches the customer (EMAILS CUSTOMER). Change orders cannot be deleted: there is no DELETE.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { pageOf } from '#platform/pagination.ts';
import { originOf, type ApiApp, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional, isOneOf } from '#platform/schemas.ts';
import { decideChangeOrder, moveToStage, voidChangeOrder } from './moves.ts';
import {
  CHANGE_ORDER_STATUSES,
  ChangeOrderList,
  ChangeOrderParams,
  CreateChangeOrderBody,
  DecisionBody,
  ListQuery,
  OneChangeOrder,
  SendResult,
  StageBody,
  StageList,
  UpdateChangeOrderBody,
} from './schemas.ts';
import { sendChangeOrder } from './send.ts';
import { createChangeOrder, getChangeOrder, listChangeOrders, updateChangeOrder } from './service.ts';
import { changeOrderStages } from './stages.ts';

const tags = ['Change orders'];
const params = ChangeOrderParams;
const NoBody = Type.Object({}, { additionalProperties: false });

/** The office's decisions (document 3: POST …/approve, …/decline). */
const DECISION_SUMMARIES = {
  approve:
    "Record the office's approval of a draft or sent change order: posts it to the job's contract value and budget (change_order_approved)",
  decline: "Record the office's decline of a draft or sent change order (not once the customer signed)",
} as const;

export function changeOrderRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/change-orders',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List change orders, newest first: rows without workflow fields (stage, sending, decision, lines)',
        querystring: ListQuery,
        response: { 200: ChangeOrderList },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.status !== undefined && !isOneOf(CHANGE_ORDER_STATUSES, q.status))
        throw badRequest(`status must be one of ${CHANGE_ORDER_STATUSES.join(', ')}`, {
          code: 'invalid_status',
          field: 'status',
        });
      return listChangeOrders(ctx(request), { jobId: q.job_id, status: q.status }, pageOf(q));
    },
  );

  app.post(
    '/v1/change-orders',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Create a change order in the first working stage (nothing is sent): quick with its amount, or tm or full from a change-order estimate of the job's estimate (estimator or admin); a repeated request_key answers the first one's (200)",
        body: CreateChangeOrderBody,
        response: { 200: OneChangeOrder, 201: OneChangeOrder },
      },
    },
    async (request, reply) => {
      const { created, data } = await createChangeOrder(ctx(request), request.body, originOf(request));
      return reply.status(created ? 201 : 200).send({ data });
    },
  );

  app.get(
    '/v1/change-orders/:id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Read a change order with its stage, lines by cost code, revised contract and decision',
        params,
        response: { 200: OneChangeOrder },
      },
    },
    async (request) => ({ data: await getChangeOrder(ctx(request), request.params.id, originOf(request)) }),
  );

  app.patch(
    '/v1/change-orders/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Edit a draft or sent change order (approved or declined: 400); amount_delta is for quick ones',
        params,
        body: UpdateChangeOrderBody,
        response: { 200: OneChangeOrder },
      },
    },
    async (request) => ({
      data: await updateChangeOrder(ctx(request), request.params.id, request.body, originOf(request)),
    }),
  );

  app.post(
    '/v1/change-orders/:id/send',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'EMAILS CUSTOMER a review-and-sign link at customer_email (draft → sent); with no customer_email nothing is emailed (emailed false) and the link is still made',
        params,
        body: NoBody,
        response: { 200: SendResult },
      },
    },
    async (request) => sendChangeOrder(ctx(request), request.params.id, originOf(request)),
  );

  for (const [action, meaning] of [
    ['approve', 'approved'],
    ['decline', 'declined'],
  ] as const) {
    app.post(
      `/v1/change-orders/:id/${action}`,
      {
        preValidation: bodyOptional,
        config: WRITE,
        schema: {
          tags,
          summary: DECISION_SUMMARIES[action],
          params,
          body: DecisionBody,
          response: { 200: OneChangeOrder },
        },
      },
      async (request) => ({
        data: await decideChangeOrder(ctx(request), request.params.id, meaning, request.body, originOf(request)),
      }),
    );
  }

  app.post(
    '/v1/change-orders/:id/stage',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Move a draft or sent change order to a stage (a key from GET /v1/change-order-stages); the stage's meaning sets its status; nothing is emailed",
        params,
        body: StageBody,
        response: { 200: OneChangeOrder },
      },
    },
    async (request) => ({
      data: await moveToStage(ctx(request), request.params.id, request.body.stage, originOf(request)),
    }),
  );

  app.post(
    '/v1/change-orders/:id/void',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'Void a change order (it keeps its number); a signed or an approved priced one is 409; a voided approved quick one takes back what it posted',
        params,
        body: NoBody,
        response: { 200: OneChangeOrder },
      },
    },
    async (request) => ({ data: await voidChangeOrder(ctx(request), request.params.id, originOf(request)) }),
  );

  app.get(
    '/v1/change-order-stages',
    {
      config: READ,
      schema: {
        tags,
        summary: "The workspace's change-order stages in order; each stage's meaning sets a change order's status",
        response: { 200: StageList },
      },
    },
    async (request) => ({ data: [...changeOrderStages(request.auth.settings)] }),
  );
}
