// A job merge moves the merged-away job's invoices to the kept job: invoices are never deleted,
// so none may go with the merged-away job.
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';

export const invoiceJobMergeMover: MergeMover = {
  label: 'invoices',
  async move(trx, from, to) {
    await trx.updateTable('invoices').set({ job_id: to, updated_at: now() }).where('job_id', '=', from).execute();
  },
};
