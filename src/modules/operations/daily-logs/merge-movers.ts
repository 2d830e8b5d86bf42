// A job merge moves the merged-away job's daily logs and reports to the kept job (src/area.ts,
// mergeMovers.job). They stay on their work orders (which the work-order mover moves too), and the
// logs' updated_at changes so a sync reading updated_after sees the new job_id.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const dailyLogMergeMovers: readonly MergeMover[] = [
  {
    label: 'daily logs',
    async move(trx, fromId, toId) {
      await trx
        .updateTable('daily_logs')
        .set({ job_id: toId, updated_at: now() })
        .where('job_id', '=', fromId)
        .execute();
    },
  },
  {
    label: 'daily reports',
    async move(trx, fromId, toId) {
      await trx
        .updateTable('daily_reports')
        .set({ job_id: toId, updated_at: now() })
        .where('job_id', '=', fromId)
        .execute();
    },
  },
];
