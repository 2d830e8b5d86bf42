// What job and customer merges do with the portal's records (src/area.ts, mergeMovers).
// - A job merge moves the merged-away job's portal messages and review links to the kept job; its
//   running follow-up sequence stops (the kept job's own sequence, if any, carries on) and goes
//   with the job.
// - A customer merge: the merged-away customer's portal link moves to the kept customer (now
//   showing its jobs, which include the merged ones) or stops, as merges/owned-link-mover.ts says.
import type { MergeMover } from '#src/area.ts';
import { ownedLinkMergeMover } from '#crm/merges/owned-link-mover.ts';
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
  ownedLinkMergeMover({
    label: 'portal links',
    kind: PORTAL_LINK_KIND,
    find: findCustomerLink,
    async reassign(trx, linkId, toId) {
      await trx
        .updateTable('portal_links')
        .set({ client_account_id: toId, updated_at: now() })
        .where('id', '=', linkId)
        .execute();
    },
    async remove(trx, linkId) {
      await trx.deleteFrom('portal_links').where('id', '=', linkId).execute();
    },
  }),
];
