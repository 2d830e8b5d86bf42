// What a job merge does with the merged-away job's photo links (src/area.ts, mergeMovers.job). Its
// photos move to the kept job (photos/merge-movers.ts), so its links follow them: the chosen-photo
// links move as they are, and its photo report link moves when the kept job has none. A job has
// one report link, so when both have one the kept job's stays and the other's page says it was
// replaced by a newer link.
import type { MergeMover } from '#src/area.ts';
import { retireLink } from '#platform/customer-links.ts';
import { now } from '#platform/time.ts';

export const photoShareMergeMovers: readonly MergeMover[] = [
  {
    label: 'photo report links',
    async move(trx, fromId, toId, scope) {
      const away = await trx
        .selectFrom('photo_share_links')
        .select(['id', 'token_hash'])
        .where('job_id', '=', fromId)
        .executeTakeFirst();
      if (!away) return;
      const kept = await trx.selectFrom('photo_share_links').select('id').where('job_id', '=', toId).executeTakeFirst();
      if (!kept) {
        await trx
          .updateTable('photo_share_links')
          .set({ job_id: toId, updated_at: now() })
          .where('id', '=', away.id)
          .execute();
        return;
      }
      // A link turned off has its hash retired already ('disabled'); retireLink keeps that reason.
      await retireLink(trx, {
        firmId: scope.firmId,
        kind: 'photo_report',
        tokenHash: away.token_hash,
        reason: 'replaced',
      });
      await trx.deleteFrom('photo_share_links').where('id', '=', away.id).execute();
    },
  },
  {
    label: 'photo selection links',
    async move(trx, fromId, toId) {
      await trx.updateTable('photo_selection_shares').set({ job_id: toId }).where('job_id', '=', fromId).execute();
    },
  },
];
