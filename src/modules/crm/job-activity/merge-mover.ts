// A job merge moves the merged-away job's notes, activities, follow-ups and activity log to the
// kept job, and notes the merge in the kept job's log (listed in the CRM manifest).
import type { MergeMover } from '#src/area.ts';
import { logJobActivity } from './log.ts';

export const jobActivityMergeMover: MergeMover = {
  label: 'notes, activities, follow-ups and activity log',
  async move(trx, from, to) {
    const away = await trx
      .selectFrom('jobs')
      .select(['firm_id', 'name', 'job_number'])
      .where('id', '=', from)
      .executeTakeFirst();
    await trx.updateTable('notes').set({ job_id: to }).where('job_id', '=', from).execute();
    await trx.updateTable('activities').set({ job_id: to }).where('job_id', '=', from).execute();
    await trx.updateTable('tasks').set({ job_id: to }).where('job_id', '=', from).execute();
    await trx.updateTable('job_activity').set({ job_id: to }).where('job_id', '=', from).execute();
    if (away) {
      await logJobActivity(trx, {
        firmId: away.firm_id,
        jobId: to,
        userId: null,
        kind: 'job_merged',
        summary: `Job "${away.name}" merged into this job`,
        data: { merged_job_id: from, merged_job_name: away.name, merged_job_number: away.job_number },
      });
    }
  },
};
