// What a merge of jobs, customers, contacts or sites moves to the kept record. Every area that
// points rows at one of them lists a mover in its manifest (`mergeMovers`, src/area.ts), so the
// preview's counts and the merge's moves come from one list and a merge never leaves rows
// pointing at a removed record.
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { contributions } from '#src/area.ts';

export type MergeKind = 'job' | RecordMergeKind;

/** The records merged with a preview and field choices (document 2, Search and merge). */
export type RecordMergeKind = 'client_account' | 'contact' | 'location';

/** The merge a mover works for. */
export interface MergeScope {
  firmId: number;
  /** The key's user (authors of anything a mover logs). */
  userId: number;
  keptId: number;
  awayId: number;
  /** The kept record's name after the merge, and the merged-away record's name. */
  keptName: string;
  awayName: string;
  /** The field choices resolved for every differing field ('keep', 'drop' or 'both'); empty for jobs. */
  choices: Readonly<Record<string, string>>;
}

/**
 * Moves one kind of row from the merged-away record to the kept one, inside the merge's
 * transaction. Rows a mover leaves behind go with the merged-away record (ON DELETE CASCADE).
 */
export interface MergeMover {
  /** Plural noun shown in a merge preview's moves, e.g. 'jobs'. */
  label: string;
  /**
   * How many rows the merge would move (the preview runs it outside a transaction). Kinds with a
   * preview (customers, contacts, sites) need it on every mover; job merges have no preview.
   */
  count?(db: Executor, fromId: number, scope: MergeScope): Promise<number>;
  move(trx: Transaction<DB>, fromId: number, toId: number, scope: MergeScope): Promise<void>;
}

/** The movers of one kind, in area order (src/areas.ts). */
export function moversOf(kind: MergeKind): readonly MergeMover[] {
  return contributions().mergeMovers[kind];
}

/** Counts jobs of a site that carry invoices (document 2: such a site needs move_invoiced_jobs). */
export type InvoicedJobCounter = (db: Executor, firmId: number, locationId: number) => Promise<number>;

/** Until the billing area contributes a counter, no job counts as invoiced. */
export function countInvoicedJobs(db: Executor, firmId: number, locationId: number): Promise<number> {
  const counter = contributions().invoicedJobCounter;
  return counter ? counter(db, firmId, locationId) : Promise.resolve(0);
}
