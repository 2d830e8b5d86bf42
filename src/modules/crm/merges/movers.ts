// What a merge of jobs, customers, contacts or sites moves to the kept record: the movers every
// area lists in its manifest (`mergeMovers`; the MergeMover contract is in src/area.ts), in area
// order, so the preview's counts and the merge's moves come from one list and a merge never leaves
// rows pointing at a removed record. Also the invoiced-job counter the billing area contributes.
import type { Executor } from '#db/dialect.ts';
import { contributions, type MergeKind, type MergeMover } from '#src/area.ts';

/** The movers of one kind, in area order (src/areas.ts). */
export function moversOf(kind: MergeKind): readonly MergeMover[] {
  return contributions().mergeMovers[kind];
}

/** Until the billing area contributes a counter, no job counts as invoiced. */
export function countInvoicedJobs(db: Executor, firmId: number, locationId: number): Promise<number> {
  const counter = contributions().invoicedJobCounter;
  return counter ? counter(db, firmId, locationId) : Promise.resolve(0);
}
