// The job object's estimate_id, estimate_number and estimate_total (document 2, Job): the job's
// estimate is its won one, else its latest open one, else its latest lost one; change-order and
// archived estimates never are. Kept on the job row without moving the job's updated_at, which
// document 2 keeps for changes of the job itself ("not on new estimates").
import { sql } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { MergeMover } from '#src/area.ts';

export async function refreshJobEstimate(trx: Executor, jobId: number | null): Promise<void> {
  if (jobId === null) return;
  const pick = await trx
    .selectFrom('estimates')
    .select(['id', 'doc_number', 'price_cents'])
    .where('job_id', '=', jobId)
    .where('archived_at', 'is', null)
    .where('is_change_order', '=', 0)
    .orderBy(sql`case status when 'won' then 0 when 'lost' then 2 else 1 end`)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  await trx
    .updateTable('jobs')
    .set({
      estimate_id: pick?.id ?? null,
      estimate_number: pick?.doc_number ?? null,
      estimate_total_cents: pick?.price_cents ?? null,
    })
    .where('id', '=', jobId)
    .execute();
}

/** A job merge moves the merged-away job's estimates to the kept job (document 2, Merge). */
export const estimateJobMergeMover: MergeMover = {
  label: 'estimates',
  async move(trx, from, to) {
    await trx.updateTable('estimates').set({ job_id: to }).where('job_id', '=', from).execute();
    await refreshJobEstimate(trx, to);
  },
};
