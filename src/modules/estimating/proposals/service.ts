// Proposals (document 3, Proposal; docs/api-decisions.md, "Proposals"): made from an estimate by
// POST /v1/estimates/{id}/proposal (201 a draft with default wording, 30 days' validity and its
// customer link; later calls refresh the prices of a draft or void one, while a sent, viewed or
// decided proposal keeps exactly what the customer saw), read one by one and in lists, and edited
// while a draft (409 while out for signature or once decided).
import type { Transaction } from 'kysely';
import type { DB, Proposal } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import type { Page } from '#platform/pagination.ts';
import type { SyncWindow } from '#platform/sync.ts';
import { addDays, now } from '#platform/time.ts';
import { estimatingRoleOf } from '#estimating/estimates/roles.ts';
import { effectivePricing } from '#estimating/estimates/calculation.ts';
import { findEstimate, loadTree } from '#estimating/estimates/repo.ts';
import { estimateNotFound } from '#estimating/estimates/write.ts';
import { defaultContent } from './content.ts';
import { PROPOSAL_LINK_KIND, linkObjectOf, shareUrlOf } from './link.ts';
import { todayIn } from '#platform/time-zone.ts';
import { notReadyReason, pricedOf, totalsOfEstimate } from './priced.ts';
import {
  auditTrail,
  findProposal,
  listProposals as listRows,
  proposalOfEstimate,
  serviceProposalTexts,
} from './repo.ts';
import { proposalObject, proposalSummary, signatureObject } from './serialize.ts';
import { defaultSections } from './sections.ts';

type Trx = Transaction<DB>;

export const proposalNotFound = () => notFound('Proposal not found');

/** A new proposal's link, sending, viewing, answer and approval columns: on, and nothing happened yet. */
export const UNSENT = {
  approval_status: 'not_required',
  approval_requested_by_user_id: null,
  approval_decided_by_user_id: null,
  approval_decided_at: null,
  approval_note: null,
  link_enabled: 1,
  link_expires_on: null,
  sent_at: null,
  sent_to: null,
  sent_by_user_id: null,
  first_viewed_at: null,
  last_viewed_at: null,
  view_count: 0,
  accepted_at: null,
  rejected_at: null,
  decline_reason: null,
  voided_at: null,
  signer_name: null,
  signer_email: null,
  signed_at: null,
  consent_version: null,
  signature_image: null,
  signed_document: null,
  document_sha256: null,
  executed_file_id: null,
} as const satisfies Partial<Proposal>;

/** Days a new proposal is valid (document 3, Proposal state table: "30 days validity"). */
export const VALIDITY_DAYS = 30;

/** Pricing access (document 1, user capabilities): proposals show prices. */
export function assertPricingAccess(ctx: ServiceContext): void {
  if (!can(ctx.auth.user, 'pricing_access'))
    throw forbidden('Pricing access required', {
      code: 'pricing_access_required',
      message: "The key's user has no pricing access, so cannot prepare or change proposals",
    });
}

/** Making a proposal: the workspace owner, or an estimating admin or estimator (document 3). */
function assertProposalRole(ctx: ServiceContext): void {
  const role = estimatingRoleOf(ctx.auth.user);
  if (role === 'admin' || role === 'estimator') return;
  throw forbidden('Estimating role does not allow this', {
    code: 'estimating_role_required',
    message:
      role === 'none'
        ? "The key's user has no estimating role; proposals are made by owners, estimating admins and estimators"
        : `The key's user has the ${role} estimating role; proposals are made by owners, estimating admins and estimators`,
    estimating_role: role,
  });
}

export async function proposalOr404(ctx: ServiceContext, db: Executor, id: number): Promise<Proposal> {
  const p = await findProposal(db, ctx.auth.firm.id, id, ctx.auth.user);
  if (!p) throw proposalNotFound();
  return p;
}

export const today = (ctx: ServiceContext) => todayIn(ctx.auth.firm.timezone);

/** The single object of a proposal, read again after a write or as it is. */
export async function proposalWire(ctx: ServiceContext, p: Proposal, origin: string) {
  const day = today(ctx);
  const [shareUrl, link, trail] = await Promise.all([
    shareUrlOf(ctx.deps, p, origin, day),
    linkObjectOf(ctx.deps, p, origin, day),
    auditTrail(ctx.database.db, p.id),
  ]);
  return proposalObject(p, { shareUrl, link, trail });
}

export async function writtenProposal(ctx: ServiceContext, id: number, origin: string) {
  return proposalWire(ctx, await proposalOr404(ctx, ctx.database.db, id), origin);
}

/** The estimate's priced lines and totals as a proposal shows them, or the 409 saying why not yet. */
async function pricedFromEstimate(ctx: ServiceContext, trx: Trx, estimateId: number) {
  const estimate = await findEstimate(trx, ctx.auth.firm.id, estimateId, ctx.auth.user);
  if (!estimate) throw estimateNotFound();
  const tree = await loadTree(trx, estimate);
  const serviceIds = [...new Set(tree.lines.map((l) => l.assembly_id).filter((x): x is number => x !== null))];
  const texts = await serviceProposalTexts(trx, ctx.auth.firm.id, serviceIds);
  const priced = pricedOf(tree, texts, effectivePricing(estimate, ctx.auth.settings).tax_rate);
  const reason = notReadyReason(estimate, priced.lines.length);
  if (reason) throw conflict('Estimate cannot go to a proposal yet', reason);
  return { estimate, priced, totals: totalsOfEstimate(estimate) };
}

