// How much of a contract its work orders have done, for progress billing when the office sends no
// percent_complete (docs/api-decisions.md, "Online payments"). Pure: the proposal's priced lines
// and the job's work orders in, a percent out.
//
// A line's share of the work is its price over the proposal's priced lines. A work order on a line
// has done its completed quantity (daily reports, or the figure given at completion) over the line's
// quantity, capped at the whole line; several work orders on one line add up. Work orders on no
// line of the proposal share what the lines with work orders do not cover, equally, each done by
// its own completed over planned quantity (or wholly, once completed). Lines nobody is scheduled for
// are not done. The percent is rounded half up to two decimals, so the invoice line ("62.5% of
// $X = $Y") can be checked by hand.
import type { WorkOrderProgress } from '#operations/index.ts';

export interface ContractLine {
  lineId: number;
  quantity: number;
  priceCents: number;
}

const fraction = (done: number, of: number | null) => (of !== null && of > 0 ? Math.min(1, Math.max(0, done / of)) : 0);

/** The share of `line` (0–1, before capping) a work order on it has done. */
function shareOf(o: WorkOrderProgress, line: ContractLine): number {
  // Completed: the quantity given at completion, else its plan, else (no plan) the whole line.
  const planned = o.planned !== null && o.planned > 0 ? o.planned : null;
  const done = o.completed ? (o.completedQty ?? planned ?? line.quantity) : o.reported;
  // A line without a quantity is done once its visit is completed or reports anything.
  if (line.quantity <= 0) return o.completed || done > 0 ? 1 : 0;
  return Math.max(0, done) / line.quantity;
}

/** How far a work order on no line of the proposal has got, 0–1. */
function progressOf(o: WorkOrderProgress): number {
  if (o.completed)
    return o.completedQty !== null && o.planned !== null && o.planned > 0 ? fraction(o.completedQty, o.planned) : 1;
  return fraction(o.reported, o.planned);
}

/** The percent of the contract done (0–100, two decimals), or null when there is nothing to go by. */
export function workDonePercent(lines: readonly ContractLine[], orders: readonly WorkOrderProgress[]): number | null {
  const priced = lines.filter((l) => l.priceCents > 0);
  const total = priced.reduce((s, l) => s + l.priceCents, 0);
  if (orders.length === 0 || total <= 0) return null;
  const byLine = new Map(priced.map((l) => [l.lineId, l]));
  const doneByLine = new Map<number, number>();
  const unlinked: number[] = [];
  for (const o of orders) {
    const line = o.lineId === null ? undefined : byLine.get(o.lineId);
    if (line) doneByLine.set(line.lineId, (doneByLine.get(line.lineId) ?? 0) + shareOf(o, line));
    else unlinked.push(progressOf(o));
  }
  let doneCents = 0;
  let coveredCents = 0;
  for (const [lineId, share] of doneByLine) {
    const line = byLine.get(lineId)!;
    coveredCents += line.priceCents;
    doneCents += line.priceCents * Math.min(1, share);
  }
  if (unlinked.length > 0)
    doneCents += ((total - coveredCents) * unlinked.reduce((s, p) => s + p, 0)) / unlinked.length;
  // Half up to two decimals; the epsilon keeps a float like 62.499999… from rounding down.
  return Math.floor((doneCents / total) * 10_000 + 0.5 + 1e-9) / 100;
}
