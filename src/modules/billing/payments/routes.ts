// GET /v1/payments (document 3, Invoices and payments): the paid invoices, most recently paid
// first, with job_id and paid_after filters. Reads need read_jobs.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { type ApiApp, READ } from '#platform/routes.ts';
import { PageQuery, RecordId } from '#platform/schemas.ts';
import { endOfSecond, parseTimestamp, startOfSecond } from '#platform/time.ts';
import { listPayments } from './repo.ts';
import { PaymentList, paymentObject } from './serialize.ts';

export function paymentRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/payments',
    {
      config: READ,
      schema: {
        tags: ['Invoices'],
        summary: 'List payments (one per paid invoice; partial payments are not tracked), most recently paid first',
        querystring: Type.Object({
          job_id: Type.Optional(RecordId()),
          paid_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601: payments made after it' })),
          ...PageQuery(200),
        }),
        response: { 200: PaymentList },
      },
    },
    async (request) => {
      const q = request.query;
      let paidAfter: string | undefined;
      if (q.paid_after !== undefined) {
        const parsed = parseTimestamp(q.paid_after);
        if (parsed === null)
          throw badRequest('paid_after must be an ISO 8601 timestamp', {
            code: 'invalid_request',
            field: 'paid_after',
          });
        // paid_at shows whole seconds: a paid_at read back excludes its own payment.
        paidAfter = parsed === startOfSecond(parsed) ? endOfSecond(parsed) : parsed;
      }
      const page = pageOf(q);
      const c = ctx(request);
      const { rows, total } = await listPayments(
        c.database.db,
        c.auth.firm.id,
        c.auth.user,
        { jobId: q.job_id, paidAfter },
        page.limit,
        page.offset,
      );
      return listEnvelope(rows.map(paymentObject), total, page);
    },
  );
}
