// The customer link's calls (document 3, Proposals): POST …/share-link answers the link to share
// yourself (never marks sent; 409 approval_required over the user's send-approval limit, like a send; regenerate replaces the link and the old one stops; a void proposal
// goes back to draft), PATCH …/link turns it off and on or sets its expiry, and POST …/void
// withdraws a proposal (the spec leaves open which call sets void: this one).
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { PROPOSAL_LINK_KIND } from './link.ts';
import { assertApproved } from './approval.ts';
import { assertPricingAccess, assertValidDate, proposalOr404, today, writtenProposal } from './service.ts';

export async function shareLink(ctx: ServiceContext, id: number, input: { regenerate?: boolean }, origin: string) {
  assertPricingAccess(ctx);
  // A link the user shares puts the proposal in front of the customer as a send does.
  await assertApproved(ctx, await proposalOr404(ctx, ctx.database.db, id));
  const token = input.regenerate ? await ctx.deps.links.issue(PROPOSAL_LINK_KIND) : null;
  const day = today(ctx);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    const t = now();
    const changes: Record<string, unknown> = {};
    // Asking for the link to share means it should work: on, and not past an expiry date.
    if (p.link_enabled !== 1) changes.link_enabled = 1;
    if (p.link_expires_on !== null && p.link_expires_on < day) changes.link_expires_on = null;
    if (p.status === 'void') {
      changes.status = 'draft';
      changes.voided_at = null;
    }
    if (token) {
      await retireLink(trx, {
        firmId: p.firm_id,
        kind: PROPOSAL_LINK_KIND,
        tokenHash: p.token_hash,
        reason: 'replaced',
      });
      changes.token_salt = token.salt;
      changes.token_hash = token.hash;
    }
    if (Object.keys(changes).length === 0) return;
    await trx
      .updateTable('proposals')
      .set({ ...changes, updated_at: t })
      .where('id', '=', p.id)
      .execute();
  });
  const data = await writtenProposal(ctx, id, origin);
  // On and not expired (made so above): the object's share_url is the link to share.
  return { url: data.share_url!, data };
}

export async function updateLink(
  ctx: ServiceContext,
  id: number,
  input: { enabled?: boolean; expires_on?: string | null },
  origin: string,
) {
  const expires = input.expires_on === undefined ? undefined : assertValidDate(input.expires_on, 'expires_on');
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    const changes: Record<string, unknown> = {};
    if (input.enabled !== undefined && (input.enabled ? 1 : 0) !== p.link_enabled)
      changes.link_enabled = input.enabled ? 1 : 0;
    if (expires !== undefined && expires !== p.link_expires_on) changes.link_expires_on = expires;
    if (Object.keys(changes).length === 0) return;
    await trx
      .updateTable('proposals')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', p.id)
      .execute();
  });
  return writtenProposal(ctx, id, origin);
}

/** Withdraws the proposal: its link shows the customer that it was withdrawn. Accepted ones stay. */
export async function voidProposal(ctx: ServiceContext, id: number, origin: string) {
  assertPricingAccess(ctx);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    if (p.status === 'void') return;
    if (p.status === 'accepted')
      throw conflict('Proposal was accepted', {
        code: 'proposal_decided',
        message: 'An accepted proposal is what the customer signed; new scope goes through a change order',
        status: p.status,
      });
    const t = now();
    await trx
      .updateTable('proposals')
      .set({ status: 'void', voided_at: t, updated_at: t })
      .where('id', '=', p.id)
      .execute();
  });
  return writtenProposal(ctx, id, origin);
}
