// A job merge moves the away job's measurements to the kept job (document 2: "Merge moves
// takeoffs …"), and the kept job's measurement_count counts them.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';
import { recountJob } from './repo.ts';

export const measurementJobMergeMover: MergeMover = {
  label: 'measurements',
  async move(trx, from, to, scope) {
    await trx
      .updateTable('measurements')
      .set({ job_id: to })
      .where('firm_id', '=', scope.firmId)
      .where('job_id', '=', from)
      .execute();
    await recountJob(trx, scope.firmId, to, now());
  },
};
