// The proposal in front of the customer (document 3, Proposals): the link to share yourself, the
// link's switch and expiry, the email send, the owner's approval of a send or share over a user's
// limit (approval.ts), and withdrawing it (void). All need write_jobs; share-link and void also the
// user's pricing access (checked in the services).
import { Type } from '@sinclair/typebox';
import { contextFor, type Env } from '#platform/context.ts';
import { type ApiApp, originOf, WRITE } from '#platform/routes.ts';
import { bodyOptional } from '#platform/schemas.ts';
import {
  ApprovalBody,
  LinkBody,
  OneProposal,
  ProposalParams,
  ProposalSchema,
  SendBody,
  ShareLinkBody,
  VoidBody,
} from './schemas.ts';
import { sendProposal } from './send.ts';
import { decideApproval } from './approval.ts';
import { shareLink, updateLink, voidProposal } from './share.ts';

const tags = ['Proposals'];
const params = ProposalParams;

export function proposalLinkRoutes(app: ApiApp, env: Env): void {
  const ctx = contextFor(env);

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
}
