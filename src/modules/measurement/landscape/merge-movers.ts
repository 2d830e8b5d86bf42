// A job merge moves the away job's landscape takeoffs and their runs to the kept job (document 2:
// "Merge moves takeoffs …").
import type { MergeMover } from '#src/area.ts';

export const landscapeJobMergeMover: MergeMover = {
  label: 'landscape takeoffs',
  async move(trx, from, to, scope) {
    for (const table of ['landscape_takeoffs', 'landscape_runs'] as const)
      await trx
        .updateTable(table)
        .set({ job_id: to })
        .where('firm_id', '=', scope.firmId)
        .where('job_id', '=', from)
        .execute();
  },
};
