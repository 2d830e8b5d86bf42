// What a job merge moves to the kept job from the jobs area itself: assignees, tags and people.
// Every area that hangs records on a job lists its own mover in its manifest (`mergeMovers.job`,
// src/area.ts), so a merge never leaves records pointing at a deleted job.
import { sql } from 'kysely';
import type { MergeMover, MergeScope } from '#src/area.ts';
import { moversOf } from '#crm/merges/movers.ts';

/**
 * Moves rows of a (job_id, other) link table, skipping links the kept job already has; the
 * rest disappear with the merged-away job (ON DELETE CASCADE).
 */
function linkTableMover(label: string, table: 'job_assignees' | 'job_tag_links', other: string): MergeMover {
  return {
    label,
    async move(trx, from, to) {
      await sql`update ${sql.table(table)} set job_id = ${to}
        where job_id = ${from} and ${sql.ref(other)} not in (select ${sql.ref(other)} from ${sql.table(table)} where job_id = ${to})`.execute(
        trx,
      );
    },
  };
}

export const jobLinkMergeMovers: readonly MergeMover[] = [
  linkTableMover('assignees', 'job_assignees', 'user_id'),
  linkTableMover('tags', 'job_tag_links', 'tag_id'),
  {
    label: 'people',
    async move(trx, from, to) {
      // People keep their roles, but the kept job's primary contact stays the primary.
      await sql`update job_contacts set job_id = ${to}, is_primary = 0
        where job_id = ${from} and contact_id not in (select contact_id from job_contacts where job_id = ${to})`.execute(
        trx,
      );
    },
  },
];

/** Runs every area's job movers, in area order, inside the merge's transaction. */
export async function moveJobRecords(trx: Parameters<MergeMover['move']>[0], scope: MergeScope): Promise<void> {
  for (const mover of moversOf('job')) await mover.move(trx, scope.awayId, scope.keptId, scope);
}
