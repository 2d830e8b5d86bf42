// Estimate queries: the estimate a user may see, its whole tree (areas, lines, cost lines), lists.
import type { Executor } from '#db/dialect.ts';
import type {
  Estimate,
  EstimateArea,
  EstimateCostLine,
  EstimateLine,
  EstimateTotalsColumns,
  User,
} from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Calculation } from './calculation.ts';
import { syncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

/** An estimate of the workspace whose job the user may see (an estimate without a job: everyone). */
export function findEstimate(db: Executor, firmId: number, id: number, user: User): Promise<Estimate | undefined> {
  return onVisibleJob(
    db.selectFrom('estimates').selectAll().where('firm_id', '=', firmId).where('id', '=', id),
    'estimates.job_id',
    firmId,
    user,
  ).executeTakeFirst();
}

/**
 * Every column of an estimate but its calculation, as a record so that a column added to the table
 * must be named here too (the compiler asks for every key).
 */
const ALL_BUT_CALCULATION: Record<Exclude<keyof Estimate, 'calculation'>, true> = {
  id: true,
  firm_id: true,
  job_id: true,
  doc_number: true,
  name: true,
  status: true,
  is_change_order: true,
  parent_estimate_id: true,
  change_order_mode: true,
  template_id: true,
  current_version: true,
  priced: true,
  pricing: true,
  job_costs: true,
  awarded_at: true,
  award_snapshot_id: true,
  lost_at: true,
  lost_reason: true,
  status_before_lost: true,
  revision: true,
  created_by_user_id: true,
  archived_at: true,
  created_at: true,
  updated_at: true,
  price_cents: true,
  subtotal_cents: true,
  tax_cents: true,
  cost_cents: true,
  margin_cents: true,
  optional_total_cents: true,
  margin_pct: true,
};
const BUT_CALCULATION = Object.keys(ALL_BUT_CALCULATION).map((c) => `estimates.${c}` as 'estimates.id');

/** An estimate about to be re-priced, whose stored calculation is not read: the write replaces it. */
export interface EstimateToWrite extends Omit<Estimate, 'calculation'> {
  calculation: null;
}

/**
 * findEstimate for a write: the row without its calculation document (800 KB for 500 detailed
 * lines), which the re-pricing replaces; a write that ends up changing nothing reads it then
 * (storedCalculationText).
 */
export async function findEstimateToWrite(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<EstimateToWrite | undefined> {
  const row = await onVisibleJob(
    db.selectFrom('estimates').select(BUT_CALCULATION).where('firm_id', '=', firmId).where('id', '=', id),
    'estimates.job_id',
    firmId,
    user,
  ).executeTakeFirst();
  return row && { ...(row as unknown as Omit<Estimate, 'calculation'>), calculation: null };
}

export async function storedCalculationText(db: Executor, id: number): Promise<string | null> {
  const row = await db.selectFrom('estimates').select('calculation').where('id', '=', id).executeTakeFirstOrThrow();
  return row.calculation;
}

/** Everything the engine prices and the single read shows, in display order. */
export interface EstimateTree {
  estimate: Estimate;
  areas: EstimateArea[];
  lines: EstimateLine[];
  /** By line_item_id, in position order. */
  costLines: Map<number, EstimateCostLine[]>;
  /** The calculation a write just stored, as built and as text: the answer reads it without parsing it back. */
  priced?: { text: string; document: Calculation };
}

const areasOf = (db: Executor, estimateId: number) =>
  db.selectFrom('estimate_areas').selectAll().where('estimate_id', '=', estimateId).orderBy('position').orderBy('id');

const linesOf = (db: Executor, estimateId: number) =>
  db.selectFrom('estimate_lines').selectAll().where('estimate_id', '=', estimateId).orderBy('position').orderBy('id');

const costLinesOf = (db: Executor, estimateId: number) =>
  db
    .selectFrom('estimate_cost_lines')
    .selectAll()
    .where('estimate_id', '=', estimateId)
    .orderBy('line_item_id')
    .orderBy('position')
    .orderBy('id');

/** Cost lines by their line, each line's in the order read. */
function byLine(costLines: EstimateCostLine[], into = new Map<number, EstimateCostLine[]>()) {
  for (const cl of costLines) {
    const list = into.get(cl.line_item_id);
    if (list) list.push(cl);
    else into.set(cl.line_item_id, [cl]);
  }
  return into;
}

export async function loadTree(db: Executor, estimate: Estimate): Promise<EstimateTree> {
  const [areas, lines, costLines] = await Promise.all([
    areasOf(db, estimate.id).execute(),
    linesOf(db, estimate.id).execute(),
    costLinesOf(db, estimate.id).execute(),
  ]);
  return { estimate, areas, lines, costLines: byLine(costLines) };
}

/**
 * The tree after a write that changed only these lines (added, changed or removed) and their cost
 * lines, and perhaps added an area: those lines, their cost lines and the areas are read again, the
 * other lines kept as read. A 500-line estimate's write then reads a few rows, not 3,000.
 */
export async function reloadLines(db: Executor, tree: EstimateTree, lineIds: ReadonlySet<number>): Promise<void> {
  const ids = [...lineIds];
  const id = tree.estimate.id;
  const [areas, lines, costLines] = await Promise.all([
    areasOf(db, id).execute(),
    ids.length === 0 ? [] : linesOf(db, id).where('id', 'in', ids).execute(),
    ids.length === 0 ? [] : costLinesOf(db, id).where('line_item_id', 'in', ids).execute(),
  ]);
  tree.areas = areas;
  // In display order, as loadTree reads them: position, then id.
  tree.lines = [...tree.lines.filter((l) => !lineIds.has(l.id)), ...lines].sort(
    (a, b) => a.position - b.position || a.id - b.id,
  );
  for (const lineId of ids) tree.costLines.delete(lineId);
  byLine(costLines, tree.costLines);
}

export interface EstimateFilter {
  jobId?: number;
  status?: string;
  updatedAfter?: SyncWindow;
  includeArchived?: boolean;
}

function filtered(db: Executor, firmId: number, user: User, f: EstimateFilter, rest?: GroupRest) {
  let qb = onVisibleJob(
    db.selectFrom('estimates').where('estimates.firm_id', '=', firmId),
    'estimates.job_id',
    firmId,
    user,
  );
  if (f.jobId !== undefined) qb = qb.where('estimates.job_id', '=', f.jobId);
  if (f.status !== undefined) qb = qb.where('estimates.status', '=', f.status);
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'estimates', f.updatedAfter, rest);
  if (!f.includeArchived) qb = qb.where('estimates.archived_at', 'is', null);
  return qb;
}

/** Most recently updated first; with updated_after oldest first (document 3, Estimates). */
export async function listEstimates(
  db: Executor,
  firmId: number,
  user: User,
  f: EstimateFilter,
  limit: number,
  offset: number,
) {
  const sorted = (dir: 'asc' | 'desc', rest?: GroupRest) =>
    filtered(db, firmId, user, f, rest)
      .selectAll('estimates')
      .orderBy('estimates.updated_at', dir)
      .orderBy('estimates.id', dir);
  const window = f.updatedAfter;
  const page =
    window !== undefined
      ? syncPage(window, { limit, offset }, (rest) =>
          (rest ? sorted('asc', rest) : sorted('asc').limit(limit).offset(offset)).execute(),
        )
      : sorted('desc').limit(limit).offset(offset).execute();
  const [rows, count] = await Promise.all([
    page,
    filtered(db, firmId, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Estimate[], total: Number(count.n) };
}

export function nextDocNumber(db: Executor, firmId: number): Promise<number> {
  return db
    .selectFrom('estimates')
    .select((eb) => eb.fn.max('doc_number').as('n'))
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n ?? 0) + 1);
}

/** Next position in a list of rows ordered by `position`. */
export function nextPosition(rows: { position: number }[]): number {
  return rows.reduce((max, r) => Math.max(max, r.position), 0) + 1;
}

/** The stored totals of an estimate, to freeze beside a snapshot. */
export function totalsColumnsOf(e: EstimateTotalsColumns): EstimateTotalsColumns {
  return {
    price_cents: e.price_cents,
    subtotal_cents: e.subtotal_cents,
    tax_cents: e.tax_cents,
    cost_cents: e.cost_cents,
    margin_cents: e.margin_cents,
    optional_total_cents: e.optional_total_cents,
    margin_pct: e.margin_pct,
  };
}

export type { EstimateLine, EstimateCostLine, EstimateArea, Estimate };
