// A job merge moves the merged-away job's proposals to the kept job (document 2, Merge: "moves
// takeoffs, estimates, proposals …"). Their links, signatures and audit trails go with them.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const proposalJobMergeMover: MergeMover = {
  label: 'proposals',
  async move(trx, from, to) {
    await trx.updateTable('proposals').set({ job_id: to, updated_at: now() }).where('job_id', '=', from).execute();
  },
};
