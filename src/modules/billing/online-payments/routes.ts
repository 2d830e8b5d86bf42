// POST /v1/estimates/{id}/request-payment (document 3, Invoices and payments): write_jobs and
// pricing access (checked in the service, with the user's capabilities).
import type { Env } from '#platform/context.ts';
import { contextFor } from '#platform/context.ts';
import { type ApiApp, originOf, WRITE } from '#platform/routes.ts';
import { bodyOptional, RecordId } from '#platform/schemas.ts';
import { Type } from '@sinclair/typebox';
import { PaymentRequested, RequestPaymentBody } from '#billing/invoices/schemas.ts';
import { requestPayment } from './request.ts';

export function onlinePaymentRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);
  app.post(
    '/v1/estimates/:id/request-payment',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags: ['Invoices'],
        summary:
          "Request payment online (EMAILS CUSTOMER a pay page): an open online invoice billed from the estimate's proposal, with the customer's payment_url",
        params: Type.Object({ id: RecordId() }),
        body: RequestPaymentBody,
        response: { 201: PaymentRequested },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestPayment(ctx(request), request.params.id, request.body, originOf(request))),
  );
}
