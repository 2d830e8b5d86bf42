// The demo workspace's proposals: each made from a job's issued estimate and sent to the job's
// contact. One the customer signs on its page (opened first, then accepted through the same path as
// the page: the executed PDF, the job moved to its won stage, proposal_accepted and the office's
// alert), so a won job always stands on an accepted proposal and its page shows the signed copy;
// another stays sent, so its page can be read and signed out of the box. They are sent only
// through the embedded outbox (the .eml lands in the outbox folder, GET /admin/v1/outbox): with an
// SMTP server configured the demo would otherwise email its made-up customers, so they stay drafts
// (and nothing is signed).
import type { ServiceContext } from '#platform/context.ts';
import {
  acceptProposal,
  pageDocumentHash,
  proposalFromEstimate,
  proposalOfEstimate,
  recordProposalOpen,
  sendProposal,
  updateProposal,
} from '#estimating/index.ts';

type ProposalChanges = Parameters<typeof updateProposal>[2];

export interface DemoProposal {
  id: number;
  /** Sent (and signed, when a signer was given); false while it is a draft. */
  sent: boolean;
  /** The deposit the proposal asks for, in dollars (null when none). */
  deposit: number | null;
  /** The page: serve prints it after its own origin. */
  page: { label: string; path: string };
}

/** Who signs on the customer's side; the audit trail shows the demo as the browser. */
export interface DemoSigner {
  name: string;
  email: string;
}

const DEMO_VISITOR = { ip: null, userAgent: 'Groundwork demo seed' };

export async function demoProposal(
  ctx: ServiceContext,
  estimateId: number,
  origin: string,
  o: { changes?: ProposalChanges; signer?: DemoSigner } = {},
): Promise<DemoProposal> {
  const made = (await proposalFromEstimate(ctx, estimateId, origin)).data;
  const data = o.changes ? await updateProposal(ctx, made.id, o.changes, origin) : made;
  const pathOf = (url: string | null) => (url ?? '').slice(origin.length);
  if (ctx.deps.mail.kind !== 'outbox')
    return {
      id: data.id,
      sent: false,
      deposit: data.totals.deposit,
      page: { label: 'Proposal (draft)', path: pathOf(data.share_url) },
    };
  const sent = (await sendProposal(ctx, data.id, { start_follow_up_sequence: false }, origin)).data;
  const page = { label: 'Proposal (sent, ready to sign)', path: pathOf(sent.share_url) };
  if (!o.signer) return { id: sent.id, sent: true, deposit: sent.totals.deposit, page };

  const db = ctx.database.db;
  const row = await recordProposalOpen(
    ctx.database,
    (await proposalOfEstimate(db, ctx.auth.firm.id, estimateId))!,
    DEMO_VISITOR,
  );
  const signed = await acceptProposal(
    ctx.database,
    ctx.deps,
    row,
    { ...o.signer, consent: true, signature: '', documentHash: await pageDocumentHash(db, row) },
    DEMO_VISITOR,
  );
  if (!('result' in signed) || signed.result !== 'answered')
    throw new Error(`the demo proposal ${row.id} could not be signed: ${JSON.stringify(signed)}`);
  return {
    id: sent.id,
    sent: true,
    deposit: sent.totals.deposit,
    page: { label: 'Proposal (accepted, with the signed PDF)', path: page.path },
  };
}
