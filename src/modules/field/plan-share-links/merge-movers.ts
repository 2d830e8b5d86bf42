// What a site merge does with the merged-away site's capital plan link (src/area.ts,
// mergeMovers.location). A site has at most one link: when the kept site has none, the link moves
// to it and keeps working, now showing the kept site's plan (which takes in the merged site's
// assessments); when the kept site has its own, the merged-away site's link stops ("replaced by a
// newer one", 410) and its row goes.
import type { MergeMover } from '#src/area.ts';
import { ownedLinkMergeMover } from '#crm/index.ts';
import { now } from '#platform/time.ts';
import { findSiteLink } from './repo.ts';
import { LINK_KIND } from './service.ts';

export const planShareMergeMovers: readonly MergeMover[] = [
  ownedLinkMergeMover({
    label: 'capital plan links',
    kind: LINK_KIND,
    find: findSiteLink,
    async reassign(trx, linkId, toId) {
      await trx
        .updateTable('plan_share_links')
        .set({ location_id: toId, updated_at: now() })
        .where('id', '=', linkId)
        .execute();
    },
    async remove(trx, linkId) {
      await trx.deleteFrom('plan_share_links').where('id', '=', linkId).execute();
    },
  }),
];
