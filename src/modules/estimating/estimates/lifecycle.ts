// The estimate state table (document 3): issue (version 1 estimate_issued, later versions
// estimate_revised, numbers frozen in a version snapshot), mark won (estimate_approved, award
// snapshot), mark lost (estimate_declined), reopen a lost estimate, and change-order estimates.
import type { ServiceContext } from '#platform/context.ts';
import type { Estimate } from '#db/tables.ts';
import { conflict, forbidden } from '#platform/errors.ts';
import { isDuplicateRepeat } from '#platform/repeats.ts';
import { now, zWire } from '#platform/time.ts';
import {
  recordEstimateApproved,
  recordEstimateCreated,
  recordEstimateDeclined,
  recordEstimateIssued,
} from './events.ts';
import type { Places } from './drive-times.ts';
import { findEstimate, loadTree, totalsColumnsOf, type EstimateTree } from './repo.ts';
import { assertEstimateRole, canOverrideProfitFloor } from './roles.ts';
import type { ChangeOrderInput, IssueInput, MarkLostInput } from './schemas.ts';
import { estimateObject, marginOfSubtotal } from './serialize.ts';
import { insertEstimate } from './service.ts';
import {
  EDITABLE,
  assertStatus,
  estimateNotFound,
  inEstimateTransaction,
  repriceAndLog,
  writeEstimate,
  type Trx,
  type WriteStep,
} from './write.ts';

