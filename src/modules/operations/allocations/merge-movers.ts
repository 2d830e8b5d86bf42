// A job merge moves the merged-away job's allocations to the kept job (updated_at moves, so an
// incremental export sees them under their new job).
import { now } from '#platform/time.ts';
import type { MergeMover } from '#src/area.ts';

export const allocationJobMergeMover: MergeMover = {
  label: 'allocations',
  async move(trx, from, to, scope) {
    await trx
      .updateTable('allocations')
      .set({ job_id: to, updated_at: now() })
      .where('firm_id', '=', scope.firmId)
      .where('job_id', '=', from)
      .execute();
  },
};
