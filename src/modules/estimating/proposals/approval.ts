// The send-approval limit (document 3: 409 approval_required "over the user's send-approval limit",
// for send and share-link alike): a user with a limit may not put a proposal priced over it in
// front of a customer, by email or by a link they share themselves, until an owner approves it
// (docs/api-decisions.md, "Proposals"). Asking records the request (approval_status pending) so
// the owner sees what waits on them; the owner's answer is POST /v1/proposals/{id}/approval.
import type { Proposal } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { conflict, forbidden } from '#platform/errors.ts';
import { centsToDollars } from '#platform/money.ts';
import { now } from '#platform/time.ts';
import { proposalOr404, writtenProposal } from './service.ts';

/** Over the user's limit and not approved: the limit in cents; else null. */
function limitExceeded(ctx: ServiceContext, p: Proposal): number | null {
  const limit = ctx.auth.user.proposal_send_limit_cents;
  if (ctx.auth.user.role === 'owner' || limit === null || limit === undefined) return null;
  if (p.total_cents <= limit || p.approval_status === 'approved') return null;
  return limit;
}

/**
 * Throws 409 approval_required when the proposal is over the user's limit and not approved,
 * after recording the request for approval (its own transaction, so it stays when the call fails).
 */
export async function assertApproved(ctx: ServiceContext, p: Proposal): Promise<void> {
  const limit = limitExceeded(ctx, p);
  if (limit === null) return;
  await inWorkspaceTransaction(ctx, async (trx) => {
    await trx
      .updateTable('proposals')
      .set({
        approval_status: 'pending',
        approval_requested_by_user_id: ctx.auth.user.id,
        approval_decided_by_user_id: null,
        approval_decided_at: null,
        approval_note: null,
        updated_at: now(),
      })
      .where('id', '=', p.id)
      .where('approval_status', '!=', 'pending')
      .execute();
  });
  throw conflict('Approval required', {
    code: 'approval_required',
    message: `The proposal's total is over the send-approval limit of the key's user; an owner approves it with POST /v1/proposals/${p.id}/approval`,
    approval_status: 'pending',
    total: centsToDollars(p.total_cents),
    send_limit: centsToDollars(limit),
  });
}

/** POST /v1/proposals/{id}/approval: an owner approves or rejects a send waiting on them. */
export async function decideApproval(
  ctx: ServiceContext,
  id: number,
  input: { decision: 'approve' | 'reject'; note?: string },
  origin: string,
) {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const p = await proposalOr404(ctx, trx, id);
    if (ctx.auth.user.role !== 'owner')
      throw forbidden('key creator is not an owner', {
        code: 'not_owner',
        message: 'Only a workspace owner approves sending a proposal over a send-approval limit',
      });
    if (p.approval_status !== 'pending')
      throw conflict('No approval is pending', {
        code: 'approval_not_pending',
        message: 'Approval is asked for when a send or a share-link is over the user’s limit (409 approval_required)',
        approval_status: p.approval_status,
      });
    await trx
      .updateTable('proposals')
      .set({
        approval_status: input.decision === 'approve' ? 'approved' : 'rejected',
        approval_decided_by_user_id: ctx.auth.user.id,
        approval_decided_at: now(),
        approval_note: input.note?.trim() || null,
        updated_at: now(),
      })
      .where('id', '=', p.id)
      .execute();
  });
  return writtenProposal(ctx, id, origin);
}
