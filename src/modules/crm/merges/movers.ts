// What a merge of customers, contacts or sites moves to the kept record. Every area that points
// rows at one of them registers a mover here (reminders, files, divisions, capital plan items,
// re-bid history, campaign recipients … as they arrive), so the preview's counts and the merge's
// moves come from one list and a merge never leaves rows pointing at a removed record.
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';

export type MergeKind = 'client_account' | 'contact' | 'location';

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
  /** The field choices resolved for every differing field ('keep', 'drop' or 'both'). */
  choices: Readonly<Record<string, string>>;
}

export interface RecordMergeMover {
  /** Plural noun shown in the preview's moves, e.g. 'jobs'. */
  label: string;
  /** How many rows the merge would move (the preview runs it outside a transaction). */
  count(db: Executor, fromId: number, scope: MergeScope): Promise<number>;
  move(trx: Transaction<DB>, fromId: number, toId: number, scope: MergeScope): Promise<void>;
}

const movers: Record<MergeKind, RecordMergeMover[]> = { client_account: [], contact: [], location: [] };

/** Adds a mover; movers run in registration order, inside the merge's transaction. */
export function registerRecordMergeMover(kind: MergeKind, mover: RecordMergeMover): void {
  movers[kind].push(mover);
}

export function moversOf(kind: MergeKind): readonly RecordMergeMover[] {
  return movers[kind];
}

/** Counts jobs of a site that carry invoices (document 2: such a site needs move_invoiced_jobs). */
export type InvoicedJobCounter = (db: Executor, firmId: number, locationId: number) => Promise<number>;

let invoicedJobCounter: InvoicedJobCounter | null = null;

/**
 * Invoices arrive with a later area, which registers the counter here; until then no job counts
 * as invoiced. A later registration replaces the earlier one.
 */
export function registerInvoicedJobCounter(counter: InvoicedJobCounter): void {
  invoicedJobCounter = counter;
}

export function countInvoicedJobs(db: Executor, firmId: number, locationId: number): Promise<number> {
  return invoicedJobCounter ? invoicedJobCounter(db, firmId, locationId) : Promise.resolve(0);
}
