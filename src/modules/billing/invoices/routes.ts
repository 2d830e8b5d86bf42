// /v1/invoices and GET /v1/jobs/{id}/invoices (document 3, Invoices and payments): check invoices
// made, edited and moved by the office; nothing here emails the customer. Reads need read_jobs,
// writes write_jobs. Invoices are never deleted (void instead), so there is no DELETE.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional, isOneOf, PageQuery, RecordId } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import {
  CreateInvoiceBody,
  InvoiceSent,
  INVOICE_STATUSES,
  InvoiceList,
  InvoiceParams,
  JobInvoicesSchema,
  OneInvoice,
  PAYMENT_METHODS,
  UpdateInvoiceBody,
} from './schemas.ts';
import {
  createInvoice,
  getInvoice,
  type InvoiceMove,
  jobInvoices,
  listInvoices,
  moveInvoice,
  updateInvoice,
} from './service.ts';
import { sendInvoice } from './send.ts';
import { invoicePdf } from './pdf.ts';

const tags = ['Invoices'];
const params = InvoiceParams;

const MOVE_SUMMARIES: Record<InvoiceMove, string> = {
  'mark-sent':
    'Mark a draft invoice sent (issued today; the due date counts from today), or a paid one unpaid again; nothing is emailed',
  'mark-paid':
    'Mark a sent invoice paid today: it joins the payments list (payment_received event); nothing is emailed',
  void: 'Void an invoice of any status (invoices are never deleted); nothing is emailed',
  'mark-draft':
    'Move a sent, paid or void invoice back to draft: a paid one loses its payment date and leaves the payments list',
};

export function invoiceRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.get(
    '/v1/invoices',
    {
      config: READ,
      schema: {
        tags,
        summary: 'List invoices, newest first; with updated_after oldest updated first',
        querystring: Type.Object({
          job_id: Type.Optional(RecordId()),
          status: Type.Optional(Type.String({ maxLength: 40, description: INVOICE_STATUSES.join(', ') })),
          payment_method: Type.Optional(Type.String({ maxLength: 40, description: PAYMENT_METHODS.join(', ') })),
          updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601' })),
          ...PageQuery(200),
        }),
        response: { 200: InvoiceList },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.status !== undefined && !isOneOf(INVOICE_STATUSES, q.status))
        throw badRequest(`status must be one of ${INVOICE_STATUSES.join(', ')}`, {
          code: 'invalid_status',
          field: 'status',
        });
      if (q.payment_method !== undefined && !isOneOf(PAYMENT_METHODS, q.payment_method))
        throw badRequest(`payment_method must be one of ${PAYMENT_METHODS.join(', ')}`, {
          code: 'invalid_request',
          field: 'payment_method',
        });
      const page = pageOf(q);
      const { data, total } = await listInvoices(
        ctx(request),
        {
          jobId: q.job_id,
          status: q.status,
          paymentMethod: q.payment_method,
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page,
      );
      return listEnvelope(data, total, page);
    },
  );

  app.post(
    '/v1/invoices',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Create a draft check invoice (nothing is emailed): client fields default from the job's bill-to, then its customer and contact; the remit-to from the last invoice, then the workspace's",
        body: CreateInvoiceBody,
        response: { 201: OneInvoice },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await createInvoice(ctx(request), request.body) }),
  );

  app.get(
    '/v1/invoices/:id',
    {
      config: READ,
      schema: { tags, summary: 'Read an invoice with its line items', params, response: { 200: OneInvoice } },
    },
    async (request) => ({ data: await getInvoice(ctx(request), request.params.id) }),
  );

  app.get(
    '/v1/invoices/:id/pdf',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The invoice as a PDF (application/pdf), as its customer page shows it',
        params,
        response: {
          200: {
            description: 'The PDF',
            headers: {
              'Content-Disposition': { type: 'string', description: 'attachment; filename="invoice-<number>.pdf"' },
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const pdf = await invoicePdf(ctx(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .send(pdf.body);
    },
  );

  app.patch(
    '/v1/invoices/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Edit a draft or sent invoice: line_items replaces the list; the figures are worked out again and the due date stays anchored to the issue date',
        params,
        body: UpdateInvoiceBody,
        response: { 200: OneInvoice },
      },
    },
    async (request) => ({ data: await updateInvoice(ctx(request), request.params.id, request.body) }),
  );

  app.post(
    '/v1/invoices/:id/send',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'Email the invoice to client_email with a link to its page (EMAILS CUSTOMER): a draft becomes sent and is issued today; re-sending allowed',
        params,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 200: InvoiceSent },
      },
    },
    async (request) => sendInvoice(ctx(request), request.params.id, originOf(request)),
  );

  for (const move of Object.keys(MOVE_SUMMARIES) as InvoiceMove[]) {
    app.post(
      `/v1/invoices/:id/${move}`,
      {
        preValidation: bodyOptional,
        config: WRITE,
        schema: {
          tags,
          summary: MOVE_SUMMARIES[move],
          params,
          body: Type.Object({}, { additionalProperties: false }),
          response: { 200: OneInvoice },
        },
      },
      async (request) => ({ data: await moveInvoice(ctx(request), request.params.id, move) }),
    );
  }

  app.get(
    '/v1/jobs/:id/invoices',
    {
      config: READ,
      schema: {
        tags,
        summary:
          "A job's invoices, oldest first, without line items (the rows of the invoices export), with what they add up to",
        params: Type.Object({ id: RecordId() }),
        response: { 200: JobInvoicesSchema },
      },
    },
    async (request) => jobInvoices(ctx(request), request.params.id),
  );
}
