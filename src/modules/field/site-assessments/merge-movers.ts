// What a job merge moves from the merged-away job (src/area.ts, mergeMovers.job): its assessments
// and pins, which would otherwise go with the deleted job. A job has at most one open assessment,
// so when both jobs have one, the merged-away job's is completed on the way (no handoff: nobody
// handed it over) and the kept job's stays open.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const assessmentMergeMovers: readonly MergeMover[] = [
  {
    label: 'site assessments',
    async move(trx, fromId, toId) {
      const at = now();
      const keptOpen = await trx
        .selectFrom('site_assessments')
        .select('id')
        .where('job_id', '=', toId)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (keptOpen) {
        await trx
          .updateTable('site_assessments')
          .set({ status: 'completed', completed_at: at })
          .where('job_id', '=', fromId)
          .where('status', '=', 'open')
          .execute();
      }
      await trx
        .updateTable('site_assessments')
        .set({ job_id: toId, updated_at: at })
        .where('job_id', '=', fromId)
        .execute();
      await trx
        .updateTable('assessment_pins')
        .set({ job_id: toId, updated_at: at })
        .where('job_id', '=', fromId)
        .execute();
    },
  },
];
