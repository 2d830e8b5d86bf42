// What job and customer merges do with the portal's records (src/area.ts, mergeMovers).
// - A job merge moves the merged-away job's portal messages and review links to the kept job; its
//   running follow-up sequence stops (the kept job's own sequence, if any, carries on) and goes
//   with the job.
// - A customer merge: when the kept customer has no portal link, the merged-away customer's link
//   moves to it and keeps working (now showing the kept customer's jobs, which include the merged
//   ones); when the kept customer has its own, the merged-away link stops ("replaced by a newer
//   one", 410) and its row goes.
import type { MergeMover } from '#crm/merges/movers.ts';
import { retireLink } from '#pages/links.ts';
import { now } from '#platform/time.ts';
import { stopRunningSequence } from '#crm/follow-up-sequences/runs.ts';
import { findCustomerLink } from './repo.ts';
import { PORTAL_LINK_KIND } from './service.ts';

export const portalJobMergeMovers: readonly MergeMover[] = [
  {
    label: 'portal messages',
    async move(trx, fromId, toId) {
      await trx.updateTable('portal_messages').set({ job_id: toId }).where('job_id', '=', fromId).execute();
    },
  },
  {
    label: 'reviews',
    async move(trx, fromId, toId) {
      await trx.updateTable('reviews').set({ job_id: toId }).where('job_id', '=', fromId).execute();
    },
  },
  {
    label: 'follow-up sequences',
    async move(trx, fromId, _toId, scope) {
      await stopRunningSequence(trx, scope.firmId, fromId, 'stopped');
    },
  },
];

export const portalCustomerMergeMovers: readonly MergeMover[] = [
  {
    label: 'portal links',
    async count(db, fromId, scope) {
      return (await findCustomerLink(db, scope.firmId, fromId)) ? 1 : 0;
    },
    async move(trx, fromId, toId, scope) {
      const away = await findCustomerLink(trx, scope.firmId, fromId);
      if (!away) return;
      if (!(await findCustomerLink(trx, scope.firmId, toId))) {
        await trx
          .updateTable('portal_links')
          .set({ client_account_id: toId, updated_at: now() })
          .where('id', '=', away.id)
          .execute();
        return;
      }
      if (away.enabled === 1)
        await retireLink(trx, {
          firmId: scope.firmId,
          kind: PORTAL_LINK_KIND,
          tokenHash: away.token_hash,
          reason: 'replaced',
        });
      await trx.deleteFrom('portal_links').where('id', '=', away.id).execute();
    },
  },
];
