// The change order state table (document 3): approve and decline (the office's decision, or a
// stage of that meaning), a move to any stage (its meaning sets the status), and void. Approval
// freezes the figures, posts them to the job's contract and budget (contract.ts) and records
// change_order_approved, all in one transaction; the customer's answers on the page (visit.ts) go
// through the same approveIn and declineIn. Every move is a conditional UPDATE on the status it
// leaves, so of two decisions at once only one happens and the event fires exactly once.
import type { Executor } from '#db/dialect.ts';
import type { ChangeOrder } from '#db/tables.ts';
import { loadTree } from '#estimating/index.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { badRequest, conflict } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { postApproval, reversePosting } from './contract.ts';
import { recordChangeOrderApproved } from './events.ts';
import {
  costCodeLines,
  type CostCodeLine,
  type Figures,
  figuresFromEstimate,
  followsEstimate,
  linesChange,
  parseLines,
  storedFigures,
} from './figures.ts';
import { linkFor } from './link.ts';
import type { DecisionInput } from './schemas.ts';
import { assertOperations, changeOrderOr404, refuseClosed, writtenChangeOrder } from './service.ts';
import { changeOrderStages, firstStage, STATUS_OF_MEANING } from './stages.ts';

const OPEN = ['draft', 'sent'] as const;

/** The figures and lines as they stand, to freeze: a priced open one's from its estimate now. */
async function currentFigures(
  trx: Executor,
  co: ChangeOrder,
): Promise<{ figures: Figures; lines: CostCodeLine[] | null }> {
  if (followsEstimate(co)) {
    const estimate = await trx
      .selectFrom('estimates')
      .selectAll()
      .where('id', '=', co.ep_estimate_id!)
      .executeTakeFirst();
    if (estimate)
      return {
        figures: figuresFromEstimate(co, estimate),
        lines: linesChange(costCodeLines(await loadTree(trx, estimate)), parseLines(co.base_lines)),
      };
  }
  return { figures: storedFigures(co), lines: parseLines(co.lines) };
}

const frozen = (f: Figures, lines: CostCodeLine[] | null) => ({
  amount_delta_cents: f.amount_cents,
  tax_delta_cents: f.tax_cents,
  cost_delta_cents: f.cost_cents,
  lines: lines === null ? null : JSON.stringify(lines),
});

/** Who approved: the office (the key's user) or the customer's signature on the page. */
export type Approval =
  | { source: 'office'; userId: number; comment: string | null }
  | {
      source: 'customer';
      signatureName: string;
      /** Stored-form UTC: the approval's time (the audit trail's signing step has the same). */
      signedAt: string;
      consentVersion: string;
      signatureImage: string | null;
      signedDocument: string;
      documentSha256: string;
    };

/**
 * draft or sent → approved, in the caller's transaction: the figures frozen, posted to the job,
 * the job's revised contract and budget kept, change_order_approved. Undefined when the change
 * order was no longer open (decided meanwhile).
 */
