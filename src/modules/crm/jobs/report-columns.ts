// Columns a job keeps for the owner reports (docs/reports.md, "Job reports"), kept by the job's own
// writes so a report groups and filters by them in SQL:
// - address_zip and address_city, read once from the address when it is written
//   (platform/address-parts.ts: SQLite has no regular expressions, and reading 100,000 addresses
//   into JavaScript per report would not scale);
// - decided_at, when the job last entered a won, lost or excluded stage from another type (the
//   "decided" date basis); back in an open stage it is null again;
// - bid_at, when the job's first proposal was sent (the "bid" date basis), set by markJobBid.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';

const DECIDED = new Set(['won', 'lost', 'excluded']);

/**
 * decided_at after a move from `from` (null on creation) to `to` at `at`: set on entering a decided
 * type from another type (open to won, won to lost …), kept within one, cleared back in open.
 * Undefined: unchanged.
 */
export function decidedAtAfter(from: JobStage | null, to: JobStage, at: string): string | null | undefined {
  if (!DECIDED.has(to.type)) return from === null ? null : DECIDED.has(from.type) ? null : undefined;
  return from !== null && from.type === to.type ? undefined : at;
}

/** Records that the job was bid at `at` (its first proposal sent), unless it was bid before. */
export async function markJobBid(db: Executor, firmId: number, jobId: number, at: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ bid_at: at })
    .where('firm_id', '=', firmId)
    .where('id', '=', jobId)
    .where('bid_at', 'is', null)
    .execute();
}
