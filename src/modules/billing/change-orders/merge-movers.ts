// A job merge moves the merged-away job's change orders to the kept job (they are never deleted),
// numbered after the kept job's own so co_number stays unique within the job, in their order.
// What their approvals posted moves with them (contract.ts, jobContractMergeMover).
import type { MergeMover } from '#src/area.ts';
import { now } from '#platform/time.ts';
import { nextCoNumber } from './repo.ts';

export const changeOrderJobMergeMover: MergeMover = {
  label: 'change orders',
  async move(trx, from, to) {
    const moving = await trx
      .selectFrom('change_orders')
      .select('id')
      .where('job_id', '=', from)
      .orderBy('co_number')
      .execute();
    let number = await nextCoNumber(trx, to);
    const t = now();
    for (const { id } of moving) {
      await trx
        .updateTable('change_orders')
        .set({ job_id: to, co_number: number++, updated_at: t })
        .where('id', '=', id)
        .execute();
    }
  },
};