/** Freezes the estimate object as it is now (an issued version, or the award). */
async function snapshot(
  step: WriteStep,
  kind: 'version' | 'award',
  version: number | null,
  document: unknown,
  overridden: boolean,
): Promise<number> {
  const e = step.tree.estimate;
  const { id } = await step.trx
    .insertInto('estimate_snapshots')
    .values({
      firm_id: e.firm_id,
      estimate_id: e.id,
      kind,
      version,
      document: JSON.stringify(document),
      ...totalsColumnsOf(e),
      profit_floor_overridden: overridden ? 1 : 0,
      created_by_user_id: step.ctx.auth.user.id,
      created_at: step.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function setStatus(step: WriteStep, changes: Partial<Estimate>): Promise<Estimate> {
  await step.trx.updateTable('estimates').set(changes).where('id', '=', step.tree.estimate.id).execute();
  step.tree.estimate = { ...step.tree.estimate, ...changes };
  return step.tree.estimate;
}

/**
 * The profit floor (workspace setting profit_floor_margin): below it, issuing needs
 * override_profit_floor from the workspace owner or an estimating admin. The floor is a margin of
 * the pre-tax price (margin_pct_of_subtotal), the figure a "margin of price" rate is set in: tax is
 * collected for the state, so the same job must not pass or fail the floor by its tax rate.
 */
function checkProfitFloor(step: WriteStep, override: boolean): boolean {
  const floor = step.settings.profit_floor_margin;
  const e = step.tree.estimate;
  if (floor === null) return false;
  const ofSubtotal = marginOfSubtotal(e);
  if ((ofSubtotal ?? 0) >= floor) return false;
  const details = {
    code: 'approval_required' as const,
    margin_pct_of_subtotal: ofSubtotal,
    profit_floor_margin: floor,
    margin_pct: e.margin_pct === null ? null : Number(e.margin_pct),
  };
  if (!override) {
    throw conflict('Margin is below the profit floor', {
      ...details,
      message: canOverrideProfitFloor(step.ctx.auth.user)
        ? 'Send override_profit_floor: true to issue it anyway'
        : 'The workspace owner or an estimating admin must issue it (with override_profit_floor: true)',
    });
  }
  if (!canOverrideProfitFloor(step.ctx.auth.user)) {
    throw forbidden('Margin is below the profit floor', {
      ...details,
      message: 'Only the workspace owner or an estimating admin can override the profit floor',
    });
  }
  return true;
}

/** When the estimate's current version was frozen (null before the first issue). */
async function lastIssuedAt(trx: Trx, e: Estimate): Promise<string | null> {
  if (e.current_version === null) return null;
  const row = await trx
    .selectFrom('estimate_snapshots')
    .select('created_at')
    .where('estimate_id', '=', e.id)
    .where('kind', '=', 'version')
    .where('version', '=', e.current_version)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

export function issueEstimate(ctx: ServiceContext, id: number, body: IssueInput) {
  return writeEstimate(
    ctx,
    id,
    { action: 'issue', statuses: EDITABLE, treeUnchanged: true },
    async ({ trx, tree }) => {
      // Issued a moment ago and unchanged since: the same issue again answers that version.
      if (isDuplicateRepeat(await lastIssuedAt(trx, tree.estimate), tree.estimate.updated_at)) return null;
      const version = (tree.estimate.current_version ?? 0) + 1;
      return { action: 'issued', summary: `Issued version ${version}`, changes: { version } };
    },
    async (step) => {
      const e = step.tree.estimate;
      if (e.priced !== 1) {
        throw conflict('Nothing to issue', {
          code: 'issue_blocked',
          message: 'Add at least one line to the bid before issuing',
        });
      }
      const overridden = checkProfitFloor(step, !!body.override_profit_floor);
      const version = (e.current_version ?? 0) + 1;
      const issued = await setStatus(step, {
        current_version: version,
        status: e.status === 'draft' ? 'estimate' : e.status,
      });
      const document = {
        ...estimateObject(step.tree),
        version,
        issued_at: zWire(step.at),
        issued_by_user_id: ctx.auth.user.id,
      };
      const snapshotId = await snapshot(step, 'version', version, document, overridden);
      await recordEstimateIssued(step.trx, issued, version, snapshotId, ctx.auth.user.id);
    },
  );
}

export function markWon(ctx: ServiceContext, id: number) {
  // A draft is refused below as not issued, which says what to do.
  return writeEstimate(
    ctx,
    id,
    { action: 'decide', statuses: ['draft', 'estimate', 'change_order'], treeUnchanged: true },
    async ({ tree }) => {
      if (tree.estimate.current_version === null) {
        throw conflict('Estimate has not been issued', {
          code: 'not_issued',
          message: 'Issue the estimate before marking it won',
        });
      }
      return { action: 'won', summary: 'Marked won', changes: { from_status: tree.estimate.status } };
    },
    async (step) => {
      await setStatus(step, { status: 'won', awarded_at: step.at });
      const snapshotId = await snapshot(
        step,
        'award',
        step.tree.estimate.current_version,
        estimateObject(step.tree),
        false,
      );
      const won = await setStatus(step, { award_snapshot_id: snapshotId });
      await recordEstimateApproved(step.trx, won);
    },
  );
}

export function markLost(ctx: ServiceContext, id: number, body: MarkLostInput) {
  return writeEstimate(
    ctx,
    id,
    { action: 'decide', statuses: EDITABLE, treeUnchanged: true },
    async ({ tree }) => ({
      action: 'lost',
      summary: 'Marked lost',
      changes: { from_status: tree.estimate.status, reason: body.reason ?? null },
    }),
    async (step) => {
      // Re-priced but not yet moved: the status it is lost from.
      const from = step.tree.estimate.status;
      const lost = await setStatus(step, {
        status: 'lost',
        lost_at: step.at,
        lost_reason: body.reason?.trim() || null,
        status_before_lost: from,
      });
      await recordEstimateDeclined(step.trx, lost, from);
    },
  );
}

/** A lost estimate goes back to the status it was lost from (no event: document 1 names none). */
export function reopenEstimate(ctx: ServiceContext, id: number) {
  return writeEstimate(
    ctx,
    id,
    { action: 'decide', statuses: ['lost'], treeUnchanged: true },
    async ({ tree }) => ({
      action: 'reopened',
      summary: 'Reopened',
      changes: { to_status: tree.estimate.status_before_lost },
    }),
    async (step) => {
      const e = step.tree.estimate;
      await setStatus(step, {
        status: e.status_before_lost ?? (e.current_version === null ? 'draft' : 'estimate'),
        lost_at: null,
        lost_reason: null,
        status_before_lost: null,
      });
    },
  );
}

// ---- change-order estimates ----

/** Copies areas, lines and cost lines, keeping bundle and parent links within the copy. */
async function copyContent(trx: Trx, from: EstimateTree, to: Estimate, at: string): Promise<void> {
  const areaIds = new Map<number, number>();
  for (const a of from.areas) {
    const { id: _id, estimate_id: _e, ...rest } = a;
    const { id } = await trx
      .insertInto('estimate_areas')
      .values({ ...rest, estimate_id: to.id, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    areaIds.set(a.id, id);
  }
  const lineIds = new Map<number, number>();
  for (const l of from.lines) {
    const { id: _id, estimate_id: _e, ...rest } = l;
    const { id } = await trx
      .insertInto('estimate_lines')
      .values({
        ...rest,
        estimate_id: to.id,
        area_id: areaIds.get(l.area_id)!,
        parent_service_id: null,
        bundle_parent_service_id: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    lineIds.set(l.id, id);
  }
  for (const l of from.lines) {
    if (l.parent_service_id === null && l.bundle_parent_service_id === null) continue;
    await trx
      .updateTable('estimate_lines')
      .set({
        parent_service_id: l.parent_service_id === null ? null : (lineIds.get(l.parent_service_id) ?? null),
        bundle_parent_service_id:
          l.bundle_parent_service_id === null ? null : (lineIds.get(l.bundle_parent_service_id) ?? null),
      })
      .where('id', '=', lineIds.get(l.id)!)
      .execute();
  }
  const costLines = [...from.costLines.values()].flat().map(({ id: _id, estimate_id: _e, line_item_id, ...rest }) => ({
    ...rest,
    estimate_id: to.id,
    line_item_id: lineIds.get(line_item_id)!,
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < costLines.length; i += 200)
    await trx
      .insertInto('estimate_cost_lines')
      .values(costLines.slice(i, i + 200))
      .execute();
}

/**
 * Starts a change-order estimate from an issued or won estimate (a change order of a change
 * order hangs off the same original). additive starts empty for the new scope; revision starts
 * from a copy of the original's lines to be revised.
 */
export async function createChangeOrder(ctx: ServiceContext, parentId: number, body: ChangeOrderInput) {
  assertEstimateRole(ctx.auth.user, 'change_order');
  return inEstimateTransaction(ctx, async (trx, places) =>
    estimateObject((await startChangeOrderEstimate(ctx, trx, places, parentId, body)).tree),
  );
}

/**
 * The change-order estimate itself, in the caller's workspace transaction (opened by
 * inEstimateTransaction, so drive times are looked up outside it): the billing area's change
 * orders make theirs in the transaction that records the change order, so the two exist together
 * or not at all. The caller checks the estimating role. Answers the priced change-order estimate
 * and the estimate it hangs off.
 */
export async function startChangeOrderEstimate(
  ctx: ServiceContext,
  trx: Trx,
  places: Places,
  parentId: number,
  body: ChangeOrderInput,
): Promise<{ tree: EstimateTree; parent: Estimate }> {
  let parent = await findEstimate(trx, ctx.auth.firm.id, parentId, ctx.auth.user);
  if (!parent) throw estimateNotFound();
  if (parent.is_change_order === 1 && parent.parent_estimate_id !== null) {
    parent = (await findEstimate(trx, ctx.auth.firm.id, parent.parent_estimate_id, ctx.auth.user)) ?? parent;
  }
  assertStatus(parent, { statuses: ['draft', 'estimate', 'won', 'change_order'] });
  if (parent.current_version === null) {
    throw conflict('Estimate has not been issued', {
      code: 'not_issued',
      message: 'Change orders start from an issued or won estimate',
    });
  }
  const at = now();
  const mode = body.pricing_mode ?? 'additive';
  const siblings = await trx
    .selectFrom('estimates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_estimate_id', '=', parent.id)
    .executeTakeFirstOrThrow();
  const e = await insertEstimate(
    trx,
    ctx,
    {
      job_id: parent.job_id,
      name: body.name?.trim() || `${parent.name} — change order ${Number(siblings.n) + 1}`,
      status: 'change_order',
      is_change_order: 1,
      parent_estimate_id: parent.id,
      change_order_mode: mode,
      template_id: null,
      pricing: parent.pricing,
      // Job-level money (mobilization, bond…) was charged on the original; an additive change order prices its scope alone.
      job_costs: mode === 'revision' ? parent.job_costs : null,
    },
    at,
  );
  if (mode === 'revision') {
    await copyContent(trx, await loadTree(trx, parent), e, at);
  } else {
    await trx
      .insertInto('estimate_areas')
      .values({
        firm_id: e.firm_id,
        estimate_id: e.id,
        name: 'Change order',
        position: 1,
        quantity_source: 'manual',
        takeoff_id: null,
        active: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  const tree = await repriceAndLog(
    { ctx, trx, settings: ctx.auth.settings, at, places },
    e.id,
    {
      action: 'created',
      summary: `Change order (${mode}) of estimate ${parent.id}`,
      changes: { parent_estimate_id: parent.id, pricing_mode: mode },
    },
    { totalBefore: null },
  );
  await recordEstimateCreated(trx, tree.estimate);
  return { tree, parent };
}
