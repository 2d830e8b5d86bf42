// A job merge moves the merged-away job's time entries to the kept job (updated_at moves, so an
// incremental export sees them under their new job).
import { now } from '#platform/time.ts';
import type { MergeMover } from '#src/area.ts';

export const timeEntryJobMergeMover: MergeMover = {
  label: 'time entries',
  async move(trx, from, to, scope) {
    await trx
      .updateTable('time_entries')
      .set({ job_id: to, updated_at: now() })
      .where('firm_id', '=', scope.firmId)
      .where('job_id', '=', from)
      .execute();
  },
};
