// /v1/proposals and POST /v1/estimates/{id}/proposal (document 3, Proposals). Reads need read_jobs,
// writes write_jobs; making, changing and sharing a proposal also need the user's pricing access
// (checked in the services). The customer's page is src/pages/proposal.ts.
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { listEnvelope, pageOf } from '#platform/pagination.ts';
import { type ApiApp, originOf, READ, WRITE } from '#platform/routes.ts';
import { bodyOptional, One, PageQuery, RecordId } from '#platform/schemas.ts';
import { syncWindow } from '#platform/sync.ts';
import { proposalPdf } from './pdf-route.ts';
import {
  ApplyTemplateBody,
  ApprovalBody,
  LinkBody,
  OneProposal,
  PROPOSAL_STATUSES,
  ProposalList,
  ProposalParams,
  ProposalSchema,
  SaveTemplateBody,
  SendBody,
  ShareLinkBody,
  SignatureSchema,
  TemplateSchema,
  UpdateProposalBody,
  VoidBody,
} from './schemas.ts';
import { sendProposal } from './send.ts';
import { decideApproval } from './approval.ts';
import { getProposal, getSignature, listProposals, proposalFromEstimate } from './service.ts';
import { shareLink, updateLink, voidProposal } from './share.ts';
import { applyTemplate, listTemplates, saveTemplate } from './templates.ts';
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

  app.post(
    '/v1/proposals/:id/share-link',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          "The customer link to share yourself (turned on if off); regenerate replaces it and the old one stops; a void proposal goes back to draft; never marks sent; 409 approval_required over the user's send-approval limit, as for a send",
        params,
        body: ShareLinkBody,
        response: { 200: Type.Object({ url: Type.String(), data: ProposalSchema }) },
      },
    },
    async (request) => shareLink(ctx(request), request.params.id, request.body, originOf(request)),
  );

  app.patch(
    '/v1/proposals/:id/link',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Turn the customer link off or on (the same link) and set its expiry date',
        params,
        body: LinkBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({ data: await updateLink(ctx(request), request.params.id, request.body, originOf(request)) }),
  );

  app.post(
    '/v1/proposals/:id/apply-template',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Apply a template's layout, pages and display switches to a draft (wording and prices stay)",
        params,
        body: ApplyTemplateBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({
      data: await applyTemplate(ctx(request), request.params.id, request.body.template_id, originOf(request)),
    }),
  );

  app.post(
    '/v1/proposals/:id/send',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          "Email the customer the proposal's link (EMAILS CUSTOMER); the first send moves draft to sent; may start the follow-up sequence; 409 approval_required over the user's send limit; 502 when the mail server did not take it",
        params,
        body: SendBody,
        response: {
          200: Type.Object({
            data: ProposalSchema,
            emailed: Type.Boolean(),
            follow_up_sequence: Type.Object({
              started: Type.Boolean(),
              reason: Type.Union([Type.String(), Type.Null()], {
                description:
                  'Why it did not start: not_requested, sequence_not_enabled, already_running, customer_skips_follow_ups, no_customer_email',
              }),
            }),
          }),
        },
      },
    },
    async (request) => sendProposal(ctx(request), request.params.id, request.body, originOf(request)),
  );

  app.post(
    '/v1/proposals/:id/approval',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "An owner approves or rejects sending a proposal over the sender's send-approval limit",
        params,
        body: ApprovalBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({
      data: await decideApproval(ctx(request), request.params.id, request.body, originOf(request)),
    }),
  );

  app.post(
    '/v1/proposals/:id/void',
    {
      preValidation: bodyOptional,
      config: WRITE,
      schema: {
        tags,
        summary:
          'Withdraw the proposal (void): its link tells the customer so; POST …/share-link reopens it as a draft; an accepted proposal cannot be voided',
        params,
        body: VoidBody,
        response: { 200: OneProposal },
      },
    },
    async (request) => ({ data: await voidProposal(ctx(request), request.params.id, originOf(request)) }),
  );

  app.get(
    '/v1/proposal-templates',
    {
      config: READ,
      schema: {
        tags,
        summary: "Proposal templates: the starter set and the workspace's saved ones (string ids)",
        response: { 200: Type.Object({ data: Type.Array(TemplateSchema) }) },
      },
    },
    async (request) => ({ data: await listTemplates(ctx(request)) }),
  );

  app.post(
    '/v1/proposal-templates',
    {
      config: WRITE,
      schema: {
        tags,
        summary: "Save a proposal's layout, pages and display switches as a template",
        body: SaveTemplateBody,
        response: { 201: One(TemplateSchema) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await saveTemplate(ctx(request), request.body) }),
  );
}
