// Proposal events (document 1, "Job and proposal events"): proposal_sent, proposal_viewed,
// proposal_accepted and proposal_declined are webhook-only (not in the feed), recorded in the
// transaction of the transition they announce, once per transition. Their payload carries the job
// (as every job event) and the proposal object {id, kind, title, status, total, sent_at,
// actor_user_id}; status_changed, previous_status and current_status are the job's, so an
// acceptance that moved the job says so.
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';
import { recordEvent } from '#events/record.ts';
import { centsToDollars } from '#platform/money.ts';
import { zWire } from '#platform/time.ts';

export type ProposalEventType = 'proposal_sent' | 'proposal_viewed' | 'proposal_accepted' | 'proposal_declined';

/** The opaque `kind` of the payload's proposal object: an estimate's proposal, or a customer copy. */
export const proposalKind = (p: Pick<Proposal, 'is_customer_copy'>) =>
  p.is_customer_copy === 1 ? 'estimate_proposal_copy' : 'estimate_proposal';

export function proposalPayloadObject(p: Proposal, actorUserId: number | null) {
  return {
    id: p.id,
    kind: proposalKind(p),
    title: p.title,
    status: p.status,
    total: centsToDollars(p.total_cents),
    sent_at: zWire(p.sent_at),
    actor_user_id: actorUserId,
  };
}

export async function recordProposalEvent(
  trx: Executor,
  input: {
    type: ProposalEventType;
    /** The proposal as it is after the transition. */
    proposal: Proposal;
    /** The teammate who acted; null for what the customer did on the page. */
    actorUserId: number | null;
    /** The job's stage before and after (the same unless the transition moved the job). */
    jobStatus: { previous: string; current: string };
  },
): Promise<void> {
  const { proposal, jobStatus } = input;
  await recordEvent(trx, {
    firmId: proposal.firm_id,
    type: input.type,
    entity: { type: 'proposal', id: proposal.id },
    jobId: proposal.job_id,
    inFeed: false,
    data: {
      status_changed: jobStatus.previous !== jobStatus.current,
      previous_status: jobStatus.previous,
      current_status: jobStatus.current,
      proposal: proposalPayloadObject(proposal, input.actorUserId),
    },
  });
}