export async function approveIn(
  trx: Executor,
  co: ChangeOrder,
  stage: string,
  approval: Approval,
): Promise<ChangeOrder | undefined> {
  const t = approval.source === 'customer' ? approval.signedAt : now();
  const { figures, lines } = await currentFigures(trx, co);
  const who: Partial<ChangeOrder> =
    approval.source === 'office'
      ? { decided_by_user_id: approval.userId, decision_comment: approval.comment }
      : {
          signature_name: approval.signatureName,
          signed_at: t,
          consent_version: approval.consentVersion,
          signature_image: approval.signatureImage,
          signed_document: approval.signedDocument,
          document_sha256: approval.documentSha256,
        };
  const approved = await trx
    .updateTable('change_orders')
    .set({
      ...frozen(figures, lines),
      ...who,
      status: 'approved',
      stage,
      approved_at: t,
      approval_source: approval.source,
      updated_at: t,
    })
    .where('id', '=', co.id)
    .where('status', 'in', OPEN)
    .returningAll()
    .executeTakeFirst();
  if (!approved) return undefined;
  const money = await postApproval(trx, approved, figures);
  const posted = await trx
    .updateTable('change_orders')
    .set({ revised_contract_cents: money.contract_cents, revised_budget_cents: money.budget_cents })
    .where('id', '=', co.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordChangeOrderApproved(trx, posted);
  return posted;
}

/** Who declined: the office (the key's user) or the customer on the page. */
export type Refusal =
  | { source: 'office'; userId: number; comment: string | null }
  | { source: 'customer'; comment: string | null };

/** draft or sent → declined, in the caller's transaction; undefined when no longer open. */
export async function declineIn(
  trx: Executor,
  co: ChangeOrder,
  stage: string,
  refusal: Refusal,
  t: string = now(),
): Promise<ChangeOrder | undefined> {
  const { figures, lines } = await currentFigures(trx, co);
  return trx
    .updateTable('change_orders')
    .set({
      ...frozen(figures, lines),
      status: 'declined',
      stage,
      declined_at: t,
      decided_by_user_id: refusal.source === 'office' ? refusal.userId : null,
      decision_comment: refusal.comment,
      updated_at: t,
    })
    .where('id', '=', co.id)
    .where('status', 'in', OPEN)
    .returningAll()
    .executeTakeFirst();
}

/** A decision that lost a race with another: the change order is closed now, and says how. */
async function closedSince(trx: Executor, id: number): Promise<never> {
  const co = await trx.selectFrom('change_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  refuseClosed(co);
  throw conflict('The change order changed while it was being decided', { code: 'concurrent_change' });
}

/** The office's decision, as POST …/approve, …/decline or a move to a stage of that meaning records it. */
async function decideAsOffice(
  ctx: ServiceContext,
  current: ChangeOrder,
  meaning: 'approved' | 'declined',
  stage: string,
  comment: string | null,
): Promise<void> {
  await inWorkspaceTransaction(ctx, async (trx) => {
    const office = { source: 'office' as const, userId: ctx.auth.user.id, comment };
    const done =
      meaning === 'approved'
        ? await approveIn(trx, current, stage, office)
        : await declineIn(trx, current, stage, office);
    if (!done) await closedSince(trx, current.id);
  });
}

/** POST …/approve and …/decline: the office's decision on a draft or sent change order. */
export async function decideChangeOrder(
  ctx: ServiceContext,
  id: number,
  meaning: 'approved' | 'declined',
  input: DecisionInput,
  origin: string,
) {
  assertOperations(ctx);
  const current = await changeOrderOr404(ctx, ctx.database.db, id);
  // Document 3: no decline once the customer signed; signing approves, so that is decided too.
  refuseClosed(current);
  const stage = firstStage(changeOrderStages(ctx.auth.settings), meaning);
  await decideAsOffice(ctx, current, meaning, stage, input.comment?.trim() || null);
  return writtenChangeOrder(ctx, id, origin);
}

/**
 * POST …/stage: a key of the workspace's stages (400 otherwise); its meaning sets the status.
 * working moves a sent change order back to draft (its link then shows it is being revised);
 * sent marks it sent without an email and makes its link, for the office to share; approved and
 * declined are the decisions above.
 */
export async function moveToStage(ctx: ServiceContext, id: number, key: string, origin: string) {
  assertOperations(ctx);
  const current = await changeOrderOr404(ctx, ctx.database.db, id);
  const stages = changeOrderStages(ctx.auth.settings);
  const stage = stages.find((s) => s.key === key);
  if (!stage)
    throw badRequest('unknown stage key', {
      code: 'unknown_stage',
      field: 'stage',
      stage: key,
      stages: stages.map((s) => s.key),
      message: 'stage must be a key from GET /v1/change-order-stages',
    });
  refuseClosed(current);
  if (stage.meaning === 'approved' || stage.meaning === 'declined') {
    await decideAsOffice(ctx, current, stage.meaning, stage.key, null);
    return writtenChangeOrder(ctx, id, origin);
  }
  const link = stage.meaning === 'sent' ? await linkFor(ctx.deps, current, origin) : null;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const t = now();
    const moved = await trx
      .updateTable('change_orders')
      .set({
        status: STATUS_OF_MEANING[stage.meaning],
        stage: stage.key,
        ...(stage.meaning === 'sent' && current.sent_at === null
          ? { sent_at: t, sent_by_user_id: ctx.auth.user.id }
          : {}),
        updated_at: t,
      })
      .where('id', '=', current.id)
      .where('status', 'in', OPEN)
      .returning('id')
      .executeTakeFirst();
    if (!moved) await closedSince(trx, id);
    // Its link, unless a send made one meanwhile (the emailed link must keep working).
    if (link)
      await trx
        .updateTable('change_orders')
        .set({ token_salt: link.salt, token_hash: link.hash })
        .where('id', '=', current.id)
        .where('token_salt', 'is', null)
        .execute();
  });
  return writtenChangeOrder(ctx, id, origin);
}

/**
 * POST …/void: any change order except a signed one or an approved priced one (409); it keeps its
 * number. Voiding an approved quick change order takes back what its approval posted.
 */
export async function voidChangeOrder(ctx: ServiceContext, id: number, origin: string) {
  assertOperations(ctx);
  const current = await changeOrderOr404(ctx, ctx.database.db, id);
  refuseVoid(current);
  await inWorkspaceTransaction(ctx, async (trx) => {
    const { figures, lines } = await currentFigures(trx, current);
    const t = now();
    const voided = await trx
      .updateTable('change_orders')
      .set({ ...frozen(figures, lines), status: 'void', voided_at: t, updated_at: t })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .where('signed_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!voided) {
      // Lost a race: a concurrent void (or signature) answers as a repeat would.
      refuseVoid(await trx.selectFrom('change_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      throw conflict('The change order changed while it was being voided', {
        code: 'concurrent_change',
        message: 'Read it again (GET /v1/change-orders/{id}) and void it again if you still mean to',
      });
    }
    if (current.status === 'approved') await reversePosting(trx, current);
  });
  return writtenChangeOrder(ctx, id, origin);
}

/** What void refuses: a void, a signed or an approved priced change order (409). */
function refuseVoid(current: ChangeOrder): void {
  if (current.status === 'void')
    throw conflict('Change order is already void', { code: 'invalid_transition', status: current.status });
  if (current.signed_at !== null)
    throw conflict('A signed change order cannot be voided', {
      code: 'signed_change_order',
      status: current.status,
      message: 'The customer signed this change order',
    });
  if (current.status === 'approved' && current.kind !== 'quick')
    throw conflict('An approved priced change order cannot be voided', {
      code: 'approved_priced_change_order',
      status: current.status,
      message: 'Its estimate priced work the job now carries: make a new change order to undo it',
    });
}
