// What a job merge moves to the kept job. Each area that hangs records on a job registers one
// mover here (takeoffs, estimates, photos, invoices … as they arrive), so a merge never leaves
// records pointing at a deleted job.
import { sql } from 'kysely';
import type { Executor } from '#db/dialect.ts';

export type JobMergeMover = (trx: Executor, fromJobId: number, toJobId: number) => Promise<void>;

const movers: JobMergeMover[] = [];

export function registerJobMergeMover(mover: JobMergeMover): void {
  movers.push(mover);
}

export async function moveJobRecords(trx: Executor, fromJobId: number, toJobId: number): Promise<void> {
  for (const mover of movers) await mover(trx, fromJobId, toJobId);
}

/**
 * Moves rows of a (job_id, other) link table, skipping links the kept job already has; the
 * rest disappear with the merged-away job (ON DELETE CASCADE).
 */
function linkTableMover(table: 'job_assignees' | 'job_tag_links' | 'job_contacts', other: string): JobMergeMover {
  return async (trx, from, to) => {
    await sql`update ${sql.table(table)} set job_id = ${to}
      where job_id = ${from} and ${sql.ref(other)} not in (select ${sql.ref(other)} from ${sql.table(table)} where job_id = ${to})`
      .execute(trx);
  };
}

registerJobMergeMover(linkTableMover('job_assignees', 'user_id'));
registerJobMergeMover(linkTableMover('job_tag_links', 'tag_id'));
registerJobMergeMover(async (trx, from, to) => {
  // People keep their roles, but the kept job's primary contact stays the primary.
  await sql`update job_contacts set job_id = ${to}, is_primary = 0
    where job_id = ${from} and contact_id not in (select contact_id from job_contacts where job_id = ${to})`.execute(trx);
});
