// /v1/proposals and POST /v1/estimates/{id}/proposal (document 3, Proposals): making a proposal,
// reading it (its signature and PDF too) and editing a draft. Reads need read_jobs, writes
// write_jobs; making and changing a proposal also need the user's pricing access (checked in the
// services). Sharing and sending are link-routes.ts, templates template-routes.ts; the customer's
// page is page.ts.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import { proposalPdf } from './pdf-route.ts';
import {
  OneProposal,
  PROPOSAL_STATUSES,
  ProposalList,
  ProposalParams,
  SignatureSchema,
  UpdateProposalBody,
} from './schemas.ts';
import { getProposal, getSignature, listProposals, proposalFromEstimate } from './service.ts';
import { updateProposal } from './update.ts';

const tags = ['Proposals'];
const params = ProposalParams;

export function proposalRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

  app.post(
    '/v1/estimates/:id/proposal',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          "Make the estimate's proposal (201: a draft with default wording, 30 days' validity and its customer link), or refresh the prices of its draft (200); a sent or decided proposal keeps what the customer saw",
        params: Type.Object({ id: RecordId() }),
        body: Type.Object({}, { additionalProperties: false }),
        response: { 201: OneProposal, 200: OneProposal },
      },
    },
    async (request, reply) => {
      const { data, created } = await proposalFromEstimate(ctx(request), request.params.id, originOf(request));
      return reply.status(created ? 201 : 200).send({ data });
    },
  );

  app.get(
    '/v1/proposals',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'List proposals: summary rows (no totals, content, signature, pdf_url, link or sections), most recently changed first; with updated_after oldest first',
        querystring: Type.Object({
          estimate_id: Type.Optional(RecordId()),
          job_id: Type.Optional(RecordId()),
          status: Type.Optional(Type.String({ maxLength: 40, description: PROPOSAL_STATUSES.join(', ') })),
          updated_after: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601' })),
          ...PageQuery(200),
        }),
        response: { 200: ProposalList },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.status !== undefined && !(PROPOSAL_STATUSES as readonly string[]).includes(q.status))
        throw badRequest(`status must be one of ${PROPOSAL_STATUSES.join(', ')}`, {
          code: 'invalid_status',
          field: 'status',
        });
      const page = pageOf(q);
      const { data, total } = await listProposals(
        ctx(request),
        {
          estimateId: q.estimate_id,
          jobId: q.job_id,
          status: q.status,
          updatedAfter: syncWindow(q.updated_after, 'second'),
        },
        page,
        originOf(request),
      );
      return listEnvelope(data, total, page);
    },
  );

  app.get(
    '/v1/proposals/:id',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Read a proposal with its totals, content, signature, pdf_url, link and sections',
        params,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({ data: await getProposal(ctx(request), request.params.id, originOf(request)) }),
  );

  app.get(
    '/v1/proposals/:id/signature',
    {
      config: READ,
      schema: {
        tags,
        summary:
          "The proposal's signature status: signer, time, the SHA-256 of the document signed, the consent and the customer's audit trail",
        params,
        response: { 200: One(SignatureSchema) },
      },
    },
    async (request) => ({ data: await getSignature(ctx(request), request.params.id) }),
  );

  app.get(
    '/v1/proposals/:id/pdf',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'The proposal as a PDF (application/pdf, a download filename); after acceptance the signed document with the signature block',
        params,
        response: {
          200: {
            description: 'The PDF',
            headers: {
              'Content-Disposition': {
                type: 'string',
                description: 'attachment; filename="proposal-<doc_number>.pdf"',
              },
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const pdf = await proposalPdf(ctx(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .send(pdf.body);
    },
  );

  app.patch(
    '/v1/proposals/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          "Change a draft proposal's fields, wording (HTML is cleaned) and sections; 409 while out for signature or once decided",
        params,
        body: UpdateProposalBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({
      data: await updateProposal(ctx(request), request.params.id, request.body, originOf(request)),
    }),
  );
}
