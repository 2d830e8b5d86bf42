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

/** Everything the engine prices and the single read shows, in display order. */
export interface EstimateTree {
  estimate: Estimate;
  areas: EstimateArea[];
  lines: EstimateLine[];
  /** By line_item_id, in position order. */
  costLines: Map<number, EstimateCostLine[]>;
}

export async function loadTree(db: Executor, estimate: Estimate): Promise<EstimateTree> {
  const [areas, lines, costLines] = await Promise.all([
    db
      .selectFrom('estimate_areas')
      .selectAll()
      .where('estimate_id', '=', estimate.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('estimate_lines')
      .selectAll()
      .where('estimate_id', '=', estimate.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('estimate_cost_lines')
      .selectAll()
      .where('estimate_id', '=', estimate.id)
      .orderBy('line_item_id')
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const byLine = new Map<number, EstimateCostLine[]>();
  for (const cl of costLines) {
    const list = byLine.get(cl.line_item_id);
    if (list) list.push(cl);
    else byLine.set(cl.line_item_id, [cl]);
  }
  return { estimate, areas, lines, costLines: byLine };
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