/**
 * POST /v1/estimates/{id}/proposal. The token for a new link is made before the transaction (it
 * reads the server secret); a refresh does not use it.
 */
export async function proposalFromEstimate(ctx: ServiceContext, estimateId: number, origin: string) {
  assertPricingAccess(ctx);
  assertProposalRole(ctx);
  const token = await ctx.deps.links.issue(PROPOSAL_LINK_KIND);
  const firmId = ctx.auth.firm.id;
  const { id, created } = await inWorkspaceTransaction(ctx, async (trx) => {
    const { estimate, priced, totals } = await pricedFromEstimate(ctx, trx, estimateId);
    const t = now();
    const existing = await proposalOfEstimate(trx, firmId, estimate.id);
    if (existing) {
      // A sent, viewed or decided proposal keeps exactly what the customer saw.
      if (existing.status !== 'draft' && existing.status !== 'void') return { id: existing.id, created: false };
      const changedTotal = existing.total_cents !== totals.total_cents;
      await trx
        .updateTable('proposals')
        .set({
          priced: JSON.stringify(priced),
          ...totals,
          priced_at: t,
          // An approval was for a total: a different total needs approving again.
          ...(changedTotal && existing.approval_status !== 'not_required'
            ? { approval_status: 'not_required' as const, approval_decided_by_user_id: null, approval_decided_at: null }
            : {}),
          updated_at: t,
        })
        .where('id', '=', existing.id)
        .execute();
      return { id: existing.id, created: false };
    }
    const job = await trx
      .selectFrom('jobs')
      .select(['contact_name', 'contact_email', 'company', 'bill_to_name', 'bill_to_email', 'name'])
      .where('id', '=', estimate.job_id!)
      .executeTakeFirstOrThrow();
    const clientName = job.contact_name ?? job.bill_to_name ?? null;
    const row = await trx
      .insertInto('proposals')
      .values({
        firm_id: firmId,
        job_id: estimate.job_id!,
        estimate_id: estimate.id,
        doc_number: estimate.doc_number,
        status: 'draft',
        title: `Proposal: ${job.name}`.slice(0, 200),
        client_name: clientName,
        client_email: job.contact_email ?? job.bill_to_email ?? null,
        client_company: job.company,
        valid_until: addDays(today(ctx), VALIDITY_DAYS),
        is_customer_copy: 0,
        template_id: null,
        content: JSON.stringify(defaultContent(ctx.auth.firm.name, clientName)),
        sections: JSON.stringify(defaultSections()),
        priced: JSON.stringify(priced),
        ...totals,
        priced_at: t,
        token_salt: token.salt,
        token_hash: token.hash,
        ...UNSENT,
        created_by_user_id: ctx.auth.user.id,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, created: true };
  });
  return { data: await writtenProposal(ctx, id, origin), created };
}

export async function getProposal(ctx: ServiceContext, id: number, origin: string) {
  return writtenProposal(ctx, id, origin);
}

export async function getSignature(ctx: ServiceContext, id: number) {
  const p = await proposalOr404(ctx, ctx.database.db, id);
  return signatureObject(p, await auditTrail(ctx.database.db, p.id));
}

export interface ProposalListFilter {
  estimateId?: number;
  jobId?: number;
  status?: string;
  updatedAfter?: SyncWindow;
}

export async function listProposals(ctx: ServiceContext, filter: ProposalListFilter, page: Page, origin: string) {
  const { rows, total } = await listRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  const day = today(ctx);
  const data = await Promise.all(rows.map(async (p) => proposalSummary(p, await shareUrlOf(ctx.deps, p, origin, day))));
  return { data, total };
}

/** 409 for a proposal the customer answered or the office withdrew: it is not changed or sent again. */
export function assertNotClosed(p: Proposal, doing: 'change' | 'send'): void {
  if (p.status === 'accepted' || p.status === 'rejected')
    throw conflict(`Proposal was ${p.status === 'accepted' ? 'accepted' : 'declined'}`, {
      code: 'proposal_decided',
      message:
        doing === 'change'
          ? 'A decided proposal keeps what the customer decided on'
          : 'A decided proposal is not sent again',
      status: p.status,
    });
  if (p.status === 'void')
    throw conflict('Proposal is void', {
      code: 'proposal_void',
      message: `Reopen it as a draft with POST …/share-link before ${doing === 'change' ? 'changing' : 'sending'} it`,
      status: p.status,
    });
}

/** The 409s of a proposal that can no longer be edited (document 3: out for signature). */
export function assertEditable(p: Proposal): void {
  if (p.status === 'sent' || p.status === 'viewed')
    throw conflict('Proposal is out for signature', {
      code: 'out_for_signature',
      message: 'The customer has this proposal to sign; void it (POST …/void) to change it',
      status: p.status,
    });
  assertNotClosed(p, 'change');
}

export function assertValidDate(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T00:00:00Z`);
    if (!Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value) return value;
  }
  throw badRequest(`${field} must be a date (YYYY-MM-DD) or null`, { code: 'invalid_request', field });
}
