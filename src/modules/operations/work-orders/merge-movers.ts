// A job merge moves the merged-away job's work orders (holds among them) and its schedule requests
// to the kept job (document 2: merge moves "work orders"; allocations move by
// allocations/merge-movers.ts). Their days and crew-day locks are the work orders' own.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const workOrderJobMergeMover: MergeMover = {
  label: 'work orders',
  async move(trx, from, to) {
    const at = now();
    await trx.updateTable('work_orders').set({ job_id: to, updated_at: at }).where('job_id', '=', from).execute();
    await trx.updateTable('schedule_requests').set({ job_id: to, updated_at: at }).where('job_id', '=', from).execute();
  },
};
