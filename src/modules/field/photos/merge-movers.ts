// What a job merge moves from the merged-away job (src/area.ts, mergeMovers.job): its photos, with
// their stored files untouched (only the job they hang on changes), after the kept job's own in
// the gallery.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const photoMergeMovers: readonly MergeMover[] = [
  {
    label: 'photos',
    async move(trx, fromId, toId) {
      await trx.updateTable('photos').set({ job_id: toId, updated_at: now() }).where('job_id', '=', fromId).execute();
    },
  },
];
