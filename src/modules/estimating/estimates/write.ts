// The one way an estimate changes: in a workspace transaction, find it (404 if the user may not
// see it), check the role and the status, apply the change, re-price the whole estimate, store
// the numbers, log the edit, keep the job's estimate fields, then answer the fresh estimate.
// Document 3: every write re-runs the engine; reads return the last calculated numbers. Drive
// times are looked up outside the transaction (drive-times.ts), which may run the write again.
import type { Transaction } from 'kysely';
import type { DB, Estimate } from '#db/tables.ts';
import { inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import { ApiError, conflict, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import { alreadyArchived } from '#platform/records.ts';
import { now } from '#platform/time.ts';
import type { Settings } from '#platform/workspace.ts';
import { calculate, calculationDocument, linesInBid, storedCalculation } from './calculation.ts';
import { NeedsGeocoding, resolveDriveTimes, withPlaces, type Places } from './drive-times.ts';
import { refreshJobEstimate } from './job-estimate.ts';
import { findEstimateToWrite, loadTree, reloadLines, storedCalculationText, type EstimateTree } from './repo.ts';
import { assertEstimateRole, type EstimateAction } from './roles.ts';
import { estimateObject } from './serialize.ts';

export type Trx = Transaction<DB>;

export const estimateNotFound = () => notFound('Estimate not found');

/** What a change logs in the edit log (GET …/revisions). */
export interface RevisionNote {
  action: string;
  summary: string;
  changes?: Record<string, unknown>;
}

export interface WriteStep {
  ctx: ServiceContext;
  trx: Trx;
  tree: EstimateTree;
  settings: Settings;
  at: string;
  /** Addresses looked up for this request, outside the transaction (drive-times.ts). */
  places: Places;
  /** Cost lines this write added, with their index in the body's cost_lines (for error paths). */
  newCostLines?: Map<number, number>;
  /**
   * Says the change wrote only these lines (added, changed, removed) and their cost lines, and
   * perhaps an area: the re-pricing then reads only those again (repo.ts, reloadLines). A change that
   * writes anything else (the estimate's row, other lines) must not call it: the whole tree is then
   * read again.
   */
  linesChanged?(...lineIds: number[]): void;
}

/** Statuses in which the estimate's content may change. */
export const EDITABLE = ['draft', 'estimate', 'change_order'] as const;

export interface WriteRule {
  action: EstimateAction;
  statuses: readonly string[];
  /** Allowed on an archived estimate (restore). */
  archived?: boolean;
  /** An archived estimate is as good as gone: 404 (DELETE, whose repeat is 404 by document 1). */
  goneWhenArchived?: boolean;
  /** Look up every automatic driving time again (recalculate). */
  refreshDriveTimes?: boolean;
  /** A DELETE (it needs Delete records): refused while the workspace locks deletion, once the estimate is found. */
  deletion?: boolean;
  /**
   * The change writes no row of the estimate's tree before the re-pricing (recalculate; issue, won,
   * lost and reopen, whose status changes come after it): the tree read before it is priced as it
   * stands instead of being read again. Anything that writes a row first must leave this unset.
   */
  treeUnchanged?: boolean;
}

export function assertStatus(e: Estimate, rule: Pick<WriteRule, 'statuses' | 'archived'>): void {
  if (e.archived_at !== null && !rule.archived) {
    throw conflict('Estimate is archived', {
      code: 'estimate_archived',
      message: 'Restore the estimate (PATCH archived: false) to change it',
    });
  }
  if (rule.statuses.includes(e.status)) return;
  if (e.status === 'won') {
    throw conflict('Estimate is won', {
      code: 'estimate_won',
      status: e.status,
      message: 'A won estimate needs a change order for new scope',
    });
  }
  if (e.status === 'lost') {
    throw conflict('Estimate is lost', {
      code: 'estimate_lost',
      status: e.status,
      message: 'A lost estimate is closed; reopen it to change it',
    });
  }
  throw conflict(`Not allowed while the estimate is ${e.status}`, { code: 'invalid_status', status: e.status });
}

async function jobAddressOf(trx: Trx, e: Estimate): Promise<string | null> {
  if (e.job_id === null) return null;
  const job = await trx.selectFrom('jobs').select('address').where('id', '=', e.job_id).executeTakeFirst();
  return job?.address ?? null;
}

/**
 * Re-prices a stored estimate and saves the numbers, the edit-log entry and the job's estimate
 * fields. Returns the final tree.
 */
export async function repriceAndLog(
  step: Omit<WriteStep, 'tree'>,
  estimateId: number,
  note: RevisionNote,
  options: {
    refreshDriveTimes?: boolean;
    totalBefore?: number | null;
    /** The tree as read before the change, still true but for `changedLines` (all of it, if not given). */
    tree?: EstimateTree;
    changedLines?: ReadonlySet<number>;
  } = {},
): Promise<EstimateTree> {
  const { trx, ctx, settings, at, places } = step;
  let tree = options.tree;
  if (tree === undefined) {
    const estimate = await trx
      .selectFrom('estimates')
      .selectAll()
      .where('id', '=', estimateId)
      .executeTakeFirstOrThrow();
    tree = await loadTree(trx, estimate);
  } else if (options.changedLines !== undefined) await reloadLines(trx, tree, options.changedLines);
  const fresh = tree.estimate;
  await resolveDriveTimes(
    trx,
    tree,
    {
      places,
      geocoderConfigured: ctx.deps.geocoder.configured,
      settings,
      jobAddress: await jobAddressOf(trx, fresh),
    },
    !!options.refreshDriveTimes,
  );
  // Numbers only: the lines' explain texts are built when a line is read (explainLine), which
  // saves about two thirds of the engine's time and half the stored document's bytes on every write.
  const { result, input } = calculate(tree, settings, { explain: false });
  const document = calculationDocument(result, input);
  const stored = storedCalculation(result, linesInBid(tree).length, document);
  const revision = fresh.revision + 1;
  const changes = { ...stored, revision, updated_at: at };
  await trx.updateTable('estimates').set(changes).where('id', '=', fresh.id).execute();
  tree.estimate = { ...fresh, ...changes };
  tree.priced = { text: stored.calculation, document };
  await trx
    .insertInto('estimate_revisions')
    .values({
      firm_id: fresh.firm_id,
      estimate_id: fresh.id,
      revision,
      action: note.action,
      summary: note.summary,
      changes: JSON.stringify(note.changes ?? {}),
      user_id: ctx.auth.user.id,
      total_before_cents: options.totalBefore === undefined ? fresh.price_cents : options.totalBefore,
      total_after_cents: stored.price_cents,
      created_at: at,
    })
    .execute();
  await refreshJobEstimate(trx, fresh.job_id);
  return tree;
}

/**
 * A refusal naming a cost line this write added names it by its place in the body instead: the
 * rollback leaves no cost line with that id.
 */
function namedByIndex(e: unknown, added: Map<number, number>): unknown {
  if (e instanceof NeedsGeocoding) {
    for (const [address, site] of e.wanted) {
      if (site.cost_line_id !== null && added.has(site.cost_line_id)) {
        e.wanted.set(address, { cost_line_id: null, field: `cost_lines[${added.get(site.cost_line_id)}]` });
      }
    }
    return e;
  }
  if (!(e instanceof ApiError) || typeof e.body.cost_line_id !== 'number' || !added.has(e.body.cost_line_id)) return e;
  const { error, cost_line_id: id, field, ...rest } = e.body;
  const at = `cost_lines[${added.get(id as number)}]`;
  return new ApiError(e.status, error, { ...rest, cost_line_id: null, field: field ? `${at}.${String(field)}` : at });
}

/**
 * A workspace transaction for an estimate write, run again (as a whole, on fresh rows) after the
 * drive times it needs are looked up outside it. `work` must only write through `trx`.
 */
export function inEstimateTransaction<T>(
  ctx: ServiceContext,
  work: (trx: Trx, places: Places) => Promise<T>,
): Promise<T> {
  return withPlaces(ctx.deps.geocoder, (places) => inWorkspaceTransaction(ctx, (trx) => work(trx, places)));
}

/**
 * Runs one change of an existing estimate. `work` writes the change and says what to log (null:
 * nothing changed); `after` runs on the re-priced tree (freezing a version, recording events)
 * before the answer, unless nothing changed.
 */
export async function writeEstimate(
  ctx: ServiceContext,
  id: number,
  rule: WriteRule,
  work: (step: WriteStep) => Promise<RevisionNote | null>,
  after?: (step: WriteStep) => Promise<void>,
) {
  return inEstimateTransaction(ctx, async (trx, places) => {
    const estimate = await findEstimateToWrite(trx, ctx.auth.firm.id, id, ctx.auth.user);
    if (!estimate) throw estimateNotFound();
    if (rule.goneWhenArchived && estimate.archived_at !== null) throw alreadyArchived(estimateNotFound());
    if (rule.deletion) assertDeletionAllowed(ctx);
    assertEstimateRole(ctx.auth.user, rule.action);
    let unchanged = false;
    const tree = await writeFoundEstimate(ctx, trx, places, estimate, rule, async (step) => {
      const note = await work(step);
      unchanged = note === null;
      return note;
    });
    // Nothing changed: the estimate answers as stored, its calculation read now (findEstimateToWrite
    // left it out), and nothing follows from the change (no version, no event).
    if (unchanged) tree.estimate = { ...tree.estimate, calculation: await storedCalculationText(trx, id) };
    else if (after) await after({ ctx, trx, settings: ctx.auth.settings, at: tree.estimate.updated_at, places, tree });
    return estimateObject(tree);
  });
}

/**
 * The write itself, in the caller's transaction (opened by inEstimateTransaction, so drive times
 * are looked up outside it), on an estimate the caller found and may change: status check, the
 * change, the re-pricing and the edit-log entry (none when `work` says nothing changed). writeEstimate runs every API write through it;
 * a change another record causes (assessment pins feeding a draft estimate) calls it directly,
 * inside that record's transaction, and is priced and logged exactly the same way.
 */
export async function writeFoundEstimate(
  ctx: ServiceContext,
  trx: Trx,
  places: Places,
  estimate: Estimate,
  rule: Pick<WriteRule, 'statuses' | 'archived' | 'refreshDriveTimes' | 'treeUnchanged'>,
  work: (step: WriteStep) => Promise<RevisionNote | null>,
): Promise<EstimateTree> {
  assertStatus(estimate, rule);
  const base = { ctx, trx, settings: ctx.auth.settings, at: now(), places };
  const newCostLines = new Map<number, number>();
  const tree = await loadTree(trx, estimate);
  // The lines the change says it wrote; none said, the whole tree is read again after it.
  let changedLines: Set<number> | undefined;
  const linesChanged = (...ids: number[]) => {
    changedLines ??= new Set();
    for (const id of ids) changedLines.add(id);
  };
  const note = await work({ ...base, tree, newCostLines, linesChanged });
  // A change that changed nothing (an empty PATCH, the values already there) writes nothing: no
  // re-pricing, no edit-log entry, no new updated_at; the estimate answers as it stands.
  if (note === null) return tree;
  return repriceAndLog(base, estimate.id, note, {
    refreshDriveTimes: rule.refreshDriveTimes,
    totalBefore: estimate.price_cents,
    ...(rule.treeUnchanged ? { tree } : changedLines === undefined ? {} : { tree, changedLines }),
  }).catch((e) => {
    throw namedByIndex(e, newCostLines);
  });
}
