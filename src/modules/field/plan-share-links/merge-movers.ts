// What a site merge does with the merged-away site's capital plan link (src/area.ts,
// mergeMovers.location). A site has at most one link: when the kept site has none, the link moves
// to it and keeps working, now showing the kept site's plan (which takes in the merged site's
// assessments); when the kept site has its own, the merged-away site's link stops ("replaced by a
// newer one", 410) and its row goes.
import type { MergeMover } from '#crm/merges/movers.ts';
import { retireLink } from '#pages/links.ts';
import { now } from '#platform/time.ts';
import { findSiteLink } from './repo.ts';
import { LINK_KIND } from './service.ts';

export const planShareMergeMovers: readonly MergeMover[] = [
  {
    label: 'capital plan links',
    async count(db, fromId, scope) {
      return (await findSiteLink(db, scope.firmId, fromId)) ? 1 : 0;
    },
    async move(trx, fromId, toId, scope) {
      const away = await findSiteLink(trx, scope.firmId, fromId);
      if (!away) return;
      if (!(await findSiteLink(trx, scope.firmId, toId))) {
        await trx
          .updateTable('plan_share_links')
          .set({ location_id: toId, updated_at: now() })
          .where('id', '=', away.id)
          .execute();
        return;
      }
      if (away.enabled === 1)
        await retireLink(trx, {
          firmId: scope.firmId,
          kind: LINK_KIND,
          tokenHash: away.token_hash,
          reason: 'replaced',
        });
      await trx.deleteFrom('plan_share_links').where('id', '=', away.id).execute();
    },
  },
];
